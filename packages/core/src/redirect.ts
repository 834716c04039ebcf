/**
 * Where to go after signing in (docs/product.md section 2): only a path on this site. A value
 * that a browser could read as another origin is refused, raw or percent-encoded: '//host'
 * and '/\host' (a protocol-relative address), a scheme ('https:', 'javascript:'), or a
 * backslash or control character anywhere (URL parsers turn '\' into '/' and drop tabs and
 * newlines). Encoded forms are decoded until nothing changes, so '/%2F%2Fhost' and
 * '/%252F%252Fhost' are refused like '//host'.
 */
/** More layers of encoding than any real link carries. */
const MAX_DECODES = 5;

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const UNSAFE_CHARACTER = /[\\\u0000-\u001f\u007f]/;

function looksForeign(path: string): boolean {
  return !path.startsWith('/') || path.startsWith('//') || UNSAFE_CHARACTER.test(path);
}

/** The in-app path to return to ('/question/1?x=y#z'), or null when it is not a same-site path. */
export function safeRedirectPath(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value.length > 2_000) return null;
  let decoded = value;
  for (let round = 0; ; round++) {
    if (looksForeign(decoded)) return null;
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return null;
    }
    if (next === decoded) break;
    if (round === MAX_DECODES) return null;
    decoded = next;
  }
  // One leading '/', no backslash and no control character, at every layer of encoding:
  // a URL parser can only resolve that against this site's own origin.
  return value;
}
