import { createHash } from 'node:crypto';
import { LIMITS, MESSAGES } from '@porpoise/core';
import { fileTypeFromBuffer } from 'file-type';
import type { default as Sharp, Metadata } from 'sharp';
import { badRequest } from '../http/http-error.ts';

let loaded: Promise<typeof Sharp> | undefined;

/**
 * sharp (libvips), loaded with the first upload rather than at start: about 6 MB that a server
 * nobody uploads to never holds (README, "Memory"). libvips keeps no cache of decoded images
 * between uploads (memory is what a bomb would take).
 */
const loadSharp = () =>
  (loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  }));

/** What Porpoise accepts, by the content's own signature (never the name or the declared type), and as libvips names it. */
const ACCEPTED = new Map<string, string>([
  ['image/png', 'png'],
  // An animated PNG is a PNG: libvips reads its first frame (a still is what is kept).
  ['image/apng', 'png'],
  ['image/jpeg', 'jpeg'],
  ['image/gif', 'gif'],
  ['image/webp', 'webp'],
]);

/**
 * No image takes longer than this to re-encode; one that does is refused as unreadable. The
 * largest allowed (40 megapixels) takes about 2 s here, so an image near this is built to be
 * slow, and the uploads queued behind it wait no longer than this each.
 */
const ENCODE_SECONDS = 10;

/** An image as Porpoise stores it: WebP bytes, their SHA-256 name, and its size in pixels (one frame's). */
export interface StoredBytes {
  name: string;
  bytes: Buffer;
  width: number;
  height: number;
  /** More than one frame kept. */
  animated: boolean;
}

/**
 * Re-encodes an uploaded image (docs/product.md section 14). Its kind is read from its bytes
 * ('Only PNG, JPEG, GIF and WebP images can be uploaded'); its size from its header alone,
 * before anything is decoded ('Images can have at most 40 megapixels'): a 50,000 x 1,000
 * header costs nothing. Then libvips (sharp's own threads, off the event loop) applies the
 * EXIF orientation, drops every piece of metadata (location, camera, comments, colour
 * profile: converted to sRGB first), fits the longest side in 2560 px and writes WebP. An
 * animation keeps its frames, at most 300, and at most 40 megapixels decoded over all the
 * frames kept (a long animation of large frames keeps fewer): what decodes is bounded,
 * whatever the header says. A file that does not decode: 'This image could not be read'.
 */
export async function reencodeImage(input: Buffer): Promise<StoredBytes> {
  const type = await fileTypeFromBuffer(input);
  const format = type === undefined ? undefined : ACCEPTED.get(type.mime);
  if (format === undefined) throw badRequest(MESSAGES.imageType);
  const sharp = await loadSharp();
  let header: Metadata;
  try {
    header = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest(MESSAGES.imageUnreadable);
  }
  // What libvips reads must be what the signature said (a polyglot is refused, not guessed at).
  if (header.format !== format) throw badRequest(MESSAGES.imageType);
  const width = header.width;
  const frameHeight = header.pageHeight ?? header.height;
  if (!width || !frameHeight) throw badRequest(MESSAGES.imageUnreadable);
  const framePixels = width * frameHeight;
  if (framePixels > LIMITS.imagePixelsMax) throw badRequest(MESSAGES.imageTooManyPixels);
  const frames = Math.max(
    1,
    Math.min(header.pages ?? 1, LIMITS.imageFramesMax, Math.floor(LIMITS.imagePixelsMax / framePixels)),
  );
  try {
    let image = sharp(input, {
      pages: frames,
      limitInputPixels: LIMITS.imagePixelsMax,
      sequentialRead: true,
      failOn: 'error',
    }).timeout({ seconds: ENCODE_SECONDS });
    // EXIF orientation applies to still images (an animation has none to apply).
    if (frames === 1) image = image.autoOrient();
    const { data, info } = await image
      .resize({ width: LIMITS.imageSideMax, height: LIMITS.imageSideMax, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82, effort: 4 })
      .toBuffer({ resolveWithObject: true });
    return {
      name: `${createHash('sha256').update(data).digest('hex')}.webp`,
      bytes: data,
      width: info.width,
      height: info.pageHeight ?? info.height,
      animated: frames > 1,
    };
  } catch {
    throw badRequest(MESSAGES.imageUnreadable);
  }
}
