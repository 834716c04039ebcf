import { parseRichText } from '@porpoise/core';

/**
 * User text as plain text with the spec's [text](https://...) links, which open in a
 * new tab. Nothing is ever inserted as HTML; line breaks are kept by the CSS.
 */
export function RichText({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className === undefined ? 'rich-text' : `rich-text ${className}`}>
      {parseRichText(text).map((segment, index) =>
        segment.kind === 'link' ? (
          <a key={index} href={segment.href} target="_blank" rel="noopener noreferrer">
            {segment.text}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </div>
  );
}
