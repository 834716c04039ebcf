/** The spec's hyperlink rule: [text](https://...) becomes a link, everything else is plain text. */

export type RichSegment = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const LINK_PATTERN = /\[([^\]]*)\]\(([^)]*)\)/g;
const HTTPS_PREFIX = 'https://';
/** Something after https://, with no spaces, quotes or angle brackets. */
const SAFE_URL_REST = /^[^\s"'<>`]+$/;

function isSafeHttpsUrl(url: string): boolean {
  return url.startsWith(HTTPS_PREFIX) && SAFE_URL_REST.test(url.slice(HTTPS_PREFIX.length));
}

/** True when every [text](url) in the text has text and an https:// address with something after it. */
export function hasValidHyperlinks(text: string): boolean {
  for (const match of text.matchAll(LINK_PATTERN)) {
    const [, label = '', url = ''] = match;
    if (label.trim() === '' || !isSafeHttpsUrl(url)) return false;
  }
  return true;
}

/** Splits text into plain segments and safe https links; an invalid link stays plain text. */
export function parseRichText(text: string): RichSegment[] {
  const segments: RichSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK_PATTERN)) {
    const [whole, label = '', url = ''] = match;
    if (label.trim() === '' || !isSafeHttpsUrl(url)) continue;
    if (match.index > last) segments.push({ kind: 'text', text: text.slice(last, match.index) });
    segments.push({ kind: 'link', text: label, href: url });
    last = match.index + whole.length;
  }
  if (last < text.length) segments.push({ kind: 'text', text: text.slice(last) });
  return segments;
}
