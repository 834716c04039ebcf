import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { at, ref } from './columns.ts';

/** An uploaded image as a post's row keeps it, so its page reserves the image's space (docs/product.md section 14). */
export interface StoredImage {
  /** `{sha256 of the stored bytes}.webp`, served at /uploads/{name}. */
  name: string;
  width: number;
  height: number;
  /** An animation (kept only when true). */
  animated?: true;
}

/**
 * Images uploaded for posts (docs/product.md section 14), each stored once by the storage
 * (uploads/storage.ts) under the SHA-256 of the bytes Porpoise made from it. `use_count` is
 * how many posts embed it (upload_uses), kept by the event processor in the transaction of
 * the write that changed it; the orphan sweep deletes images nobody uses 48 hours after
 * their upload, reading the partial index of unused ones, never the used.
 *
 * The uploader is named without a foreign key, as notifications name accounts: accounts are
 * never deleted.
 */
export const uploads = pgTable(
  'uploads',
  {
    name: text('name').primaryKey(),
    ownerId: ref('owner_id').notNull(),
    /** Bytes stored. */
    size: integer('size').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** More than one frame: pages offer to pause it (WCAG 2.2.2) and start it paused under reduced motion. */
    animated: boolean('animated').notNull().default(false),
    /** When it was uploaded; uploading the same image again moves it on (its 48 hours start again). */
    createdAt: at('created_at').notNull().defaultNow(),
    useCount: integer('use_count').notNull().default(0),
  },
  (t) => [
    index('uploads_unused_idx')
      .on(t.createdAt)
      .where(sql`${t.useCount} = 0`),
    check('uploads_use_count_check', sql`${t.useCount} >= 0`),
  ],
);

/**
 * Which posts embed which images: a question's or answer's current text (a deleted post keeps
 * its images, as it can be undeleted). The key to `uploads` keeps a used image from being
 * deleted, whatever the order of a sweep and a write.
 */
export const uploadUses = pgTable(
  'upload_uses',
  {
    postKind: text('post_kind').notNull(),
    postId: ref('post_id').notNull(),
    name: text('name')
      .notNull()
      .references(() => uploads.name),
  },
  (t) => [
    primaryKey({ columns: [t.postKind, t.postId, t.name] }),
    index('upload_uses_name_idx').on(t.name),
    check('upload_uses_post_kind_check', sql`${t.postKind} in ('question', 'answer')`),
  ],
);
