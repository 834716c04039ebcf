// Names that look alike (UTS #39, "Unicode Security Mechanisms", section 4): two names are
// confusable when their skeletons are equal. The prototypes come from Unicode's
// confusables.txt as the unhomoglyph package ships it (its data only: its own matcher, one
// regular expression with thousands of alternatives, is not used).
import confusables from 'unhomoglyph/data.json' with { type: 'json' };

/** Each confusable code point's prototype (one code point to one or more). */
const PROTOTYPES = new Map<string, string>(Object.entries(confusables));

/** Zero-width and bidi characters draw nothing of their own, so names are compared without them. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/gu;

/** Enough for every character in the table to settle (skeleton.test.ts checks them all). */
const MAX_ROUNDS = 4;

function prototypes(text: string): string {
  let out = '';
  for (const ch of text) out += PROTOTYPES.get(ch) ?? ch;
  return out;
}

/**
 * One character's caseless skeleton: its prototype (shape first, so Greek 'Ε' is 'E'), lower
 * case, again until neither changes it. 'l' and 'i' count as one letter: 'I' is the capital of
 * one and the shape of the other, and a name in any case must match a member's.
 */
export function caselessSkeleton(ch: string): string {
  let current = ch;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const next = prototypes(current.normalize('NFD')).toLowerCase().normalize('NFD').replaceAll('l', 'i');
    if (next === current) break;
    current = next;
  }
  return current;
}

/**
 * The key names are compared by, without regard to case, Unicode confusables, zero-width or
 * bidi characters: 'ALICE', 'аlice' (Cyrillic а), 'al\u200Bice' and 'a1ice' all have the key of
 * 'alice'. Linear in the name's length: a bounded amount of work per character. The accounts
 * table keeps the same key of every username (db/schema/accounts.ts, for its characters).
 */
export function nameSkeleton(name: string): string {
  let key = '';
  for (const ch of name.normalize('NFD').replace(INVISIBLE, '')) key += caselessSkeleton(ch);
  return key.normalize('NFD');
}
