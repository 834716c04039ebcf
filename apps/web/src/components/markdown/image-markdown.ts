/**
 * The Markdown an uploaded image goes into a post as (docs/product.md section 14):
 * `![description](url)`, the description on one line with Markdown's own characters escaped,
 * so it reads back as exactly what was typed (a `]` cannot end it, a `*` makes no emphasis).
 */
export function imageMarkdown(description: string, url: string): string {
  const oneLine = description.replace(/\s+/g, ' ').trim();
  return `![${oneLine.replace(/[\\`*_[\]<>~&|!#]/g, '\\$&')}](${url})`;
}

/** Where a piece of text goes in: at `at`, clamped to the text. */
export function insertText(text: string, at: number, insertion: string): { text: string; caret: number } {
  const place = Math.max(0, Math.min(at, text.length));
  return { text: text.slice(0, place) + insertion + text.slice(place), caret: place + insertion.length };
}
