/** A search box's text: tokens in [square brackets] are tags, the rest are words (docs/product.md section 3). */
export interface ParsedSearch {
  tags: string[];
  words: string[];
}

const MAX_TERMS = 20;
/** One character of JavaScript's `\s` class (a single character: no repetition, no backtracking). */
const WHITESPACE = /\s/;

/**
 * One left-to-right pass: a `[` opens a bracket token that runs to the first `]` or
 * whitespace. Ended by `]`, it is a tag (when not empty) and leaves a space in the words'
 * text; ended by whitespace or the end, it is plain text, and so is every `[` it passed,
 * since each of those would end at the same place. Linear, unlike the two regular
 * expressions it replaces, which retried from every `[` up to that same place.
 */
export function parseSearch(text: string): ParsedSearch {
  const tags = new Set<string>();
  const plain: string[] = [];
  let copied = 0;
  let at = text.indexOf('[');
  while (at >= 0) {
    let end = at + 1;
    while (end < text.length && text[end] !== ']' && !WHITESPACE.test(text[end] ?? '')) end++;
    if (text[end] === ']') {
      if (end > at + 1 && tags.size < MAX_TERMS) tags.add(text.slice(at + 1, end).toLowerCase());
      plain.push(text.slice(copied, at));
      copied = end + 1;
    }
    at = text.indexOf('[', end);
  }
  plain.push(text.slice(copied));
  const words = new Set<string>();
  for (const word of plain.join(' ').split(/\s+/)) {
    if (words.size === MAX_TERMS) break;
    if (word !== '') words.add(word.toLowerCase());
  }
  return { tags: [...tags], words: [...words] };
}
