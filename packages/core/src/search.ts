/** A search box's text: tokens in [square brackets] are tags, the rest are words (product.md section 3). */
export interface ParsedSearch {
  tags: string[];
  words: string[];
}

const MAX_TERMS = 20;

export function parseSearch(text: string): ParsedSearch {
  const tags = [...text.matchAll(/\[([^\]\s]+)\]/g)].map((match) => (match[1] ?? '').toLowerCase());
  const words = text
    .replace(/\[[^\]\s]*\]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  return { tags: [...new Set(tags)].slice(0, MAX_TERMS), words: [...new Set(words)].slice(0, MAX_TERMS) };
}
