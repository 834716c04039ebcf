import {
  parseMarkdown,
  type MarkdownMode,
  type MdBlock,
  type MdInline,
  type TableAlign,
} from '@porpoise/core/markdown';
import { uploadUrl, type ImageSize } from '@porpoise/core';
import { createContext, useContext, useId, useMemo, type ReactNode } from 'react';
import { Link, useInRouterContext } from 'react-router';
import { AnimatedImage } from './animated-image';
import { CodeBlock } from './code-block';
import { useScrollsSideways } from './use-scrolls-sideways';
import './markdown.css';

/**
 * A Markdown heading inside a post sits below the page's own headings (the question's
 * title is the h1, 'Answers' an h2), so `#` is an h3 and the rest follow, h6 at most.
 */
const HEADINGS = ['h3', 'h4', 'h5', 'h6', 'h6', 'h6'] as const;

function inlines(nodes: readonly MdInline[]): ReactNode[] {
  return nodes.map((node, index) => {
    switch (node.type) {
      case 'text':
        return node.text;
      case 'br':
        return <br key={index} />;
      case 'code':
        return <code key={index}>{node.text}</code>;
      case 'em':
        return <em key={index}>{inlines(node.children)}</em>;
      case 'strong':
        return <strong key={index}>{inlines(node.children)}</strong>;
      case 's':
        return <s key={index}>{inlines(node.children)}</s>;
      case 'mention':
        // docs/product.md section 11: a mention links to the member's profile, in this tab.
        return <Mention key={index} username={node.username} />;
      case 'image':
        return <EmbeddedImage key={index} name={node.name} alt={node.alt} />;
      case 'link':
        return (
          <a key={index} href={node.href} target="_blank" rel="noopener noreferrer">
            {inlines(node.children)}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        );
    }
  });
}

/** A mention: a link to the profile, in this tab (a plain link where no router is, as in a static render). */
function Mention({ username }: { username: string }) {
  const to = `/profile/${encodeURIComponent(username)}`;
  const routed = useInRouterContext();
  return routed ? (
    <Link className="markdown__mention" to={to}>
      @{username}
    </Link>
  ) : (
    <a className="markdown__mention" href={to}>
      @{username}
    </a>
  );
}

/** The sizes of the uploaded images a post embeds, by url (what its `images` field says). */
const ImageSizes = createContext<ReadonlyMap<string, ImageSize>>(new Map());

/**
 * An image uploaded to Porpoise that a post embeds (docs/product.md section 14): lazy loaded,
 * its width and height given so the page keeps its room before it arrives (CSS scales it
 * down to the post's width). One whose size the page was not told is a link to it instead,
 * so nothing jumps.
 */
function EmbeddedImage({ name, alt }: { name: string; alt: string }) {
  const url = uploadUrl(name);
  const size = useContext(ImageSizes).get(url);
  return size === undefined ? (
    <a className="markdown__image-link" href={url}>
      {alt}
      <span className="visually-hidden"> (image)</span>
    </a>
  ) : size.animated === true ? (
    <AnimatedImage size={size} alt={alt} />
  ) : (
    <img
      className="markdown__image"
      src={url}
      alt={alt}
      width={size.width}
      height={size.height}
      loading="lazy"
      decoding="async"
    />
  );
}

/** A table column's alignment as a class (the page's CSP allows no inline style). */
const alignClass = (align: TableAlign | undefined) => (align == null ? undefined : `markdown__align-${align}`);

function block(node: MdBlock, key: number): ReactNode {
  switch (node.type) {
    case 'p':
      return <p key={key}>{inlines(node.children)}</p>;
    case 'inline':
      return <span key={key}>{inlines(node.children)}</span>;
    case 'heading': {
      const Heading = HEADINGS[node.level - 1] ?? 'h6';
      return (
        <Heading key={key} className={`markdown__h${node.level}`}>
          {inlines(node.children)}
        </Heading>
      );
    }
    case 'blockquote':
      return <blockquote key={key}>{blocks(node.children)}</blockquote>;
    case 'list': {
      const items = node.items.map((item, index) =>
        item.task === null ? (
          <li key={index}>{blocks(item.children)}</li>
        ) : (
          <TaskItem key={index} done={item.task}>
            {blocks(item.children)}
          </TaskItem>
        ),
      );
      return node.ordered ? (
        <ol key={key} start={node.start === 1 ? undefined : node.start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'code':
      return <CodeBlock key={key} language={node.lang} code={node.text} />;
    case 'pre':
      // Past the post's first highlighted blocks: plain text, no highlighter, no 'Copy'.
      return (
        <pre key={key} className="markdown__pre">
          <code>{node.text.endsWith('\n') ? node.text.slice(0, -1) : node.text}</code>
        </pre>
      );
    case 'hr':
      return <hr key={key} />;
    case 'table':
      return <Table key={key} table={node} />;
  }
}

const blocks = (nodes: readonly MdBlock[]): ReactNode[] => nodes.map(block);

/** A task list item: a box that shows done or not (it cannot be changed here), named by the item's text. */
function TaskItem({ done, children }: { done: boolean; children: ReactNode }) {
  const id = useId();
  return (
    <li className="markdown__task">
      <input type="checkbox" checked={done} disabled aria-labelledby={id} />{' '}
      <span id={id} className="markdown__task-text">
        {children}
      </span>
    </li>
  );
}

/** A table, in a box that scrolls sideways (and takes the focus for it) when wider than the post. */
function Table({ table }: { table: Extract<MdBlock, { type: 'table' }> }) {
  const [scroller, scrolls] = useScrollsSideways<HTMLDivElement>();
  return (
    <div ref={scroller} className="markdown__table" tabIndex={scrolls ? 0 : undefined} role="group" aria-label="Table">
      <table>
        <thead>
          <tr>
            {table.head.map((cell, index) => (
              <th key={index} scope="col" className={alignClass(table.align[index])}>
                {inlines(cell)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, index) => (
                <td key={index} className={alignClass(table.align[index])}>
                  {inlines(cell)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An already parsed tree (what a server that cooked posts at write time would send). */
export function MarkdownTree({
  tree,
  mode = 'block',
  className,
  images,
}: {
  tree: readonly MdBlock[];
  mode?: MarkdownMode;
  className?: string;
  /** The sizes of the uploaded images the text embeds (a question's or an answer's `images`). */
  images?: readonly ImageSize[] | undefined;
}) {
  const classes = ['markdown', mode === 'inline' ? 'markdown--inline' : '', className ?? ''].filter(Boolean).join(' ');
  const sizes = useMemo(() => new Map((images ?? []).map((image) => [image.url, image])), [images]);
  return (
    <ImageSizes value={sizes}>
      {mode === 'inline' ? (
        <span className={classes}>{blocks(tree)}</span>
      ) : (
        <div className={classes}>{blocks(tree)}</div>
      )}
    </ImageSizes>
  );
}

/**
 * User text as Markdown (docs/product.md section 8): a post's whole Markdown, or a comment's
 * or message's inline Markdown. Nothing is ever inserted as HTML: the text becomes the
 * allow-listed tree of `@porpoise/core/markdown`, parsed once per value. A post's uploaded
 * images (section 14) are the only images it shows.
 */
export function Markdown({
  text,
  mode = 'block',
  className,
  images,
}: {
  text: string;
  mode?: MarkdownMode;
  className?: string;
  /**
   * The sizes of the uploaded images a post's text embeds (docs/product.md section 14): each
   * is shown at its size; one not listed is a link to it.
   */
  images?: readonly ImageSize[] | undefined;
}) {
  const tree = useMemo(() => parseMarkdown(text, mode), [text, mode]);
  return <MarkdownTree tree={tree} mode={mode} images={images} {...(className === undefined ? {} : { className })} />;
}
