/**
 * Markdown as docs/product.md section 8 has it, by markdown-it (CommonMark, with GFM tables
 * and strikethrough; task lists are read here from the list items). Raw HTML is text,
 * reference definitions are not read (the spec's links are `[text](url)`), bare
 * addresses are linked only when they start with https://, and every link passes the
 * spec's rule or stays text. The tokens become the allow-listed tree of tree.ts.
 */
import markdownItFactory, { type MarkdownIt, type Token } from 'markdown-it';
import { LIMITS } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import { uploadNameOf } from '../uploads.ts';
import { hasValidHyperlinks, isSafeHttpsUrl } from './link-rule.ts';
import { codeLanguage } from './languages.ts';
import type { MarkdownMode, MdBlock, MdInline, MdListItem, TableAlign } from './tree.ts';

/**
 * markdown-it's guard against deep recursion: past this many open containers it stops
 * reading the rest of the block, and the text after it would be lost. A text that comes
 * near it (lists or quotes nested about ten deep, which no post needs) is shown as plain
 * text instead, every character of it.
 */
const MAX_NESTING = 20;
const TOO_DEEP = MAX_NESTING - 2;

/**
 * Tables: markdown-it fills short rows up to the header's columns, so a 30,000-character
 * post of many wide tables made over a million cells (seconds and a gigabyte). A table
 * has at most 64 columns, and a text at most 10,000 cells in all: rows past that budget,
 * and tables after it, stay text.
 */
const MAX_TABLE_COLUMNS = 64;
const MAX_TABLE_CELLS = 10_000;

/** markdown-it's table rule, held to the column and cell budget (kept in the parse's env). */
function budgetedTables(md: MarkdownIt): void {
  const table = md.block.ruler.__rules__.find((rule) => rule.name === 'table')?.fn;
  if (table === undefined) throw new Error("markdown-it has no 'table' rule");
  md.block.ruler.at('table', (state, startLine, endLine, silent) => {
    const env = state.env as { tableCells?: number };
    const left = env.tableCells ?? MAX_TABLE_CELLS;
    if (left <= 0) return false;
    // The header's columns, counted on its line (a scan of the line, no more).
    let pipes = 0;
    for (let i = state.bMarks[startLine]! + state.tShift[startLine]!; i < state.eMarks[startLine]!; i++) {
      if (state.src.charCodeAt(i) === 0x7c) pipes += 1;
    }
    const columns = Math.max(1, pipes + 1);
    if (columns > MAX_TABLE_COLUMNS + 2) return false;
    // The header, the delimiter row, and as many rows as the budget has cells for.
    const rows = Math.floor(left / columns);
    if (rows < 1) return false;
    const before = state.tokens.length;
    const found = table(state, startLine, Math.min(endLine, startLine + 2 + rows - 1), silent);
    if (found && !silent) {
      let cells = 0;
      for (let i = before; i < state.tokens.length; i++) {
        const type = state.tokens[i]!.type;
        if (type === 'td_open' || type === 'th_open') cells += 1;
      }
      env.tableCells = left - cells;
    }
    return found;
  });
}

/** A character a username may hold (validation.ts USERNAME_PATTERN): A-Z, a-z, 0-9, dot, dash, underscore. */
function isUsernameChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x2e ||
    code === 0x2d ||
    code === 0x5f
  );
}

/**
 * `@username` (docs/product.md section 11): an '@' that no username character comes right
 * before (so `mail@example.com` is no mention), then 3-30 username characters; dots at
 * its end are the sentence's, not the name's. A scan of at most 32 characters.
 */
function mentions(md: MarkdownIt): void {
  md.inline.ruler.push('mention', (state, silent) => {
    const start = state.pos;
    if (state.src.charCodeAt(start) !== 0x40) return false;
    if (start > 0 && (isUsernameChar(state.src.charCodeAt(start - 1)) || state.src.charCodeAt(start - 1) === 0x40)) {
      return false;
    }
    let end = start + 1;
    while (end < state.posMax && end - start <= 31 && isUsernameChar(state.src.charCodeAt(end))) end += 1;
    if (end - start > 31) return false;
    let nameEnd = end;
    while (nameEnd > start + 1 && state.src.charCodeAt(nameEnd - 1) === 0x2e) nameEnd -= 1;
    const username = state.src.slice(start + 1, nameEnd);
    if (username.length < 3) return false;
    if (!silent) {
      const token = state.push('mention', '', 0);
      token.content = username;
      token.markup = '@';
    }
    state.pos = nameEnd;
    return true;
  });
}

function createParser(): MarkdownIt {
  const md = markdownItFactory('default', {
    html: false,
    linkify: true,
    // A line break in the text is a line break on the page, as people type in chat and comments.
    breaks: true,
    typographer: false,
    maxNesting: MAX_NESTING,
  });
  md.disable(['reference']);
  budgetedTables(md);
  mentions(md);
  // Escapes and entities stay tokens of their own, so `- \\[x]` is not taken for a task box.
  md.core.ruler.disable('text_join');
  // A link or image whose address breaks the spec's rule is not a link at all: markdown-it
  // leaves the text exactly as typed (the rule on posts finds it there, link-rule.ts). An
  // image uploaded to Porpoise (`/uploads/{name}`) is read too: a post embeds it (section 14).
  md.validateLink = (url) => isSafeHttpsUrl(url) || uploadNameOf(url) !== null;
  // Bare addresses: https:// only, never www., e-mail or other schemes.
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  for (const scheme of ['http:', 'ftp:', '//', 'mailto:']) md.linkify.add(scheme, null);
  return md;
}

let parser: MarkdownIt | undefined;
const markdownIt = () => (parser ??= createParser());

/**
 * The text's tokens, with a fresh environment each time (no state is kept between
 * texts); null when it nests too deep to be read whole.
 */
function tokenize(text: string, mode: MarkdownMode): Token[] | null {
  const md = markdownIt();
  const tokens = mode === 'block' ? md.parse(text, {}) : md.parseInline(text, {});
  for (const token of tokens) if (token.level >= TOO_DEEP) return null;
  return tokens;
}

/** The whole text as one paragraph of plain text, its line breaks kept. */
function plainParagraph(text: string, mode: MarkdownMode): MdBlock[] {
  const children: MdInline[] = [];
  text.split('\n').forEach((line, index) => {
    if (index > 0) children.push({ type: 'br' });
    pushText(children, line);
  });
  return [{ type: mode === 'block' ? 'p' : 'inline', children }];
}

const isPlainText = (token: Token) =>
  token.type === 'text' || token.type === 'text_special' || token.type === 'html_inline';

/** Characters that show nothing: a link's text made of them alone is empty. */
const INVISIBLE = /[\p{Cf}\p{Z}\s\u115F\u1160\u2800\u3164\uFFA0]/gu;
const isBlank = (label: string) => label.replace(INVISIBLE, '') === '';

/** The address of a link or image token. */
function linkTarget(token: Token): string {
  const attribute = token.attrGet(token.type === 'image' ? 'src' : 'href');
  return typeof attribute === 'string' ? attribute : '';
}

// ---------------------------------------------------------------------------------------
// Validation: the rule behind 'Invalid hyperlink format.'

/**
 * What is wrong with the text's links and images, or null: 'Invalid hyperlink format.' when
 * a link breaks the spec's rule (non-empty text and an https:// address with something after
 * it), 'Images need a description' when a post embeds an uploaded image with none
 * (docs/product.md section 14). Links are what Markdown reads as links (and images, which
 * are shown as links unless a post embeds an upload); a `[text](url)` that Markdown leaves
 * as text (its address has a space, or a scheme markdown-it refuses) is still a link the
 * writer meant, so the plain text outside code is checked by the spec's own scan too. Code
 * is exempt: `handlers[0](event)` in a code span or block is code, not a link. Comments and
 * messages (inline) embed no image: an upload's address there is no https:// link.
 */
export function markdownTextError(text: string, mode: MarkdownMode = 'block'): string | null {
  const tokens = tokenize(text, mode);
  if (tokens === null) return hasValidHyperlinks(text) ? null : MESSAGES.invalidHyperlink;
  for (const token of tokens) {
    if (token.type !== 'inline') continue;
    const error = inlineLinksError(token.children ?? [], mode === 'block');
    if (error !== null) return error;
  }
  return null;
}

/** True when every link in the text keeps the spec's rule (and every embedded image has a description). */
export const markdownLinksValid = (text: string, mode: MarkdownMode = 'block'): boolean =>
  markdownTextError(text, mode) === null;

/** An uploaded image a post embeds: its name, else null (any other image is a link). */
const embeddedName = (token: Token, embeds: boolean): string | null =>
  embeds ? uploadNameOf(linkTarget(token)) : null;

function inlineLinksError(children: Token[], embeds: boolean): string | null {
  const plain = inlineLinksPlain(children, embeds);
  if (typeof plain !== 'string') return plain.error;
  return hasValidHyperlinks(plain) ? null : MESSAGES.invalidHyperlink;
}

/** The plain text the spec's scan reads, or the first error met on the way. */
function inlineLinksPlain(children: Token[], embeds: boolean): string | { error: string } {
  let plain = '';
  let labelStart = -1;
  for (const token of children) {
    if (isPlainText(token)) plain += token.content;
    else if (token.type === 'code_inline') plain += '\u0000';
    else if (token.type === 'softbreak' || token.type === 'hardbreak') plain += '\n';
    else if (token.type === 'link_open') {
      // A bare address that is not https:// stays text; a written link must keep the rule.
      const written = token.markup !== 'linkify' && token.markup !== 'autolink';
      if (written && !isSafeHttpsUrl(linkTarget(token))) return { error: MESSAGES.invalidHyperlink };
      labelStart = plain.length;
    } else if (token.type === 'link_close') {
      if (isBlank(plain.slice(labelStart))) return { error: MESSAGES.invalidHyperlink };
    } else if (token.type === 'image') {
      // The description as the page shows it: entities decoded (`![&nbsp;](…)` is blank too).
      const description = (token.children ?? []).map((child) => child.content).join('');
      if (embeddedName(token, embeds) !== null) {
        if (isBlank(description)) return { error: MESSAGES.imageDescription };
      } else if (isBlank(description) || !isSafeHttpsUrl(linkTarget(token))) {
        return { error: MESSAGES.invalidHyperlink };
      }
      plain += token.content;
    }
  }
  return plain;
}

/**
 * The uploaded images a post's text embeds (docs/product.md section 14), by name, each once,
 * in the order written: what the server looks up to give the page their sizes, and what
 * keeps them from the orphan sweep. Inside a link's text an image shows as text, but it is
 * still the writer's image: it counts too.
 */
export function embeddedImageNames(text: string): string[] {
  // Every image is written `![` (an entity cannot make one); its address may be written with entities.
  if (!text.includes('![')) return [];
  const tokens = tokenize(text, 'block');
  if (tokens === null) return [];
  const found = new Set<string>();
  for (const token of tokens) {
    if (token.type !== 'inline') continue;
    for (const child of token.children ?? []) {
      const name = child.type === 'image' ? embeddedName(child, true) : null;
      if (name !== null) found.add(name);
    }
  }
  return [...found];
}

// ---------------------------------------------------------------------------------------
// The tree

/** Reads the inline tokens between an `_open` token and its `_close` into nodes. */
class InlineReader {
  private index = 0;
  /** Inside a link's text: an image there is its alt text (a link cannot hold a link). */
  private inLink = false;
  /** `embeds`: a post's reader, where an uploaded image is embedded (a comment's or message's is not). */
  constructor(
    private readonly tokens: Token[],
    private readonly embeds: boolean,
  ) {}

  read(until?: string): MdInline[] {
    const nodes: MdInline[] = [];
    while (this.index < this.tokens.length) {
      const token = this.tokens[this.index++] as Token;
      if (token.type === until) return nodes;
      this.readOne(token, nodes);
    }
    return nodes;
  }

  private readOne(token: Token, nodes: MdInline[]): void {
    switch (token.type) {
      case 'softbreak':
      case 'hardbreak':
        nodes.push({ type: 'br' });
        return;
      case 'code_inline':
        nodes.push({ type: 'code', text: token.content });
        return;
      case 'em_open':
        nodes.push({ type: 'em', children: this.read('em_close') });
        return;
      case 'strong_open':
        nodes.push({ type: 'strong', children: this.read('strong_close') });
        return;
      case 's_open':
        nodes.push({ type: 's', children: this.read('s_close') });
        return;
      case 'link_open':
        this.readLink(token, nodes);
        return;
      case 'mention':
        // In a link's text it is text: a link cannot hold a link.
        if (this.inLink) pushText(nodes, `@${token.content}`);
        else nodes.push({ type: 'mention', username: token.content });
        return;
      case 'image': {
        // Shown as a link to the image (docs/product.md section 8), but for an image
        // uploaded to Porpoise, which a post embeds (section 14).
        const alt = new InlineReader(token.children ?? [], false).read();
        const name = embeddedName(token, this.embeds);
        if (this.inLink) for (const node of alt) pushNode(nodes, node);
        else if (name !== null && !isBlank(plainOf(alt))) nodes.push({ type: 'image', name, alt: plainOf(alt) });
        else this.pushLink(token, alt, nodes, '!');
        return;
      }
      default:
        // text, text_special (an escape or entity, already decoded) and html_inline: text.
        pushText(nodes, token.content);
    }
  }

  private readLink(open: Token, nodes: MdInline[]): void {
    this.inLink = true;
    const children = this.read('link_close');
    this.inLink = false;
    if (open.markup === 'linkify' || open.markup === 'autolink') {
      const href = linkTarget(open);
      if (isSafeHttpsUrl(href)) nodes.push({ type: 'link', href, children });
      else pushText(nodes, open.markup === 'autolink' ? `<${plainOf(children)}>` : plainOf(children));
      return;
    }
    this.pushLink(open, children, nodes, '');
  }

  /** A link that keeps the rule, else its source written back as text. */
  private pushLink(token: Token, children: MdInline[], nodes: MdInline[], prefix: string): void {
    const href = linkTarget(token);
    if (isSafeHttpsUrl(href) && !isBlank(plainOf(children))) {
      nodes.push({ type: 'link', href, children });
      return;
    }
    pushText(nodes, `${prefix}[`);
    for (const child of children) pushNode(nodes, child);
    pushText(nodes, `](${markdownIt().normalizeLinkText(href)})`);
  }
}

function pushText(nodes: MdInline[], text: string): void {
  if (text === '') return;
  const last = nodes.at(-1);
  if (last?.type === 'text') last.text += text;
  else nodes.push({ type: 'text', text });
}

function pushNode(nodes: MdInline[], node: MdInline): void {
  if (node.type === 'text') pushText(nodes, node.text);
  else nodes.push(node);
}

function plainOf(nodes: MdInline[]): string {
  let text = '';
  for (const node of nodes) {
    if (node.type === 'text' || node.type === 'code') text += node.text;
    else if (node.type === 'mention') text += `@${node.username}`;
    else if (node.type === 'br') text += '\n';
    else if (node.type === 'image') text += node.alt;
    else text += plainOf(node.children);
  }
  return text;
}

const inlineOf = (token: Token | undefined, embeds: boolean): MdInline[] =>
  new InlineReader(token?.children ?? [], embeds).read();

const TASK_MARKERS: Readonly<Record<string, boolean>> = { '[ ] ': false, '[x] ': true, '[X] ': true };

/**
 * A list item whose text starts with `[ ] ` or `[x] ` as typed (not escaped, not an
 * entity: those are tokens of their own) is a task: the marker becomes its box. Read from
 * the item's first inline token, before its text is read, and cut from it.
 */
function takeTaskMarker(paragraph: Token | undefined, inline: Token | undefined): boolean | null {
  if (paragraph?.type !== 'paragraph_open' || inline?.type !== 'inline') return null;
  const first = inline.children?.[0];
  if (first?.type !== 'text') return null;
  const marker = first.content.slice(0, 4);
  if (!Object.hasOwn(TASK_MARKERS, marker)) return null;
  first.content = first.content.slice(4);
  return TASK_MARKERS[marker] as boolean;
}

function alignOf(token: Token): TableAlign {
  const style = token.attrGet('style');
  if (style === 'text-align:left') return 'left';
  if (style === 'text-align:center') return 'center';
  if (style === 'text-align:right') return 'right';
  return null;
}

/** Reads block tokens into nodes, one container at a time. */
class BlockReader {
  private index = 0;
  /** Code blocks read so far, in the order they show (nested ones included). */
  private codeBlocks = 0;
  constructor(private readonly tokens: Token[]) {}

  read(until?: string): MdBlock[] {
    const nodes: MdBlock[] = [];
    while (this.index < this.tokens.length) {
      const token = this.tokens[this.index++] as Token;
      if (token.type === until) return nodes;
      const node = this.readOne(token);
      if (node !== null) nodes.push(node);
    }
    return nodes;
  }

  private next(): Token | undefined {
    return this.tokens[this.index++];
  }

  private readOne(token: Token): MdBlock | null {
    switch (token.type) {
      case 'paragraph_open': {
        const children = inlineOf(this.next(), true);
        this.next(); // paragraph_close
        return { type: token.hidden ? 'inline' : 'p', children };
      }
      case 'heading_open': {
        const level = Number(token.tag.slice(1)) as 1 | 2 | 3 | 4 | 5 | 6;
        const children = inlineOf(this.next(), true);
        this.next();
        return { type: 'heading', level, children };
      }
      case 'blockquote_open':
        return { type: 'blockquote', children: this.read('blockquote_close') };
      case 'bullet_list_open':
      case 'ordered_list_open':
        return this.readList(token);
      case 'fence':
      case 'code_block':
        return this.readCode(token);
      case 'hr':
        return { type: 'hr' };
      case 'table_open':
        return this.readTable();
      case 'inline':
        return { type: 'p', children: inlineOf(token, true) };
      default:
        // html_block cannot occur with html off; anything unknown is shown as its text.
        return token.content === '' ? null : { type: 'p', children: [{ type: 'text', text: token.content }] };
    }
  }

  /**
   * A code block; past the first LIMITS.codeBlocksHighlighted (fenced or indented alike) it is
   * plain preformatted text, with no highlighting and no 'Copy', so no post of thousands of
   * blocks can freeze a reader's browser (docs/product.md section 8).
   */
  private readCode(token: Token): MdBlock {
    this.codeBlocks += 1;
    if (this.codeBlocks > LIMITS.codeBlocksHighlighted) return { type: 'pre', text: token.content };
    return { type: 'code', lang: token.type === 'fence' ? codeLanguage(token.info) : '', text: token.content };
  }

  private readList(open: Token): MdBlock {
    const ordered = open.type === 'ordered_list_open';
    const close = ordered ? 'ordered_list_close' : 'bullet_list_close';
    const start = ordered ? Number(open.attrGet('start') ?? 1) : 1;
    const items: MdListItem[] = [];
    for (let token = this.next(); token !== undefined && token.type !== close; token = this.next()) {
      if (token.type !== 'list_item_open') continue;
      const task = takeTaskMarker(this.tokens[this.index], this.tokens[this.index + 1]);
      const item: MdListItem = { task, children: this.read('list_item_close') };
      items.push(item);
    }
    return { type: 'list', ordered, start: Number.isSafeInteger(start) ? start : 1, items };
  }

  private readTable(): MdBlock {
    const align: TableAlign[] = [];
    const head: MdInline[][] = [];
    const rows: MdInline[][][] = [];
    let row: MdInline[][] | null = null;
    let inHead = false;
    for (let token = this.next(); token !== undefined && token.type !== 'table_close'; token = this.next()) {
      if (token.type === 'thead_open') inHead = true;
      else if (token.type === 'thead_close') inHead = false;
      else if (token.type === 'tr_open') row = inHead ? head : [];
      else if (token.type === 'tr_close' && row !== null && !inHead) rows.push(row);
      else if (token.type === 'th_open' || token.type === 'td_open') {
        if (inHead) align.push(alignOf(token));
        row?.push(inlineOf(this.next(), true));
        this.next(); // th_close / td_close
      }
    }
    return { type: 'table', align, head, rows };
  }
}

/** A post (block) or a comment or message (inline) as the allow-listed tree. */
export function parseMarkdown(text: string, mode: MarkdownMode = 'block'): MdBlock[] {
  const tokens = tokenize(text, mode);
  if (tokens === null) return plainParagraph(text, mode);
  if (mode === 'inline') return [{ type: 'inline', children: inlineOf(tokens[0], false) }];
  return new BlockReader(tokens).read();
}

/**
 * What a reader sees of the text, as one line of plain text: for a snippet (a profile's
 * list of answers, a thread's last message), where markup would show as symbols.
 */
export function markdownPlainText(text: string, mode: MarkdownMode = 'block'): string {
  const parts: string[] = [];
  const visit = (nodes: readonly MdBlock[]) => {
    for (const node of nodes) {
      if (node.type === 'code' || node.type === 'pre') parts.push(node.text);
      else if (node.type === 'hr') continue;
      else if (node.type === 'blockquote') visit(node.children);
      else if (node.type === 'list') for (const item of node.items) visit(item.children);
      else if (node.type === 'table') for (const cell of [...node.head, ...node.rows.flat()]) parts.push(plainOf(cell));
      else parts.push(plainOf(node.children));
    }
  };
  visit(parseMarkdown(text, mode));
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * The usernames a text mentions (docs/product.md section 11), each once (the first spelling
 * of a name in any case), in the order written, at most LIMITS.mentionsPerPost: what the
 * reader sees as mentions, so none in code or in a link's text.
 */
export function mentionedUsernames(text: string, mode: MarkdownMode = 'block'): string[] {
  if (!text.includes('@')) return [];
  const tokens = tokenize(text, mode);
  if (tokens === null) return [];
  const found = new Map<string, string>();
  for (const token of tokens) {
    if (token.type !== 'inline') continue;
    let inLink = 0;
    for (const child of token.children ?? []) {
      if (child.type === 'link_open') inLink += 1;
      else if (child.type === 'link_close') inLink -= 1;
      else if (child.type === 'mention' && inLink === 0) {
        const key = child.content.toLowerCase();
        if (!found.has(key)) found.set(key, child.content);
        if (found.size >= LIMITS.mentionsPerPost) return [...found.values()];
      }
    }
  }
  return [...found.values()];
}
