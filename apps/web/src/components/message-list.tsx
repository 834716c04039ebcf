import { useEffect, useRef, type ReactNode } from 'react';
import type { Message } from '@porpoise/core';
import { RelativeTime } from './relative-time';

export interface MessageListProps {
  messages: Message[];
  /** Names the scrolling region for screen readers, e.g. 'Messages with bob'. */
  label: string;
  emptyText: string;
  /** Whether a message is the reader's own, marked '(you)' and aligned as such. */
  isOwn?: (message: Message) => boolean;
  renderContent: (message: Message) => ReactNode;
  /** Controls under a message (its 'Flag' button), if any. */
  renderActions?: (message: Message) => ReactNode;
}

/**
 * A conversation, oldest first, in a scrolling region that keeps the newest message in
 * view (spec: /threads/:tid). The region is focusable so keyboard users can scroll it,
 * and as a log it announces messages that arrive while it is open.
 */
export function MessageList({
  messages,
  label,
  emptyText,
  isOwn = () => false,
  renderContent,
  renderActions,
}: MessageListProps) {
  const region = useRef<HTMLDivElement>(null);
  const newest = messages.at(-1)?._id;

  useEffect(() => {
    const element = region.current;
    if (element !== null) element.scrollTop = element.scrollHeight;
  }, [newest]);

  // A log, but not a live region: what arrives is announced once, through the one live region
  // (lib/announcer.ts), which the account's 'Live announcements' can silence.
  return (
    <div className="message-list" ref={region} role="log" aria-live="off" aria-label={label} tabIndex={0}>
      {messages.length === 0 ? (
        <p className="message-list__empty muted">{emptyText}</p>
      ) : (
        <ol className="message-list__items">
          {messages.map((message) => {
            const mine = isOwn(message);
            return (
              <li
                key={message._id}
                className={['message', mine ? 'message--own' : '', message.deleted ? 'message--hidden' : '']
                  .filter((name) => name !== '')
                  .join(' ')}
              >
                <p className="message__meta">
                  <span className="message__sender">
                    {message.sender}
                    {mine ? <span className="message__you"> (you)</span> : null}
                  </span>
                  <span className="message__time">
                    <RelativeTime date={message.messageDateTime} />
                  </span>
                </p>
                {message.deleted ? (
                  <p className="message__hidden">
                    <strong>{message.held === 'flags' ? 'Hidden by flags.' : 'Deleted by a moderator.'}</strong> Only
                    moderators and its sender see it.
                  </p>
                ) : null}
                <div className="message__content">{renderContent(message)}</div>
                {renderActions?.(message)}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
