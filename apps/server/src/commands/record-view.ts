import type { Outcome } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { queryPrepared, type Db } from '../db/client.ts';
import { Batches } from '../db/batches.ts';
import { retryDeadlocked } from '../db/errors.ts';
import type { Actor } from '../policies/actor.ts';

interface View {
  questionId: number;
  accountId: number;
}

/** Views per statement: a batch larger than this waits for the next. */
const VIEWS_PER_BATCH = 500;

/**
 * Writes a batch of views in one statement and one commit: each (question, viewer) at most
 * once, and each question's count (and its rank rows' copy of it) moved by its new ones. Answers,
 * per view, whether it was a first view. A deadlock (two processes' batches locking the same
 * questions in different orders) rolls the batch back whole, and it runs again.
 */
async function writeViews(db: Db, batch: View[]): Promise<boolean[]> {
  const unique = [...new Map(batch.map((view) => [`${view.questionId}:${view.accountId}`, view])).values()];
  const statement = sql`
    with incoming as (
      select i.question_id, i.account_id
      from unnest(${sql.param(unique.map((view) => view.questionId))}::bigint[],
                  ${sql.param(unique.map((view) => view.accountId))}::bigint[]) as i(question_id, account_id)
      join questions q on q.id = i.question_id
    ), inserted as (
      insert into views (question_id, account_id) select question_id, account_id from incoming
      on conflict do nothing
      returning question_id, account_id
    ), counted as (
      update questions q set view_count = q.view_count + n.views
      from (select question_id, count(*)::int as views from inserted group by question_id) n
      where q.id = n.question_id
      returning q.id, q.view_count
    ), ranked as (
      -- The mostViewed order's copy of the count (schema: view_ranks).
      update view_ranks r set view_count = c.view_count from counted c where r.question_id = c.id
    )
    select question_id as "questionId", account_id as "accountId" from inserted`;
  const rows = await retryDeadlocked(() => queryPrepared<View>(db, statement));
  const first = new Set(rows.map((row) => `${row.questionId}:${row.accountId}`));
  // A view named twice in one batch is a first view once.
  return batch.map((view) => first.delete(`${view.questionId}:${view.accountId}`));
}

const batchesByDb = new WeakMap<Db, Batches<View, boolean>>();

/**
 * Records the actor's view of a question (once per member, docs/product.md section 3). Views
 * are counters, not content: many requests' views share one statement and its commit
 * (the batch in flight when a view arrives is followed at once by the next), and the view
 * is stored before this resolves. A first view is an event; a repeat is none.
 */
export async function recordView(db: Db, actor: Actor, questionId: number): Promise<Outcome<boolean>> {
  let batches = batchesByDb.get(db);
  if (!batches) batchesByDb.set(db, (batches = new Batches((batch) => writeViews(db, batch), VIEWS_PER_BATCH)));
  const first = await batches.add({ questionId, accountId: actor.id });
  return { result: first, events: first ? [{ type: 'questionViewed', questionId }] : [] };
}
