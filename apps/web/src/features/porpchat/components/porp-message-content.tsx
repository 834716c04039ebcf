import { useEffect, useRef, useState } from 'react';
import type { Message } from '@porpoise/core';
import { Markdown } from '@/components/markdown/markdown';

/** 'IMG' plus any one character, then the image's address (spec section 3). */
const IMAGE_PREFIX_LENGTH = 4;

/** An image message's picture: on Porpoise's own origin, or elsewhere (then https, shown on request). */
export type PorpImage = { kind: 'own'; src: string } | { kind: 'elsewhere'; src: string; host: string };

/**
 * The image of an image message, or null when it shows as text (docs/product.md section 4): only
 * an absolute http(s) URL is an image, and one off `ownOrigin` only over https, since the
 * reader's browser fetches it (an http address elsewhere stays text).
 */
export function porpImage(content: string, ownOrigin: string): PorpImage | null {
  if (!content.startsWith('IMG') || content.length <= IMAGE_PREFIX_LENGTH) return null;
  const rest = content.slice(IMAGE_PREFIX_LENGTH).trim();
  let url: URL;
  try {
    url = new URL(rest);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.origin === ownOrigin) return { kind: 'own', src: url.href };
  return url.protocol === 'https:' ? { kind: 'elsewhere', src: url.href, host: url.host } : null;
}

/**
 * A PorpChat message body: an image for a valid image message, otherwise its inline Markdown.
 * The reader's browser never fetches an address a stranger typed without the reader's consent:
 * an image elsewhere waits behind a 'Show image from {host}' button, and no image sends a Referer.
 */
export function PorpMessageContent({ message }: { message: Message }) {
  const [pressed, setPressed] = useState(false);
  const picture = useRef<HTMLImageElement>(null);
  const image = porpImage(message.content, window.location.origin);
  // The pressed button is gone: its image takes the focus, so keyboard users keep their place.
  useEffect(() => {
    if (pressed) picture.current?.focus();
  }, [pressed]);
  if (image === null) return <Markdown mode="inline" text={message.content} />;
  if (image.kind === 'elsewhere' && !pressed) {
    return (
      <button type="button" className="button porp-image-button" onClick={() => setPressed(true)}>
        {`Show image from ${image.host}`}
      </button>
    );
  }
  return (
    <img
      ref={picture}
      tabIndex={pressed ? -1 : undefined}
      className="porp-image"
      src={image.src}
      alt={`Image from ${message.sender}`}
      height={100}
      referrerPolicy="no-referrer"
    />
  );
}
