import { parseRichText } from '@porpoise/core';
import { useMemo } from 'react';

/**
 * User text as plain text with the spec's [text](https://...) links, which open in a
 * new tab. Nothing is ever inserted as HTML; line breaks are kept by the CSS. The text is
 * parsed once per value, not on every render (live pages re-render often).
 */
export function RichText({ text, className }: { text: string; className?: string }) {
  const segments = useMemo(() => parseRichText(text), [text]);
  return (
    <div className={className === undefined ? 'rich-text' : `rich-text ${className}`}>
      {segments.map((segment, index) =>
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
