import { describe, expect, it } from 'vitest';
import { hasValidHyperlinks, parseRichText } from './rich-text.ts';

describe('rich text', () => {
  it('turns [text](https://...) into a link and keeps the rest as text', () => {
    expect(parseRichText('read [the docs](https://example.com/a?b=1) first')).toEqual([
      { kind: 'text', text: 'read ' },
      { kind: 'link', text: 'the docs', href: 'https://example.com/a?b=1' },
      { kind: 'text', text: ' first' },
    ]);
  });

  it.each([
    '[x](javascript:alert(1))',
    '[x](data:text/html,hi)',
    '[x](http://plain.example)',
    '[x](&#106;avascript:alert(1))',
    '[x](https://a b)',
  ])('never makes a link of %s', (text) => {
    expect(parseRichText(text).every((segment) => segment.kind === 'text')).toBe(true);
    expect(hasValidHyperlinks(text)).toBe(false);
  });

  it('keeps markup as plain text', () => {
    expect(parseRichText('<script>alert(1)</script>')).toEqual([{ kind: 'text', text: '<script>alert(1)</script>' }]);
  });
});
