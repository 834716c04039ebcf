import { describe, expect, it } from 'vitest';
import { administers, moderates } from './roles';

describe('roles', () => {
  it('moderators and admins moderate; members and visitors do not', () => {
    expect(moderates({ role: 'moderator' })).toBe(true);
    expect(moderates({ role: 'admin' })).toBe(true);
    expect(moderates({ role: 'member' })).toBe(false);
    expect(moderates(null)).toBe(false);
  });

  it('only admins administer', () => {
    expect(administers({ role: 'admin' })).toBe(true);
    expect(administers({ role: 'moderator' })).toBe(false);
    expect(administers({ role: 'member' })).toBe(false);
    expect(administers(null)).toBe(false);
  });
});
