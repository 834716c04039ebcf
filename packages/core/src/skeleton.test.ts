import confusables from 'unhomoglyph/data.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { caselessSkeleton, nameSkeleton } from './skeleton.ts';

const alike = (a: string, b: string) => nameSkeleton(a) === nameSkeleton(b);

describe('name skeletons (UTS #39)', () => {
  it.each([
    ['al\u200Bice', 'zero-width space'],
    ['\u0430lice', 'Cyrillic а'],
    ['ALICE', 'case'],
    ['a\u202Elice', 'right-to-left override'],
    ['a\u2066lic\u2069e', 'bidi isolates'],
    ['\u0391LIC\u0395', 'Greek capitals'],
    ['a1ice', 'digit one for l'],
    ['aIice', 'capital I for l'],
    ['ａｌｉｃｅ', 'fullwidth letters'],
  ])('%j looks like alice (%s)', (name) => {
    expect(alike(name, 'alice')).toBe(true);
  });

  it.each([
    ['bob', 'alice'],
    ['alicia', 'alice'],
    ['alicé', 'alice'],
    ['al ice', 'alice'],
  ])('%j does not look like %j', (a, b) => {
    expect(alike(a, b)).toBe(false);
  });

  it('matches shapes and case both ways', () => {
    expect(alike('lan', 'Ian')).toBe(true);
    expect(alike('IAN', 'ian')).toBe(true);
    expect(alike('b0b', 'BOB')).toBe(true);
    expect(alike('rn', 'M')).toBe(true);
  });

  it("settles every character of Unicode's table: a skeleton's skeleton is itself", () => {
    const characters = Object.keys(confusables);
    const unsettled = characters.filter((ch) => {
      const skeleton = caselessSkeleton(ch);
      return [...skeleton].map(caselessSkeleton).join('').normalize('NFD') !== skeleton;
    });
    expect(characters.length).toBeGreaterThan(6_000);
    expect(unsettled).toEqual([]);
  });

  it('does a bounded amount of work per character, whatever the input', () => {
    expect(nameSkeleton('\u0430\u200B\u0399M'.repeat(20_000))).toBe('airn'.repeat(20_000));
  });
});
