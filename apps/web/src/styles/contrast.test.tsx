// docs/product.md sections 5 and 12: every combination of colour scheme (light, dark), colour
// theme (4) and low vision (2) meets WCAG 2.2 AA. The palettes are CSS variables set by body
// classes (styles/theme.css, components/markdown/markdown.css): this resolves the cascade for
// each combination as the browser does (specificity, then order) and checks the pairs the
// stylesheets draw, text at 4.5:1 and borders and focus rings at 3:1. axe-core checks the
// rendered pages too (e2e), but only the text it finds on them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SHEETS = ['styles/theme.css', 'components/markdown/markdown.css'].map((file) =>
  readFileSync(path.join(import.meta.dirname, '..', file), 'utf8'),
);

interface Rule {
  has: string[];
  not: string[];
  classes: number;
  order: number;
  declarations: [string, string][];
}

/** The rules that set variables: `:root`, or `body` with classes and `:not(.class)`es. */
function variableRules(): Rule[] {
  const rules: Rule[] = [];
  for (const sheet of SHEETS) {
    const css = sheet.replace(/\/\*[\s\S]*?\*\//g, '');
    for (const [, selector = '', body = ''] of css.matchAll(/([^{}]+)\{([^}]*)\}/g)) {
      const declarations = [...body.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)].map(
        ([, name = '', value = '']): [string, string] => [name, value.trim()],
      );
      if (declarations.length === 0) continue;
      const trimmed = selector.trim();
      if (trimmed === ':root') {
        rules.push({ has: [], not: [], classes: 0, order: rules.length, declarations });
        continue;
      }
      const match = /^body((?:\.[\w-]+)+)((?::not\(\.[\w-]+\))*)$/.exec(trimmed);
      if (!match) throw new Error(`a variable rule this test cannot read: ${trimmed}`);
      const has = match[1]!.split('.').filter(Boolean);
      const not = [...match[2]!.matchAll(/\.([\w-]+)/g)].map(([, name = '']) => name);
      rules.push({ has, not, classes: has.length + not.length, order: rules.length, declarations });
    }
  }
  return rules;
}

/** The variables' values on a body with these classes. */
function variablesFor(rules: Rule[], classes: string[]): Map<string, string> {
  const applies = rules.filter(
    (rule) => rule.has.every((name) => classes.includes(name)) && rule.not.every((name) => !classes.includes(name)),
  );
  // :root (0,1,0) ranks below body.x (0,1,1); among body rules, more classes win, then the later.
  const rank = (rule: Rule) => (rule.has.length === 0 && rule.not.length === 0 ? -1 : rule.classes);
  applies.sort((a, b) => rank(a) - rank(b) || a.order - b.order);
  const values = new Map<string, string>();
  for (const rule of applies) for (const [name, value] of rule.declarations) values.set(name, value);
  return values;
}

function luminance(hex: string): number {
  const match = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = [0, 2, 4].map((at) => {
    const channel = parseInt(match[1]!.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

const TEXT = ['text', 'text-muted', 'accent', 'accent-hover', 'danger', 'success'];
const GROUNDS = ['page', 'surface', 'surface-muted'];
const CODE = ['keyword', 'string', 'comment', 'number', 'title', 'type', 'tag'];
/** [foreground, background, least ratio]: colour names without `--color-`, code names with `--`. */
const PAIRS: [string, string, number][] = [
  ...TEXT.flatMap((text) => GROUNDS.map((ground): [string, string, number] => [text, ground, 4.5])),
  ['accent-contrast', 'accent', 4.5],
  ['accent-contrast', 'accent-hover', 4.5],
  ['danger-contrast', 'danger', 4.5],
  // An accepted answer's count: surface-coloured text on the success colour.
  ['surface', 'success', 4.5],
  // Selected items, removed and added words of a diff.
  ['text', 'accent-subtle', 4.5],
  ['accent', 'accent-subtle', 4.5],
  ['text', 'danger-subtle', 4.5],
  ['text', 'success-subtle', 4.5],
  ...CODE.map((name): [string, string, number] => [`--code-${name}`, 'surface-muted', 4.5]),
  ...['page', 'surface'].flatMap((ground): [string, string, number][] => [
    ['border-control', ground, 3],
    ['focus', ground, 3],
  ]),
];

const COMBINATIONS = [false, true].flatMap((dark) =>
  [false, true].flatMap((lowVision) =>
    ['none', 'redgreen', 'blueyellow', 'grayscale'].map((palette) => [
      ...(dark ? ['dark'] : []),
      ...(lowVision ? ['low-vision'] : []),
      ...(palette === 'none' ? [] : [palette]),
    ]),
  ),
);

describe('every scheme, colour theme and low vision meets WCAG 2.2 AA', () => {
  const rules = variableRules();

  it('reads the palettes: the dark ones differ from the light ones', () => {
    expect(COMBINATIONS).toHaveLength(16);
    const light = variablesFor(rules, ['redgreen']);
    const dark = variablesFor(rules, ['dark', 'redgreen']);
    expect(luminance(light.get('--color-surface')!)).toBeGreaterThan(0.9);
    expect(luminance(dark.get('--color-surface')!)).toBeLessThan(0.02);
    // The palette's own accent, not the plain dark one.
    expect(dark.get('--color-accent')).not.toBe(variablesFor(rules, ['dark']).get('--color-accent'));
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#767676', '#ffffff')).toBeGreaterThan(4.5);
    expect(contrast('#777777', '#ffffff')).toBeLessThan(4.5);
  });

  for (const classes of COMBINATIONS) {
    it(`body '${classes.join(' ') || '(light, no class)'}'`, () => {
      const values = variablesFor(rules, classes);
      const colour = (name: string) => {
        const value = values.get(name.startsWith('--') ? name : `--color-${name}`);
        if (value === undefined) throw new Error(`${name} is not set for ${classes.join(' ')}`);
        return value;
      };
      const failing = PAIRS.filter(([fore, back, least]) => contrast(colour(fore), colour(back)) < least).map(
        ([fore, back, least]) => `${fore} on ${back}: ${contrast(colour(fore), colour(back)).toFixed(2)} < ${least}`,
      );
      expect(failing).toEqual([]);
    });
  }
});
