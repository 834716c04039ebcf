// Issue 19 item 1: Markdown as docs/product.md section 8 has it, read into the allow-listed tree.
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import {
  answerTextError,
  commentMarkdownError,
  embeddedImageNames,
  markdownLinksValid,
  markdownPlainText,
  parseMarkdown,
  questionTextError,
} from './index.ts';
import type { MdBlock, MdInline } from './tree.ts';

const text = (value: string): MdInline => ({ type: 'text', text: value });
const p = (...children: MdInline[]): MdBlock => ({ type: 'p', children });
const link = (href: string, label: string): MdInline => ({ type: 'link', href, children: [text(label)] });

/** Every link anywhere in a tree. */
function linksOf(nodes: readonly (MdBlock | MdInline)[]): string[] {
  return nodes.flatMap((node): string[] => {
    if (node.type === 'link') return [node.href, ...linksOf(node.children)];
    if (node.type === 'list') return node.items.flatMap((item) => linksOf(item.children));
    if (node.type === 'table') return [...node.head, ...node.rows.flat()].flatMap((cell) => linksOf(cell));
    return 'children' in node ? linksOf(node.children) : [];
  });
}

describe('Markdown in posts', () => {
  it('reads paragraphs, emphasis, strong, strikethrough, code spans and line breaks', () => {
    expect(parseMarkdown('**b** _i_ ~~s~~ `c`\nnext line\n\nsecond')).toEqual([
      p(
        { type: 'strong', children: [text('b')] },
        text(' '),
        { type: 'em', children: [text('i')] },
        text(' '),
        { type: 's', children: [text('s')] },
        text(' '),
        { type: 'code', text: 'c' },
        { type: 'br' },
        text('next line'),
      ),
      p(text('second')),
    ]);
  });

  it('reads headings, quotes, rules and lists (ordered with their start, nested, tight)', () => {
    expect(parseMarkdown('# One\n### Three\n\n> quoted\n\n---\n\n3. c\n4. d\n\n- a\n  - b')).toEqual([
      { type: 'heading', level: 1, children: [text('One')] },
      { type: 'heading', level: 3, children: [text('Three')] },
      { type: 'blockquote', children: [p(text('quoted'))] },
      { type: 'hr' },
      {
        type: 'list',
        ordered: true,
        start: 3,
        items: [
          { task: null, children: [{ type: 'inline', children: [text('c')] }] },
          { task: null, children: [{ type: 'inline', children: [text('d')] }] },
        ],
      },
      {
        type: 'list',
        ordered: false,
        start: 1,
        items: [
          {
            task: null,
            children: [
              { type: 'inline', children: [text('a')] },
              {
                type: 'list',
                ordered: false,
                start: 1,
                items: [{ task: null, children: [{ type: 'inline', children: [text('b')] }] }],
              },
            ],
          },
        ],
      },
    ]);
  });

  it('reads task lists', () => {
    const [list] = parseMarkdown('- [ ] to do\n- [x] done\n- [X] also done\n- [y] not a task');
    expect(list).toMatchObject({
      type: 'list',
      items: [
        { task: false, children: [{ children: [text('to do')] }] },
        { task: true, children: [{ children: [text('done')] }] },
        { task: true, children: [{ children: [text('also done')] }] },
        { task: null, children: [{ children: [text('[y] not a task')] }] },
      ],
    });
  });

  it('reads GitHub tables with their alignment', () => {
    expect(parseMarkdown('| a | b | c |\n|:--|:-:|--:|\n| 1 | *2* | 3 |\n| 4 | 5 | 6 |')).toEqual([
      {
        type: 'table',
        align: ['left', 'center', 'right'],
        head: [[text('a')], [text('b')], [text('c')]],
        rows: [
          [[text('1')], [{ type: 'em', children: [text('2')] }], [text('3')]],
          [[text('4')], [text('5')], [text('6')]],
        ],
      },
    ]);
  });

  it('reads fenced and indented code with its language, by name or alias, else plain', () => {
    expect(
      parseMarkdown('```ts\nconst a = 1;\n```\n\n```C#\nvar x;\n```\n\n```brainfuck\n+.\n```\n\n    indented'),
    ).toEqual([
      { type: 'code', lang: 'typescript', text: 'const a = 1;\n' },
      { type: 'code', lang: 'csharp', text: 'var x;\n' },
      { type: 'code', lang: '', text: '+.\n' },
      { type: 'code', lang: '', text: 'indented\n' },
    ]);
    for (const [info, lang] of [
      ['js', 'javascript'],
      ['python', 'python'],
      ['java', 'java'],
      ['c', 'c'],
      ['c++', 'cpp'],
      ['go', 'go'],
      ['rust', 'rust'],
      ['sql', 'sql'],
      ['sh', 'bash'],
      ['json', 'json'],
      ['yml', 'yaml'],
      ['html', 'xml'],
      ['css', 'css'],
    ]) {
      expect(parseMarkdown(`\`\`\`${info}\nx\n\`\`\``)).toEqual([{ type: 'code', lang, text: 'x\n' }]);
    }
  });

  it('highlights at most the first 50 code blocks (nested ones counted); the rest are plain preformatted text', () => {
    const fences = Array.from({ length: 59 }, (_, index) => `\`\`\`js\nx${index}\n\`\`\``);
    // The first block sits in a quote: blocks count in the order they show, nested or not.
    const tree = parseMarkdown([`> \`\`\`js\n> first\n> \`\`\``, ...fences].join('\n\n'));
    expect(LIMITS.codeBlocksHighlighted).toBe(50);
    expect(tree[0]).toEqual({ type: 'blockquote', children: [{ type: 'code', lang: 'javascript', text: 'first\n' }] });
    const top = tree.slice(1);
    expect(top.filter((node) => node.type === 'code')).toHaveLength(49);
    expect(top.slice(49)).toEqual(
      Array.from({ length: 10 }, (_, index) => ({ type: 'pre', text: `x${49 + index}\n` })),
    );
    expect(markdownPlainText('```\na\n```\n\n'.repeat(51))).toBe(Array(51).fill('a').join(' '));
  });

  it('shows raw HTML as text, never as elements', () => {
    expect(parseMarkdown('<script>alert(1)</script> <b onmouseover="x()">b</b>')).toEqual([
      p(text('<script>alert(1)</script> <b onmouseover="x()">b</b>')),
    ]);
    expect(parseMarkdown('<div>\n<img src=x onerror=alert(1)>\n</div>')).toEqual([
      p(text('<div>'), { type: 'br' }, text('<img src=x onerror=alert(1)>'), { type: 'br' }, text('</div>')),
    ]);
  });

  it('links [text](https://...) and bare https addresses, nothing else', () => {
    expect(parseMarkdown('see [the docs](https://example.com/a?b=1) or https://example.org/x.')).toEqual([
      p(
        text('see '),
        link('https://example.com/a?b=1', 'the docs'),
        text(' or '),
        link('https://example.org/x', 'https://example.org/x'),
        text('.'),
      ),
    ]);
    expect(
      linksOf(parseMarkdown('http://plain.example www.example.com me@example.com <http://x.y> <https://a.b>')),
    ).toEqual(['https://a.b']);
  });

  it('shows image syntax as a link to the image, never an image', () => {
    expect(parseMarkdown('![a diagram](https://example.com/d.png)')).toEqual([
      p(link('https://example.com/d.png', 'a diagram')),
    ]);
  });

  describe('images uploaded to Porpoise (docs/product.md section 14)', () => {
    const name = `${'ab12'.repeat(16)}.webp`;
    const url = `/uploads/${name}`;

    it('embeds an upload in a post, with its description', () => {
      expect(parseMarkdown(`See ![the error dialog](${url}) here`)).toEqual([
        p(text('See '), { type: 'image', name, alt: 'the error dialog' }, text(' here')),
      ]);
      expect(questionTextError(`![the error dialog](${url})`)).toBeNull();
      expect(answerTextError(`![a *bold* one](${url})`)).toBeNull();
      expect(markdownPlainText(`![the error dialog](${url})`)).toBe('the error dialog');
    });

    it("refuses an upload with no description: 'Images need a description'", () => {
      // Entities count as what they show.
      for (const blank of ['', ' ', '\u200b', '&nbsp;', '&#32;', '&#x200B;']) {
        expect(questionTextError(`Look: ![${blank}](${url})`)).toBe(MESSAGES.imageDescription);
        expect(answerTextError(`![${blank}](${url})`)).toBe(MESSAGES.imageDescription);
      }
    });

    it('embeds nothing else: other addresses keep the link rule, comments and messages embed nothing', () => {
      expect(questionTextError(`![x](/uploads/${'AB12'.repeat(16)}.webp)`)).toBe(MESSAGES.invalidHyperlink);
      expect(questionTextError(`![x](/uploads/${name}.png)`)).toBe(MESSAGES.invalidHyperlink);
      expect(questionTextError(`![x](/uploads/../${name})`)).toBe(MESSAGES.invalidHyperlink);
      expect(questionTextError(`[x](${url})`)).toBe(MESSAGES.invalidHyperlink);
      expect(questionTextError(`![x](https://example.com${url})`)).toBeNull();
      expect(parseMarkdown(`![x](https://example.com${url})`)).toEqual([p(link(`https://example.com${url}`, 'x'))]);
      expect(commentMarkdownError(`![x](${url})`)).toBe(MESSAGES.invalidHyperlink);
      expect(parseMarkdown(`![x](${url})`, 'inline')).toEqual([{ type: 'inline', children: [text(`![x](${url})`)] }]);
      // Inside a link's text an image is that text.
      expect(parseMarkdown(`[![x](${url})](https://example.com)`)).toEqual([p(link('https://example.com', 'x'))]);
    });

    it('names the uploads a post embeds, each once, in order, none in code', () => {
      const other = `${'cd34'.repeat(16)}.webp`;
      const post = `![a](${url}) \`![b](/uploads/${other})\`\n\n    ![c](/uploads/${other})\n\n![d](/uploads/${other}) ![e](${url})`;
      expect(embeddedImageNames(post)).toEqual([name, other]);
      expect(embeddedImageNames('no images here')).toEqual([]);
      // An address written with entities is still that upload (the page embeds it, so it is looked up).
      expect(embeddedImageNames(`![a](/upload&#115;/${other}) ![b](</uploads/${name}>)`)).toEqual([other, name]);
      expect(parseMarkdown(`![a](/upload&#115;/${other})`)).toEqual([p({ type: 'image', name: other, alt: 'a' })]);
    });
  });

  it('reads an escaped or entity-written box as text, not a task', () => {
    const [list] = parseMarkdown('- \\[x] escaped\n- &#91;x] entity\n- [x] task');
    expect(list).toMatchObject({
      items: [
        { task: null, children: [{ children: [text('[x] escaped')] }] },
        { task: null, children: [{ children: [text('[x] entity')] }] },
        { task: true, children: [{ children: [text('task')] }] },
      ],
    });
  });

  it("shows a linked image (a badge) as one link with the image's text", () => {
    expect(parseMarkdown('[![build](https://ci.example/badge.svg)](https://ci.example)')).toEqual([
      p(link('https://ci.example', 'build')),
    ]);
  });

  it('keeps a link that breaks the rule exactly as typed', () => {
    const typed = '[x](http://a "t") [y](<http://a b>) <http://x.y>';
    expect(parseMarkdown(typed)).toEqual([p(text(typed))]);
  });

  it('makes no link of text that shows nothing', () => {
    for (const blank of ['\u200b', '\u3164', ' \u00a0', '\u2060\ufeff']) {
      expect(linksOf(parseMarkdown(`[${blank}](https://example.com)`))).toEqual([]);
      expect(markdownLinksValid(`[${blank}](https://example.com)`)).toBe(false);
    }
  });

  it('holds tables to 64 columns and 10,000 cells in a text', () => {
    const wide = `|${'a|'.repeat(70)}\n|${'-|'.repeat(70)}\n|x|\n`;
    expect(parseMarkdown(wide).some((node) => node.type === 'table')).toBe(false);
    let many = '';
    while (many.length < 29_000) many += `|${'a|'.repeat(60)}\n|${'-|'.repeat(60)}\n${'|\n'.repeat(330)}\n`;
    const cells = parseMarkdown(many)
      .filter((node) => node.type === 'table')
      .reduce((sum, table) => sum + table.head.length + table.rows.flat().length, 0);
    expect(cells).toBeGreaterThan(9_000);
    expect(cells).toBeLessThanOrEqual(10_000);
  });

  it.each([
    '[x](javascript:alert(1))',
    '[x](JaVaScRiPt:alert(1))',
    '[x](  javascript:alert(1))',
    '[x](java\u0000script:alert(1))',
    '[x](&#106;avascript:alert(1))',
    '[x](&#x6A;avascript&colon;alert(1))',
    '[x](javascript&#58;alert(1))',
    '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '![x](data:image/png;base64,iVBORw0KGgo=)',
    '[x](vbscript:msgbox(1))',
    '[x](http://plain.example)',
    '[x](//evil.example)',
    '[x](/relative)',
    '[x](ｈｔｔｐｓ://fullwidth.example)',
    '[x](https:/one-slash.example)',
    '[x](https://)',
    '[x](<javascript:alert(1)>)',
    '[](https://empty-text.example)',
    '[ ](https://blank-text.example)',
    '[x](https://a b)',
    '<javascript:alert(1)>',
    '[x][ref]\n\n[ref]: javascript:alert(1)',
  ])('never makes a link of %s, and keeps its text', (source) => {
    const tree = parseMarkdown(source);
    // Only a bare https:// address inside it may become a link (`[x](https://a b)` holds one).
    for (const href of linksOf(tree)) expect(href).toMatch(/^https:\/\/[a-z]+$/);
    expect(markdownPlainText(source)).toContain(source.startsWith('<') ? 'javascript' : 'x');
  });

  it('keeps the text of a link that breaks the rule, so nothing the writer typed is lost', () => {
    expect(parseMarkdown('[x](http://plain.example)')).toEqual([p(text('[x](http://plain.example)'))]);
    expect(parseMarkdown('[**x**](javascript:a)')).toEqual([
      p(text('['), { type: 'strong', children: [text('x')] }, text('](javascript:a)')),
    ]);
  });

  it('shows text nested past the parser guard whole, as plain text', () => {
    const deep = `${'- '.repeat(30)}deep\n\nafter`;
    expect(parseMarkdown(deep)).toEqual([
      p(text(`${'- '.repeat(30)}deep`), { type: 'br' }, { type: 'br' }, text('after')),
    ]);
  });
});

describe('inline Markdown in comments and messages', () => {
  it('reads code spans, emphasis and links, and leaves block syntax as text', () => {
    expect(
      parseMarkdown('# not a heading\n> nor a quote\n- nor a list `code` *em* [a](https://a.b)', 'inline'),
    ).toEqual([
      {
        type: 'inline',
        children: [
          text('# not a heading'),
          { type: 'br' },
          text('> nor a quote'),
          { type: 'br' },
          text('- nor a list '),
          { type: 'code', text: 'code' },
          text(' '),
          { type: 'em', children: [text('em')] },
          text(' '),
          link('https://a.b', 'a'),
        ],
      },
    ]);
  });

  it('keeps fences, tables and images out', () => {
    const [only] = parseMarkdown('```js\nx\n```\n| a |\n|-|\n![i](https://a.b/i.png)', 'inline');
    expect(only?.type).toBe('inline');
    expect(JSON.stringify(only)).not.toContain('"table"');
    expect(linksOf(only === undefined ? [] : [only])).toEqual(['https://a.b/i.png']);
  });
});

describe("the link rule ('Invalid hyperlink format.')", () => {
  it.each([
    'see [docs](http://x.io)',
    'see [](https://x.io)',
    'see [docs](https://)',
    'see [x](javascript:alert(1))',
    'see [**x**](javascript:alert(1))',
    'see [x](https://a b)',
    '![](https://x.io/i.png)',
    '![i](http://x.io/i.png)',
    '> quoted [x](ftp://x.io)',
    '| a |\n|-|\n| [x](http://x.io) |',
  ])('refuses %s', (source) => {
    expect(markdownLinksValid(source)).toBe(false);
    expect(questionTextError(source)).toBe(MESSAGES.invalidHyperlink);
    expect(answerTextError(source)).toBe(MESSAGES.invalidHyperlink);
  });

  it.each([
    'no links at all',
    'see [docs](https://x.io) and https://example.com',
    'a bare http://x.io address stays text',
    '`handlers[0](event)` in a code span',
    '```js\nhandlers[0](event);\n```',
    '    handlers[0](event); // indented code',
    '![diagram](https://x.io/d.png)',
    '<http://x.io> is text, not a link',
  ])('accepts %s', (source) => {
    expect(markdownLinksValid(source)).toBe(true);
    expect(questionTextError(source)).toBeNull();
  });
});

describe('plain text for snippets', () => {
  it('keeps what a reader sees, without the markup, on one line', () => {
    expect(
      markdownPlainText(
        '## Fix\n\nUse **`await`** in [the loop](https://a.b):\n\n```js\nfor (;;) {}\n```\n\n- one\n- two',
      ),
    ).toBe('Fix Use await in the loop: for (;;) {} one two');
    expect(markdownPlainText('a *b*\nc <i>d</i>', 'inline')).toBe('a b c <i>d</i>');
  });
});
