import { DEFAULT_TAG_DESCRIPTION, type Tag } from '@porpoise/core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { questionTags, tags, viewRanks, WHOLE_LIST } from '../db/schema.ts';

/**
 * The named tags, in name order, the ones not there yet created ('user added tag'). New
 * tags are inserted in the order of their names: two writers of the same new tags, listed
 * in different orders, would each wait on a name the other inserted (a deadlock).
 */
export async function ensureTags(tx: Tx, names: readonly string[]): Promise<Array<Tag & { id: number }>> {
  await tx
    .insert(tags)
    .values([...names].sort().map((name) => ({ name, description: DEFAULT_TAG_DESCRIPTION })))
    .onConflictDoNothing();
  return tx
    .select({ id: tags.id, name: tags.name, description: tags.description })
    .from(tags)
    .where(inArray(tags.name, [...names]))
    .orderBy(tags.name);
}

/**
 * Counts a question in the `added` tags and out of the `removed` ones, the tags' rows locked
 * in the order of ids (two writers of the same tags never deadlock); NO KEY UPDATE, as the
 * update itself takes: FOR UPDATE would wait on the key share lock each asker's
 * question_tags rows hold on their tags.
 */
export async function countInTags(tx: Tx, added: readonly number[], removed: readonly number[] = []): Promise<void> {
  const changed = [...removed, ...added];
  if (changed.length === 0) return;
  await tx.execute(sql`
    update tags set question_count = tags.question_count + case when tags.id = any(${sql.param(removed)}::bigint[]) then -1 else 1 end
    from (select id from tags where id = any(${sql.param(changed)}::bigint[]) order by id for no key update) locked
    where tags.id = locked.id`);
}

/**
 * Links tags to a question, each link with the question's own sort keys (schema:
 * question_tags) copied in the database, to the microsecond: a JS Date would cut them to the
 * millisecond, and a tag list's cursor (at the question's exact time) would then hold the
 * question it starts after. Its mostViewed rows (schema: view_ranks) with them: each tag's,
 * and the whole list's when it has none yet (a question being asked).
 */
export async function linkTags(tx: Tx, questionId: number, tagIds: readonly number[]): Promise<void> {
  await tx.execute(sql`
    with question as (
      select id, ask_date_time, last_activity_at, answer_count, view_count, deleted_at is not null as deleted
      from questions where id = ${questionId}
    ), linked as (
      insert into question_tags (question_id, tag_id, ask_date_time, last_activity_at, answer_count, deleted)
      select q.id, t.id, q.ask_date_time, q.last_activity_at, q.answer_count, q.deleted
      from question q, unnest(${sql.param(tagIds)}::bigint[]) as t(id)
    )
    insert into view_ranks (question_id, tag_id, view_count, ask_date_time, deleted)
    select q.id, t.id, q.view_count, q.ask_date_time, q.deleted
    from question q, unnest(array[${WHOLE_LIST}::bigint] || ${sql.param(tagIds)}::bigint[]) as t(id)
    on conflict do nothing`);
}

/** Takes tags off a question: their links and their mostViewed rows. */
export async function unlinkTags(tx: Tx, questionId: number, tagIds: readonly number[]): Promise<void> {
  if (tagIds.length === 0) return;
  await tx
    .delete(questionTags)
    .where(and(eq(questionTags.questionId, questionId), inArray(questionTags.tagId, [...tagIds])));
  await tx.delete(viewRanks).where(and(eq(viewRanks.questionId, questionId), inArray(viewRanks.tagId, [...tagIds])));
}

/** Takes a question out of its tags' lists and the mostViewed order, or puts it back. */
export async function setTagRowsDeleted(tx: Tx, questionId: number, deleted: boolean): Promise<void> {
  await tx.update(questionTags).set({ deleted }).where(eq(questionTags.questionId, questionId));
  await tx.update(viewRanks).set({ deleted }).where(eq(viewRanks.questionId, questionId));
}
