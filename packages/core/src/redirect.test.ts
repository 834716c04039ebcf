import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './redirect.ts';

describe('the page to return to after signing in', () => {
  it.each([
    ['/question/123', '/question/123'],
    ['/home?tag=porpoise&order=active', '/home?tag=porpoise&order=active'],
    ['/profile/alice#bio', '/profile/alice#bio'],
    ['/home?search=%5Bjs%5D', '/home?search=%5Bjs%5D'],
    ['/threads/12', '/threads/12'],
  ])('keeps the same-site path %s', (value, expected) => expect(safeRedirectPath(value)).toBe(expected));

  it.each([
    '//evil.example',
    '//evil.example/question/1',
    'https://evil.example',
    'javascript:alert(1)',
    '/\\evil.example',
    '\\\\evil.example',
    '/%2F%2Fevil.example',
    '%2F%2Fevil.example',
    '/%2fevil.example',
    '/%252F%252Fevil.example',
    '/%5Cevil.example',
    '/%5cevil.example',
    '/\t/evil.example',
    '/%09/evil.example',
    '/\n/evil.example',
    'https:%2F%2Fevil.example',
    'question/1',
    '',
    '/%E0%A4%A',
    '/%2525252525252F',
  ])('refuses %j', (value) => expect(safeRedirectPath(value)).toBeNull());

  it('refuses nothing at all', () => {
    expect(safeRedirectPath(null)).toBeNull();
    expect(safeRedirectPath(undefined)).toBeNull();
  });
});
