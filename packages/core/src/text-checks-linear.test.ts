// Issue 15 item 1: every rule that reads user text runs in linear time (docs/product.md section 6,
// "Text checks run in linear time"), and the scanners that replaced regular expressions
// decide exactly as those expressions did.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasValidHyperlinks } from './markdown/link-rule.ts';
import { markdownLinksValid, parseMarkdown } from './markdown/parse.ts';
import { parseSearch } from './search.ts';
import {
  bioError,
  commentTextError,
  emailError,
  forumDescriptionError,
  forumNameError,
  messageError,
  parseTagNames,
  passwordError,
  porpNameError,
  recipientError,
  titleError,
  usernameError,
} from './validation.ts';
import { answerTextError, commentMarkdownError, messageMarkdownError, questionTextError } from './markdown/index.ts';

const LENGTH = 30_000;
const fill = (unit: string) => unit.repeat(Math.ceil(LENGTH / unit.length)).slice(0, LENGTH);

/** 30,000-character texts built to make a backtracking matcher retry from every position. */
const ADVERSARIAL: Record<string, string> = {
  '[': fill('['),
  '(': fill('('),
  '*': fill('*'),
  backticks: fill('`'),
  '>': fill('>'),
  '](': fill(']('),
  '[a](': fill('[a]('),
  '[a](https://': fill('[a](https://'),
  '[[]]((': fill('[[]](('),
  '[ ] at the end': `${fill('[')}]`,
  'a@ then dots': `a@${fill('.')}`,
  'a@a then dots then @': `a@a${fill('.').slice(4)}@`,
  'spaces and [': fill(' ['),
  mixed: fill('[*(`>](a)[b](https://x'),
  'valid links': fill('[docs](https://example.com/a?b=1) '),
  'links with bad urls': fill('[x](http://no) '),
  'emoji and [': fill('🐬['),
  '*a': fill('*a'),
  '**a ': fill('**a '),
  '![': fill('!['),
  '[![': fill('[!['),
  '*[': fill('*['),
  '<': fill('<'),
  _: fill('_'),
  '~~': fill('~~'),
  'bare https addresses': fill('https://a.b '),
  'nested lists': Array.from({ length: LENGTH / 20 }, (_, depth) => `${'  '.repeat(depth % 40)}- x\n`)
    .join('')
    .slice(0, LENGTH),
  'lists in quotes': fill('> - 1. '),
  'table rows': `|a|b|\n|-|-|\n${fill('|x|y|\n')}`.slice(0, LENGTH),
  fences: fill('```\n'),
};

/** Every rule that reads what a user typed, as the forms and the server's schemas call them. */
const RULES: Record<string, (text: string) => unknown> = {
  hasValidHyperlinks,
  parseSearch,
  parseTagNames,
  commentTextError,
  messageError,
  titleError,
  bioError,
  forumNameError,
  forumDescriptionError,
  porpNameError,
  recipientError,
  usernameError,
  emailError,
  passwordError,
};

/**
 * The Markdown parser does more per character than a scan: a few to 200 ms for 30,000
 * characters on a busy 2-core machine, too close to any fixed bound. So its growth is
 * measured instead (below).
 */
const MARKDOWN_RULES: Record<string, (text: string) => unknown> = {
  'parseMarkdown (posts)': (text) => parseMarkdown(text, 'block'),
  'parseMarkdown (comments, messages)': (text) => parseMarkdown(text, 'inline'),
  markdownLinksValid,
  questionTextError,
  answerTextError,
  commentMarkdownError,
  messageMarkdownError,
};

// The core package is typed without Node's globals; the tests run in Node.
const host = (globalThis as unknown as { process: { cpuUsage(): { user: number; system: number } } }).process;

/**
 * The CPU time `work` takes, in milliseconds. Unlike wall time it does not grow while a
 * busy machine leaves the test waiting for a core (wall time did, by the load factor,
 * and only for the longer runs: a ratio of two wall times failed under load).
 */
function cpuOf(work: () => unknown): number {
  const start = host.cpuUsage();
  work();
  const end = host.cpuUsage();
  return (end.user - start.user + end.system - start.system) / 1_000;
}

/**
 * The fastest of several runs, in milliseconds of CPU. The work is the same every run, so
 * the fastest measures it; the slower ones add whatever else the process was doing (GC).
 */
function fastestOf(runs: number, work: () => unknown): number {
  let fastest = Infinity;
  for (let i = 0; i < runs; i++) fastest = Math.min(fastest, cpuOf(work));
  return fastest;
}

describe('text rules on 30,000-character adversarial input', () => {
  const cases = Object.entries(RULES).flatMap(([rule, check]) =>
    Object.entries(ADVERSARIAL).map(([input, text]) => [rule, input, check, text] as const),
  );

  // The link pattern took 370 ms on 29,000 `[` and the search pattern over a second on
  // 30,000; linear scans take about a millisecond. 50 ms leaves room for a busy machine
  // without letting quadratic work pass.
  it.each(cases)('%s on %s takes a few milliseconds', (_rule, _input, check, text) => {
    expect(fastestOf(5, () => check(text))).toBeLessThan(50);
  });
});

describe('Markdown on 30,000-character adversarial input', () => {
  const cases = Object.entries(MARKDOWN_RULES).flatMap(([rule, check]) =>
    Object.entries(ADVERSARIAL).map(([input, text]) => [rule, input, check, text] as const),
  );

  // The whole text against its first eighth eight times over, measured in turns (so both
  // meet the same conditions) for the same length of text: linear work costs about the
  // same (measured 0.6-2), quadratic eight times as much. Below 20 ms of CPU for the whole
  // text the work is too small to tell anything, and cannot be quadratic (30,000 squared
  // steps take seconds); it never takes a second.
  it.each(cases)('%s on %s stays linear', (_rule, _input, check, text) => {
    const eighth = text.slice(0, text.length / 8);
    check(text); // warm: the first run compiles
    let whole = Infinity;
    let eighths = Infinity;
    for (let round = 0; round < 5; round++) {
      whole = Math.min(
        whole,
        cpuOf(() => check(text)),
      );
      eighths = Math.min(
        eighths,
        cpuOf(() => {
          for (let i = 0; i < 8; i++) check(eighth);
        }),
      );
    }
    expect(whole).toBeLessThan(1_000);
    if (whole >= 20) expect(whole / Math.max(eighths, 0.1)).toBeLessThan(4);
  });
});

// The regular expressions the scanners replaced, kept here only to compare decisions on
// short inputs (at most 200 characters), where their backtracking costs nothing.
const OLD_LINK_PATTERN = /\[([^\]]*)\]\(([^)]*)\)/g;
const OLD_SAFE_URL_REST = /^[^\s"'<>`]+$/;
const oldIsSafeHttpsUrl = (url: string) =>
  url.startsWith('https://') && OLD_SAFE_URL_REST.test(url.slice('https://'.length));

function oldHasValidHyperlinks(text: string): boolean {
  for (const [, label = '', url = ''] of text.matchAll(OLD_LINK_PATTERN)) {
    if (label.trim() === '' || !oldIsSafeHttpsUrl(url)) return false;
  }
  return true;
}

function oldParseSearch(text: string) {
  const tags = [...text.matchAll(/\[([^\]\s]+)\]/g)].map((match) => (match[1] ?? '').toLowerCase());
  const words = text
    .replace(/\[[^\]\s]*\]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  return { tags: [...new Set(tags)].slice(0, 20), words: [...new Set(words)].slice(0, 20) };
}

const OLD_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Short texts over the characters the rules care about, plus anything at all. */
const shortText = fc.oneof(
  fc
    .array(
      fc.constantFrom(
        '[',
        ']',
        '(',
        ')',
        'a',
        'B',
        ' ',
        '\n',
        '\u00a0',
        '\u3000',
        '\ufeff',
        '@',
        '.',
        '"',
        '<',
        '`',
        'https://',
        'http://',
        'x.y',
        '🐬',
      ),
      { maxLength: 60 },
    )
    .map((parts) => parts.join('').slice(0, 200)),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

describe('the scanners decide exactly as the regular expressions they replaced', () => {
  const runs = { numRuns: 3_000 };

  it('finds the same links', () => {
    fc.assert(
      fc.property(shortText, (text) => {
        expect(hasValidHyperlinks(text)).toBe(oldHasValidHyperlinks(text));
      }),
      runs,
    );
  });

  it('finds the same tags and words in a search', () => {
    fc.assert(
      fc.property(shortText, (text) => {
        expect(parseSearch(text)).toEqual(oldParseSearch(text));
      }),
      runs,
    );
  });

  it('accepts the same emails', () => {
    fc.assert(
      fc.property(shortText, (text) => {
        const email = text.trim();
        const before = email === '' || !OLD_EMAIL_PATTERN.test(email) || email.length > 254;
        expect(emailError(text) !== null).toBe(before);
      }),
      runs,
    );
  });

  it.each([
    'see [docs](https://example.com) and [more](https://example.org/x)',
    '[[a](https://x)',
    '[a]](https://x)',
    '[a]((https://x))',
    '[a](https://x)[b](https://y)',
    '[ ](https://x) then [a](https://y)',
    '[a] (https://x)',
    '[a](https://x',
    '[a](https://x y)',
    'text [a](\nhttps://x) more',
  ])('agrees on %s', (text) => {
    expect(hasValidHyperlinks(text)).toBe(oldHasValidHyperlinks(text));
  });

  it.each(['[js] [TS] arrays', '[] [a b] c', '[[x]] y', 'a[b]c d', '[unclosed and [closed]', '[a]\u00a0[b]'])(
    'parses the search %s the same way',
    (text) => {
      expect(parseSearch(text)).toEqual(oldParseSearch(text));
    },
  );

  it.each(['a@b.c', 'a@b', 'a@.b', 'a@b.', 'a@b..c', 'a@@b.c', '@b.c', 'a b@c.d', ' a@b.c ', 'a@b.c.d', 'a@..'])(
    'decides the email %s the same way',
    (text) => {
      const email = text.trim();
      expect(emailError(text) === null).toBe(email !== '' && OLD_EMAIL_PATTERN.test(email));
    },
  );
});
