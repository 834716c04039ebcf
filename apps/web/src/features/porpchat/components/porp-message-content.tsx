import type { Message } from '@porpoise/core';

/** 'IMG' plus any one character, then the image's address (spec section 3). */
const IMAGE_PREFIX_LENGTH = 4;

/** The address of an image message, or null: only an absolute http(s) URL counts (product.md section 4). */
export function porpImageUrl(content: string): string | null {
  if (!content.startsWith('IMG') || content.length <= IMAGE_PREFIX_LENGTH) return null;
  const rest = content.slice(IMAGE_PREFIX_LENGTH).trim();
  try {
    const url = new URL(rest);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A PorpChat message body: an image for a valid image message, otherwise the text as written. */
export function PorpMessageContent({ message }: { message: Message }) {
  const src = porpImageUrl(message.content);
  if (src === null) return <>{message.content}</>;
  return <img className="porp-image" src={src} alt={`Image from ${message.sender}`} height={100} />;
}
