// Small helpers for writing Markdown as data: the demo's posts and the generic questions' snippets.

const FENCE = '```';

const leadingSpace = (line: string) => /^[ \t]*/.exec(line)?.[0] ?? '';

/**
 * Code written inside a template literal, without its blank first and last lines and its
 * common indentation, so the data can indent it like the code around it.
 */
export function dedent(source: string): string {
  const rows = source.split('\n');
  while (rows.length > 0 && rows[0]?.trim() === '') rows.shift();
  while (rows.length > 0 && rows.at(-1)?.trim() === '') rows.pop();
  const indents = rows.filter((row) => row.trim() !== '').map(leadingSpace);
  const common = indents.reduce((shared, indent) => {
    let length = 0;
    while (length < shared.length && shared[length] === indent[length]) length++;
    return shared.slice(0, length);
  }, indents[0] ?? '');
  return rows.map((row) => row.slice(Math.min(common.length, leadingSpace(row).length))).join('\n');
}

/** A fenced code block, the language named after the fence as people write it (`ts`, `python`). */
export const codeBlock = (lang: string, source: string): string => `${FENCE}${lang}\n${dedent(source)}\n${FENCE}`;

/** A post made of blocks (paragraphs, lists, code), a blank line between each. */
export const blocks = (...parts: string[]): string => parts.join('\n\n');

/** One block of several lines: a list, a task list or a table. */
export const lines = (...rows: string[]): string => rows.join('\n');
