/**
 * Images uploaded to Porpoise (docs/product.md section 14): each is stored once under the
 * SHA-256 of its bytes, as WebP, and addressed `/uploads/{64 hex digits}.webp`.
 */

export const UPLOADS_PATH = '/uploads/';

/** A stored image's name: the SHA-256 of its bytes in lower-case hex, then `.webp` (anchored, one class: linear). */
const UPLOAD_NAME = /^[0-9a-f]{64}\.webp$/;

/** True for a stored image's name, `{sha256}.webp`. */
export const isUploadName = (name: string): boolean => name.length === 69 && UPLOAD_NAME.test(name);

/** The name in an own-origin image address (`/uploads/{name}`), or null for any other address. */
export function uploadNameOf(url: string): string | null {
  if (!url.startsWith(UPLOADS_PATH)) return null;
  const name = url.slice(UPLOADS_PATH.length);
  return isUploadName(name) ? name : null;
}

/** The address of a stored image. */
export const uploadUrl = (name: string): string => `${UPLOADS_PATH}${name}`;

/** A stored image's size in pixels, as a post carries it so the page reserves its space. */
export interface ImageSize {
  url: string;
  width: number;
  height: number;
  /** An animation (absent for a still): pages offer to pause it, and start it paused under reduced motion. */
  animated?: true;
}
