import type { DomainEvent } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { queryPrepared, type Db } from '../db/client.ts';

/**
 * Which posts use which uploaded images (docs/product.md section 14), written by the event
 * processor inside the transaction of the write that embedded them (processor.ts `write`):
 * asking, answering and editing. A post's uses are its current text's images; deleting or
 * undeleting a post changes none of them, since a deleted post can always come back. Each
 * image's `use_count` moves in the same statement, so the orphan sweep reads only images
 * that nobody uses (db/schema/uploads.ts).
 */

/** The events whose image uses are written in the write's transaction (processor.ts checks none skips it). */
export const IMAGE_EVENTS = new Set<DomainEvent['type']>([
  'questionAsked',
  'answerAdded',
  'questionEdited',
  'answerEdited',
]);

/** The post an event's text belongs to, and the images it now embeds; null for any other event. */
function postOf(
  event: DomainEvent,
): { kind: 'question' | 'answer'; id: number; images: string[]; edit: boolean } | null {
  switch (event.type) {
    case 'questionAsked':
      return { kind: 'question', id: event.questionId, images: event.images, edit: false };
    case 'questionEdited':
      return { kind: 'question', id: event.questionId, images: event.images, edit: true };
    case 'answerAdded':
      return { kind: 'answer', id: event.answerId, images: event.images, edit: false };
    case 'answerEdited':
      return { kind: 'answer', id: event.answerId, images: event.images, edit: true };
    default:
      return null;
  }
}

/**
 * Brings each written post's uses in line with the images its text now embeds, and the
 * images' counts with them: one statement per post that has or had images (a new post with
 * none costs nothing).
 */
export async function writeImageUses(tx: Db, events: readonly DomainEvent[]): Promise<void> {
  for (const event of events) {
    const post = postOf(event);
    if (post === null || (!post.edit && post.images.length === 0)) continue;
    const names = sql`${sql.param(post.images)}::text[]`;
    await queryPrepared(
      tx,
      sql`with gone as (
          delete from upload_uses where post_kind = ${post.kind} and post_id = ${post.id} and name <> all(${names})
          returning name
        ), added as (
          insert into upload_uses (post_kind, post_id, name)
          select ${post.kind}, ${post.id}, name from unnest(${names}) as wanted(name)
          on conflict do nothing
          returning name
        ), moved as (
          select name, sum(delta)::int as delta from (
            select name, -1 as delta from gone union all select name, 1 from added
          ) changes group by name
        )
        update uploads u set use_count = u.use_count + moved.delta from moved where u.name = moved.name`,
    );
  }
}
