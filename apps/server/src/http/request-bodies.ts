/**
 * The most bytes a JSON encoder writes for one character (one code point, as the text
 * limits count them): an astral character escaped as two `\uXXXX`, as ASCII-only encoders
 * do. The web app's JSON.stringify writes at most 6 (a control character as `\u001f`).
 */
const MAX_BYTES_PER_CHARACTER = 12;

/** Room around the texts: field names, ids, punctuation, a pretty-printer's whitespace. */
const ENVELOPE_BYTES = 2_048;

/**
 * The body limit of a route whose texts together hold at most `characters` characters
 * (docs/product.md section 3's limits): its largest real body, in any JSON encoding, fits.
 */
export const bodyLimitFor = (characters: number) => characters * MAX_BYTES_PER_CHARACTER + ENVELOPE_BYTES;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * True when JSON text nests arrays and objects more than `max` deep, in one pass that skips
 * strings. JSON.parse's time grows faster than the length for deep nesting (1 MB of `[`
 * took about a second on our machine), so a body is measured before it is parsed.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) depth--;
  }
  return false;
}
