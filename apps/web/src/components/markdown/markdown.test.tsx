// Issue 19 item 1: what the Markdown renderer puts on a page, rendered by React itself.
import type { ImageSize } from '@porpoise/core';
import { parseMarkdown, type MdInline } from '@porpoise/core/markdown';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { imageMarkdown, insertText } from './image-markdown';
import { Markdown } from './markdown';

const html = (text: string, mode: 'block' | 'inline' = 'block', images?: readonly ImageSize[]) =>
  renderToStaticMarkup(<Markdown text={text} mode={mode} images={images} />);

/** An uploaded image's address, as the server names it (docs/product.md section 14). */
const UPLOAD = `/uploads/${'ab12'.repeat(16)}.webp`;
const OTHER_UPLOAD = `/uploads/${'0'.repeat(64)}.webp`;
const SIZES: ImageSize[] = [{ url: UPLOAD, width: 640, height: 480 }];

/** Payloads from the usual XSS lists, in Markdown's and HTML's forms. */
const PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)><circle r=1 /></svg>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">x</a>',
  '<style>body{background:url(https://evil.example/x)}</style>',
  '<div style="background:url(https://evil.example/x)">x</div>',
  '[x](javascript:alert(1))',
  '[x](JAVASCRIPT:alert(1))',
  '[x](&#106;&#97;vascript:alert(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![x](javascript:alert(1))',
  '![x](https://evil.example/pixel.png)',
  '[x](https://evil.example/"onmouseover="alert(1))',
  '[<img src=x onerror=alert(1)>](https://a.example)',
  '**<script>alert(1)</script>**',
  '```html\n<script>alert(1)</script>\n```',
  '`<script>alert(1)</script>`',
  '> <img src=x onerror=alert(1)>',
  '| <script>alert(1)</script> |\n|-|\n| <img src=x onerror=alert(1)> |',
  '<javascript:alert(1)>',
  '[x](javascript&colon;alert(1))',
  '[x]( javascript:alert(1) "title")',
  '<https://evil.example/"><script>alert(1)</script>>',
];

const TAGS = new Set(
  'div span p h3 h4 h5 h6 strong em s code a br blockquote ol ul li input table thead tbody tr th td pre hr button img'.split(
    ' ',
  ),
);
const ATTRIBUTES = new Set(
  'class href target rel type disabled checked aria-label aria-labelledby id tabindex role scope start src alt width height loading decoding'.split(
    ' ',
  ),
);
/** The only address an image may have, and the only one a link may have besides https://: an uploaded image's. */
const UPLOAD_ADDRESS = /^\/uploads\/[0-9a-f]{64}\.webp$/;

/**
 * Every element and attribute in React's markup (user text is escaped in it, so each `<`
 * opens a real element): only the allow-list, links only to https://, no style.
 */
function expectAllowListed(markup: string): void {
  for (const [, tag = '', attributes = ''] of markup.matchAll(/<\/?([a-z0-9]+)([^>]*)>/g)) {
    expect(TAGS).toContain(tag);
    for (const [, name = '', value = ''] of attributes.matchAll(/([a-z-]+)(?:="([^"]*)")?/g)) {
      expect(ATTRIBUTES).toContain(name);
      // React writes a quote inside a value as an entity: an address holds none, even encoded.
      if (name === 'href' && !UPLOAD_ADDRESS.test(value)) expect(value).toMatch(/^https:\/\/[^\s"'<>`&]+$/);
      if (name === 'src') expect(value).toMatch(UPLOAD_ADDRESS);
      if (name === 'width' || name === 'height') expect(value).toMatch(/^[1-9]\d*$/);
      if (name === 'type') expect(value).toMatch(/^(checkbox|button)$/);
    }
  }
}

describe('the Markdown renderer', () => {
  it('renders every element of docs/product.md section 8', () => {
    const page = html(
      [
        '# Heading',
        '',
        'Some **strong**, _em_, ~~gone~~ and `code` with [a link](https://example.com/docs).',
        '',
        '> a quote',
        '',
        '1. one',
        '2. two',
        '',
        '- [x] done',
        '- [ ] to do',
        '',
        '| a | b |',
        '|:-|-:|',
        '| 1 | 2 |',
        '',
        '```python',
        'print("hi")',
        '```',
        '',
        '---',
        '',
        '![a diagram](https://example.com/d.png)',
      ].join('\n'),
    );
    expect(page).toContain('<h3 class="markdown__h1">Heading</h3>');
    expect(page).toContain('<strong>strong</strong>');
    expect(page).toContain('<em>em</em>');
    expect(page).toContain('<s>gone</s>');
    expect(page).toContain('<code>code</code>');
    expect(page).toContain(
      '<a href="https://example.com/docs" target="_blank" rel="noopener noreferrer">a link<span class="visually-hidden"> (opens in a new tab)</span></a>',
    );
    expect(page).toContain('<blockquote><p>a quote</p></blockquote>');
    expect(page).toContain('<ol><li><span>one</span></li><li><span>two</span></li></ol>');
    expect(page).toMatch(
      /<input type="checkbox" disabled="" aria-labelledby="(_R_\w+_)" checked=""\/> <span id="\1" class="markdown__task-text"><span>done<\/span>/,
    );
    expect(page).toMatch(
      /<input type="checkbox" disabled="" aria-labelledby="(_R_\w+_)"\/> <span id="\1" class="markdown__task-text"><span>to do<\/span>/,
    );
    expect(page).toContain('<th scope="col" class="markdown__align-left">a</th>');
    expect(page).toContain('<td class="markdown__align-right">2</td>');
    expect(page).toContain('<span class="code-block__language">Python</span>');
    expect(page).toContain('>Copy</button>');
    // Out of the tab order until it is found to scroll sideways (in a browser).
    expect(page).toContain('<pre class="code-block__code" role="group" aria-label="Python code">');
    expect(page).toContain('print(&quot;hi&quot;)');
    expect(page).toContain('<hr/>');
    expect(page).not.toContain('<img');
    expectAllowListed(page);
    expect(page).toContain('<a href="https://example.com/d.png" target="_blank" rel="noopener noreferrer">a diagram');
  });

  it("highlights a post's first 50 code blocks with 'Copy'; the rest are plain preformatted text", () => {
    const page = html(Array.from({ length: 60 }, (_, index) => `\`\`\`js\nlet x${index} = 1;\n\`\`\``).join('\n\n'));
    expect(page.match(/>Copy<\/button>/g)).toHaveLength(50);
    expect(page.match(/class="code-block__code"/g)).toHaveLength(50);
    expect(page.match(/<pre class="markdown__pre"><code>let x\d+ = 1;<\/code><\/pre>/g)).toHaveLength(10);
    expect(page).toContain('<pre class="markdown__pre"><code>let x59 = 1;</code></pre>');
    expectAllowListed(page);
  });

  it('renders comments and messages inline: no blocks', () => {
    const line = html('# title\n- item\n```js\nx\n```\n`code` and *em*', 'inline');
    expect(line).not.toMatch(/<(h\d|ul|ol|li|pre|p|table|blockquote)\b/);
    expect(line).toContain('<code>code</code>');
    expect(line).toContain('<em>em</em>');
    expect(line).toContain('# title<br/>- item');
  });

  it.each(PAYLOADS)('renders %s as harmless text', (payload) => {
    for (const mode of ['block', 'inline'] as const) {
      const page = html(payload, mode);
      expectAllowListed(page);
      expect(page).not.toMatch(/<(script|img|svg|iframe|style)\b/);
    }
  });

  it.each(PAYLOADS)('renders %s as harmless text, whatever image sizes it is given', (payload) => {
    const sizes = [...SIZES, { url: 'https://evil.example/pixel.png', width: 1, height: 1 }];
    for (const mode of ['block', 'inline'] as const) {
      const page = html(payload, mode, sizes);
      expectAllowListed(page);
      expect(page).not.toMatch(/<(script|img|svg|iframe|style)\b/);
    }
  });
});

describe('images uploaded to posts (docs/product.md section 14)', () => {
  it('shows an uploaded image a post embeds at its size, lazy loaded', () => {
    const page = html(`Before\n\n![A porpoise & a "fish"](${UPLOAD})\n\nAfter`, 'block', SIZES);
    expect(page).toContain(
      `<p><img class="markdown__image" src="${UPLOAD}" alt="A porpoise &amp; a &quot;fish&quot;" width="640" height="480" loading="lazy" decoding="async"/></p>`,
    );
    expectAllowListed(page);
  });

  it('shows one whose size it was not told as a link to it (same tab), so nothing jumps', () => {
    for (const images of [undefined, [], [{ url: OTHER_UPLOAD, width: 10, height: 10 }]]) {
      const page = html(`See ![the chart](${UPLOAD}).`, 'block', images);
      expect(page).not.toContain('<img');
      expect(page).toContain(
        `See <a class="markdown__image-link" href="${UPLOAD}">the chart<span class="visually-hidden"> (image)</span></a>.`,
      );
      expectAllowListed(page);
    }
  });

  it('shows several, each at its own size, in lists, quotes, headings and tables too', () => {
    const sizes = [...SIZES, { url: OTHER_UPLOAD, width: 20, height: 10 }];
    const page = html(
      [
        `- ![one](${UPLOAD})`,
        '',
        `> ![two](${OTHER_UPLOAD})`,
        '',
        `# ![three](${UPLOAD})`,
        '',
        '| a |',
        '|-|',
        `| ![four](${OTHER_UPLOAD}) |`,
      ].join('\n'),
      'block',
      sizes,
    );
    expect(page.match(/<img /g)).toHaveLength(4);
    expect(page).toContain('alt="two" width="20" height="10"');
    expect(page).toContain('alt="three" width="640" height="480"');
    expectAllowListed(page);
  });

  it('embeds nothing in comments and messages, nor any other address, nor an image without a description', () => {
    const texts = [
      `![chart](${UPLOAD})`,
      `![](${UPLOAD})`,
      `![ ](${UPLOAD})`,
      `![chart](/uploads/${'AB12'.repeat(16)}.webp)`,
      `![chart](/uploads/${'ab12'.repeat(16)}.png)`,
      `![chart](/uploads/../${'ab12'.repeat(16)}.webp)`,
      `![chart](${UPLOAD}?x=1)`,
      `![chart](https://example.com${UPLOAD})`,
      `![chart](//evil.example${UPLOAD})`,
      `[![chart](${UPLOAD})](https://example.com/)`,
      `\`![chart](${UPLOAD})\``,
    ];
    for (const text of texts) {
      expect(html(text, 'inline', SIZES)).not.toContain('<img');
      expectAllowListed(html(text, 'inline', SIZES));
      expectAllowListed(html(text, 'block', SIZES));
    }
    for (const text of texts.slice(1)) expect(html(text, 'block', SIZES)).not.toContain('<img');
  });
});

/** The one image in a post's text, as the parser reads it. */
function imageIn(text: string): MdInline | undefined {
  const [block] = parseMarkdown(text, 'block');
  return block?.type === 'p' ? block.children.find((node) => node.type === 'image') : undefined;
}

describe('the Markdown that puts an uploaded image in', () => {
  it('is ![description](url), and reads back as the very description typed', () => {
    expect(imageMarkdown('A porpoise', UPLOAD)).toBe(`![A porpoise](${UPLOAD})`);
    for (const description of [
      'A chart [with brackets] and a \\ backslash',
      'Stars *not* emphasis, _nor_ this, ~~nor~~ `code`',
      '<img src=x onerror=alert(1)> & &amp; entities',
      'A | pipe, a # hash, an !exclamation and ](javascript:alert(1))',
      '@someone waving',
    ]) {
      expect(imageIn(imageMarkdown(description, UPLOAD))).toEqual({
        type: 'image',
        name: UPLOAD.slice('/uploads/'.length),
        alt: description,
      });
    }
  });

  it('keeps the description on one line, trimmed', () => {
    expect(imageMarkdown('  two\nlines\there  ', UPLOAD)).toBe(`![two lines here](${UPLOAD})`);
  });

  it('goes in at the cursor, which ends up after it', () => {
    expect(insertText('Look: . Done', 6, '![x](u)')).toEqual({ text: 'Look: ![x](u). Done', caret: 13 });
    expect(insertText('', 0, '![x](u)')).toEqual({ text: '![x](u)', caret: 7 });
    // A cursor past the text (it changed since) puts it at the end.
    expect(insertText('ab', 10, '!')).toEqual({ text: 'ab!', caret: 3 });
    expect(insertText('ab', -1, '!')).toEqual({ text: '!ab', caret: 1 });
  });
});
