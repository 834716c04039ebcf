/**
 * The spec's hyperlink rule (spec section 5): each `[text](url)` needs non-empty text and
 * an https:// address with something after it. parse.ts applies it to every link Markdown
 * reads, and this scan to the plain text Markdown leaves, where a `[text](url)` it did not
 * take as a link (a space in the address, a refused scheme) is still a link the writer meant.
 */

const HTTPS_PREFIX = 'https://';
/** Something after https://, with no spaces, quotes or angle brackets (one class, anchored: linear). */
const SAFE_URL_REST = /^[^\s"'<>`]+$/;

/** An https:// address with something after it and no space, quote or angle bracket. */
export function isSafeHttpsUrl(url: string): boolean {
  return url.startsWith(HTTPS_PREFIX) && SAFE_URL_REST.test(url.slice(HTTPS_PREFIX.length));
}

interface LinkMatch {
  start: number;
  end: number;
  label: string;
  url: string;
}

/**
 * Every `[label](url)` in the text, left to right, as the regular expression
 * /\[([^\]]*)\]\(([^)]*)\)/g would find them, but in linear time: that expression retries
 * from every `[` and scans to the end each time, so 30,000 `[` took half a second.
 * A failed `[` fails for every `[` before the `]` it reached, so the scan skips past them,
 * and no search ever goes back over text another one has read.
 */
function* linkMatches(text: string): Generator<LinkMatch> {
  let from = 0;
  for (;;) {
    const start = text.indexOf('[', from);
    if (start < 0) return;
    const close = text.indexOf(']', start + 1);
    if (close < 0) return;
    if (text[close + 1] !== '(') {
      from = close + 1;
      continue;
    }
    const end = text.indexOf(')', close + 2);
    if (end < 0) return;
    yield { start, end: end + 1, label: text.slice(start + 1, close), url: text.slice(close + 2, end) };
    from = end + 1;
  }
}

const isValidLink = ({ label, url }: LinkMatch) => label.trim() !== '' && isSafeHttpsUrl(url);

/** True when every [text](url) in the text has text and an https:// address with something after it. */
export function hasValidHyperlinks(text: string): boolean {
  for (const match of linkMatches(text)) {
    if (!isValidLink(match)) return false;
  }
  return true;
}
