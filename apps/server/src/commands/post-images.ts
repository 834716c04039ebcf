import { MESSAGES } from '@porpoise/core';
import { embeddedImageNames } from '@porpoise/core/markdown';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';
import type { StoredImage } from '../db/schema.ts';
import { badRequest } from '../http/http-error.ts';

/** What a post's text embeds: the images' names for its event, their sizes for its row (null when none). */
export interface PostImages {
  names: string[];
  stored: StoredImage[] | null;
}

const NONE: PostImages = { names: [], stored: null };

/**
 * The uploaded images a post's text embeds (docs/product.md section 14), with their sizes,
 * in the order written; 400 'An image in this post is no longer available: add it again'
 * when one is not stored (never uploaded, or swept as unused). Run inside the post's write:
 * the rows are locked (for key share) until it commits, so the orphan sweep cannot delete
 * one between this read and the event processor counting the post's use of it.
 */
export async function postImages(tx: Db, text: string): Promise<PostImages> {
  const names = embeddedImageNames(text);
  if (names.length === 0) return NONE;
  const rows = await queryRows<{ name: string; width: number; height: number; animated: boolean }>(
    tx,
    sql`select name, width, height, animated from uploads where name = any(${sql.param(names)}::text[]) for key share`,
  );
  const byName = new Map(
    rows.map(({ animated, ...size }): [string, StoredImage] => [
      size.name,
      animated ? { ...size, animated: true } : size,
    ]),
  );
  const stored = names.map((name) => byName.get(name));
  if (stored.some((image) => image === undefined)) throw badRequest(MESSAGES.imageGone);
  return { names, stored: stored as StoredImage[] };
}

/** A post's stored images as the column takes them (a parameter of a raw statement). */
export const imagesParam = (images: PostImages) =>
  images.stored === null ? sql`null` : sql`${JSON.stringify(images.stored)}::jsonb`;
