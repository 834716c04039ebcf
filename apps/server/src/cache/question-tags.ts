import type { Tag } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { queryPrepared, type Db } from '../db/client.ts';

/** A map kept per database (the tests open many), made on first use. */
export function keptFor<K, V>(maps: WeakMap<Db, Map<K, V>>, db: Db): Map<K, V> {
  let kept = maps.get(db);
  if (!kept) maps.set(db, (kept = new Map<K, V>()));
  return kept;
}

/**
 * A question's tags change only when it is edited (tags are neither renamed nor
 * re-described), so once read they are kept, per database, for the last TAGS_KEPT
 * questions read: a list or search page then costs one query less. An edit that changes
 * them makes every process forget that question's (forgetQuestionTags, from the read
 * cache's invalidation), and a read that was under way then keeps nothing it read.
 */
const TAGS_KEPT = 20_000;
const tagsCache = new WeakMap<Db, Map<number, Tag[]>>();
const tagsForgotten = new WeakMap<Db, number>();

/** Forgets the kept tags of these questions (their tags were edited). */
export function forgetQuestionTags(db: Db, questionIds: readonly number[]): void {
  if (questionIds.length === 0) return;
  tagsForgotten.set(db, (tagsForgotten.get(db) ?? 0) + 1);
  const kept = keptFor(tagsCache, db);
  for (const id of questionIds) kept.delete(id);
}

/** Forgets every question's kept tags (what they were read from may be gone). */
export function forgetEveryQuestionsTags(db: Db): void {
  tagsForgotten.set(db, (tagsForgotten.get(db) ?? 0) + 1);
  tagsCache.delete(db);
}

/** Tags of several questions, keyed by question id: the ones not kept yet in one query. */
export async function tagsOf(db: Db, questionIds: number[]): Promise<Map<number, Tag[]>> {
  const kept = keptFor(tagsCache, db);
  const missing = questionIds.filter((id) => !kept.has(id));
  const epoch = tagsForgotten.get(db) ?? 0;
  if (missing.length > 0) {
    const rows = await queryPrepared<{ questionId: number; name: string; description: string }>(
      db,
      sql`select qt.question_id as "questionId", t.name, t.description
        from question_tags qt join tags t on t.id = qt.tag_id
        where qt.question_id = any(${sql.param(missing)}::bigint[])
        order by t.name`,
    );
    // A question's tags are written in the same transaction as the question: a question
    // this request has read has all of its tags (an empty list is an answer too).
    const read = new Map<number, Tag[]>(missing.map((id) => [id, []]));
    // Rows, not API shapes: the lists' presenter turns them into tags.
    for (const row of rows) read.get(Number(row.questionId))?.push({ name: row.name, description: row.description });
    if ((tagsForgotten.get(db) ?? 0) !== epoch)
      return new Map(questionIds.map((id) => [id, kept.get(id) ?? read.get(id) ?? []]));
    for (const [id, tags] of read) kept.set(id, tags);
    // Oldest first out: a Map iterates in insertion order.
    for (const id of kept.keys()) {
      if (kept.size <= TAGS_KEPT) break;
      kept.delete(id);
    }
  }
  return new Map(questionIds.map((id) => [id, kept.get(id) ?? []]));
}
