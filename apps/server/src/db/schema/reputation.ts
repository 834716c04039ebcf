import { REPUTATION_REASONS } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { at, id, ref } from './columns.ts';

/**
 * The reputation ledger (docs/product.md section 13): one row per event that moved an
 * account's reputation, written by the event processor in the transaction of the vote,
 * accept, delete, undelete, hide or adjustment that caused it (events/reputation.ts). An undo
 * (a vote taken back, an accept moved) deletes the row it gave; a post deleted or hidden
 * hides the rows about it (`hidden`, kept with the post: out of the history and the sum)
 * until it shows again. The account's sum of shown deltas is kept on `accounts`, never
 * summed on a read.
 *
 * The post and the actor are named without foreign keys, as notifications name them:
 * accounts and posts are never deleted (a delete is a mark).
 */
export const reputationEvents = pgTable(
  'reputation_events',
  {
    id: id(),
    /** Whose reputation moved. */
    accountId: ref('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    reason: text('reason').notNull(),
    questionId: ref('question_id'),
    /** The answer voted on or accepted; null for a question's events and adjustments. */
    answerId: ref('answer_id'),
    /** Who caused it: the voter, the asker who accepted, the admin who adjusted. */
    actorId: ref('actor_id'),
    /** An adjustment's reason, as the admin wrote it. */
    note: text('note'),
    createdAt: at('created_at').notNull().defaultNow(),
    hidden: boolean('hidden').notNull().default(false),
  },
  (t) => [
    // A page of an account's history, newest first: a range of this index.
    index('reputation_events_account_idx')
      .on(t.accountId, t.id.desc())
      .where(sql`not hidden`),
    // A question's rows (its answers' too): a vote's own row, an accept's, a delete's.
    index('reputation_events_question_idx')
      .on(t.questionId, t.actorId)
      .where(sql`question_id is not null`),
    // The daily cap on upvotes: what an account earned by them since midnight UTC.
    index('reputation_events_upvotes_idx')
      .on(t.accountId, t.createdAt)
      .where(sql`reason in ('questionUpvoted', 'answerUpvoted')`),
    check(
      'reputation_events_reason_check',
      sql`${t.reason} in (${sql.raw(REPUTATION_REASONS.map((reason) => `'${reason}'`).join(', '))})`,
    ),
    // No negative rows for an undo: an undo deletes the row it gave. Adjustments may be either sign.
    check('reputation_events_delta_check', sql`${t.reason} = 'adjustment' or ${t.delta} between -2 and 15`),
  ],
);

/**
 * Privileges' reputation thresholds (docs/product.md section 13), as admins set them: one
 * row per privilege whose threshold differs from its default.
 */
export const privilegeThresholds = pgTable(
  'privilege_thresholds',
  {
    key: text('key').primaryKey(),
    threshold: integer('threshold').notNull(),
  },
  (t) => [
    check('privilege_thresholds_key_check', sql`${t.key} in ('flagToHide', 'editAny', 'closeVote')`),
    check('privilege_thresholds_threshold_check', sql`${t.threshold} between 1 and 1000000`),
  ],
);
