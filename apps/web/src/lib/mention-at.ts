import { LIMITS } from '@porpoise/core';

/** A `@name` being typed: where its '@' is, where its name ends, and the part before the caret. */
export interface MentionAtCaret {
  /** The index of the '@'. */
  start: number;
  /** Where the name's characters end (the caret may sit inside the name). */
  end: number;
  /** The name's characters before the caret: what the suggestions start with. */
  prefix: string;
}

const isNameChar = (char: string) => /^[A-Za-z0-9._-]$/.test(char);

/**
 * The mention the caret is in, as packages/core's Markdown reads one (docs/product.md
 * section 11): an '@' with no username character or '@' right before it, then at least one
 * username character before the caret. Null when the caret is in no such name. A scan of at
 * most a username's length, whatever the text's.
 */
export function mentionAt(value: string, caret: number): MentionAtCaret | null {
  let nameStart = caret;
  while (nameStart > 0 && caret - nameStart <= LIMITS.usernameMax && isNameChar(value.charAt(nameStart - 1))) {
    nameStart -= 1;
  }
  const prefix = value.slice(nameStart, caret);
  if (prefix === '' || prefix.length > LIMITS.usernameMax) return null;
  const start = nameStart - 1;
  if (start < 0 || value.charAt(start) !== '@') return null;
  const before = start > 0 ? value.charAt(start - 1) : '';
  if (before !== '' && (isNameChar(before) || before === '@')) return null;
  let end = caret;
  while (end < value.length && end - start <= LIMITS.usernameMax && isNameChar(value.charAt(end))) end += 1;
  return { start, end, prefix };
}

/** The text with the mention replaced by `@username ` (one space after it, never two), and where the caret goes. */
export function insertMention(
  value: string,
  mention: MentionAtCaret,
  username: string,
): { value: string; caret: number } {
  const inserted = `@${username} `;
  const rest = value.slice(mention.end).replace(/^ /, '');
  return { value: `${value.slice(0, mention.start)}${inserted}${rest}`, caret: mention.start + inserted.length };
}
