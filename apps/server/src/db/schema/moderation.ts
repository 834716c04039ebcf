import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { at, id, ref } from './columns.ts';

/** What can be flagged: a post, or a forum or PorpChat message (docs/product.md section 10). */
const FLAG_TARGET_CHECK = sql`target_type in ('question', 'answer', 'comment', 'message')`;

/**
 * A member's flag on an item: one per member per item, ever (a repeat is refused). Open
 * until a moderator decides on the item (dismissed, deleted); the review queue is the
 * items with open flags, oldest flag first.
 */
export const flags = pgTable(
  'flags',
  {
    id: id(),
    targetType: text('target_type').notNull(),
    targetId: ref('target_id').notNull(),
    flaggedBy: ref('flagged_by')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    note: text('note'),
    createdAt: at('created_at').notNull().defaultNow(),
    /**
     * What it weighs toward hiding the item (docs/product.md sections 10 and 13), decided by
     * the policies when it was made: 'hides' (a moderator's or admin's spam or rude flag: at
     * once), 'counts' (a spam or rude flag from a member with 'Flag to hide': three hide), or
     * 'none' (any other flag: it reaches the review queue only).
     */
    weight: text('weight').notNull().default('counts'),
    /**
     * When the item was decided on, and how: 'dismissed' or 'deleted' by a decision,
     * 'withdrawn' when its member was suspended.
     */
    resolvedAt: at('resolved_at'),
    resolution: text('resolution'),
  },
  (t) => [
    check('flags_target_type_check', FLAG_TARGET_CHECK),
    check('flags_reason_check', sql`${t.reason} in ('spam', 'rude', 'off-topic', 'other')`),
    check(
      'flags_resolution_check',
      sql`${t.resolution} is null or ${t.resolution} in ('dismissed', 'deleted', 'withdrawn')`,
    ),
    check('flags_weight_check', sql`${t.weight} in ('hides', 'counts', 'none')`),
    // A suspended member's open flags, withdrawn.
    index('flags_open_by_member_idx')
      .on(t.flaggedBy)
      .where(sql`resolved_at is null`),
    uniqueIndex('flags_one_per_member_key').on(t.targetType, t.targetId, t.flaggedBy),
    // The queue: open flags, oldest first.
    index('flags_open_idx')
      .on(t.createdAt, t.id)
      .where(sql`resolved_at is null`),
  ],
);

/**
 * Every moderator action (docs/product.md section 10): who, what, on what, when, why. The
 * target is a post, a message or an account; `subject_id` the account it concerned.
 */
export const moderationLog = pgTable(
  'moderation_log',
  {
    id: id(),
    moderatorId: ref('moderator_id')
      .notNull()
      .references(() => accounts.id),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: ref('target_id').notNull(),
    subjectId: ref('subject_id').references(() => accounts.id),
    reason: text('reason'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    check(
      'moderation_log_target_type_check',
      sql`target_type in ('question', 'answer', 'comment', 'message', 'account')`,
    ),
    check(
      'moderation_log_action_check',
      sql`action in ('dismiss', 'approve', 'delete', 'undelete', 'edit', 'close', 'reopen', 'suspend', 'unsuspend', 'role', 'reputation')`,
    ),
    // Newest first is the primary key read backwards; an account's entries by this index.
    index('moderation_log_subject_idx').on(t.subjectId),
  ],
);
