/**
 * What a Markdown text becomes: a tree of the few elements docs/product.md section 8 allows,
 * each with only the attributes it needs. The web app turns it into React elements (no
 * HTML string anywhere), so this list is the allow-list: a node kind that is not here
 * cannot reach a page.
 */
import type { CodeLanguage } from './languages.ts';

export type MdInline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'br' }
  /** `@username` written in text (not in code or a link): a link to that profile. */
  | { type: 'mention'; username: string }
  | { type: 'em' | 'strong' | 's'; children: MdInline[] }
  /** Always an https:// address with something after it (the spec's link rule). */
  | { type: 'link'; href: string; children: MdInline[] }
  /**
   * An image uploaded to Porpoise that a post embeds (docs/product.md section 14): its stored
   * name (`{sha256}.webp`, served at /uploads/{name}) and its description, never blank.
   */
  | { type: 'image'; name: string; alt: string };

export type TableAlign = 'left' | 'center' | 'right' | null;

export interface MdListItem {
  /** A task list item's box: checked or not; null for an ordinary item. */
  task: boolean | null;
  children: MdBlock[];
}

export type MdBlock =
  | { type: 'p'; children: MdInline[] }
  /** A tight list item's text: inline content without a paragraph around it. */
  | { type: 'inline'; children: MdInline[] }
  | { type: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: MdInline[] }
  | { type: 'blockquote'; children: MdBlock[] }
  | { type: 'list'; ordered: boolean; start: number; items: MdListItem[] }
  /** `lang` is '' for plain text. */
  | { type: 'code'; lang: CodeLanguage | ''; text: string }
  /** A code block past the post's first LIMITS.codeBlocksHighlighted: plain preformatted text. */
  | { type: 'pre'; text: string }
  | { type: 'hr' }
  | { type: 'table'; align: TableAlign[]; head: MdInline[][]; rows: MdInline[][][] };

/** A whole post (block Markdown) or a comment or message (inline Markdown only). */
export type MarkdownMode = 'block' | 'inline';
