import { describe, expect, it } from 'vitest';
import { insertMention, mentionAt } from './mention-at';

/** The mention at the '|' of `text` (the caret). */
const at = (text: string) => mentionAt(text.replace('|', ''), text.indexOf('|'));

describe('mentionAt: the @name the caret is in', () => {
  it('finds a name being typed after an @ at the start, after a space or punctuation', () => {
    expect(at('@a|')).toEqual({ start: 0, end: 2, prefix: 'a' });
    expect(at('Thanks @al|')).toEqual({ start: 7, end: 10, prefix: 'al' });
    expect(at('(@bo.b|)')).toEqual({ start: 1, end: 6, prefix: 'bo.b' });
    expect(at('line one\n@x_y-z|')).toEqual({ start: 9, end: 15, prefix: 'x_y-z' });
  });

  it('takes the whole name when the caret is inside it', () => {
    expect(at('hi @al|ice there')).toEqual({ start: 3, end: 9, prefix: 'al' });
  });

  it('needs at least one name character before the caret', () => {
    expect(at('@|')).toBeNull();
    expect(at('hi @| there')).toBeNull();
    expect(at('|@alice')).toBeNull();
  });

  it('is no mention inside an address or after another @', () => {
    expect(at('mail@exa|')).toBeNull();
    expect(at('@@al|')).toBeNull();
    expect(at('no at sign|')).toBeNull();
    expect(at('@alice bob|')).toBeNull();
  });

  it('stops at a username’s length', () => {
    expect(at(`@${'a'.repeat(30)}|`)?.prefix).toHaveLength(30);
    expect(at(`@${'a'.repeat(31)}|`)).toBeNull();
    // A long run of name characters is scanned only as far as a name can be long.
    expect(at(`${'a'.repeat(100_000)}|`)).toBeNull();
  });
});

describe('insertMention', () => {
  it('replaces the partial name with @username and one space, the caret after it', () => {
    const text = 'Thanks @al';
    const mention = mentionAt(text, text.length)!;
    expect(insertMention(text, mention, 'alice')).toEqual({ value: 'Thanks @alice ', caret: 14 });
  });

  it('keeps the text after the name, with no second space', () => {
    const text = 'hi @al there';
    const mention = mentionAt(text, 6)!;
    expect(insertMention(text, mention, 'alice')).toEqual({ value: 'hi @alice there', caret: 10 });
  });
});
