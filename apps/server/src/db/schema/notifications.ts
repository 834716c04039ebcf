import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { questions, tags } from './questions.ts';
import { at, id, ref } from './columns.ts';

/**
 * The inbox (docs/product.md section 11): one row per account told of a post. Written by the
 * event processor in the transaction of the write that caused it (events/notifications.ts).
 * The post it is about is named by its ids (its snippet is read from the post when listed, so
 * an edit shows); `hidden` is true while any of them is deleted or
 * held (kept by the processor when a post is deleted or shown again), and a hidden row is in
 * no list and no unread count. The account's unread count is kept on `accounts`, never
 * counted on a read.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    accountId: ref('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** 'answer', 'comment', 'mention', 'accept' or 'followedAnswer'. */
    kind: text('kind').notNull(),
    // The post and its actor are named without foreign keys: accounts and posts are never
    // deleted (a post's delete is a mark: docs/product.md section 9), and an answer's followers
    // are told in one statement, where three key checks per row cost more than the rows.
    actorId: ref('actor_id').notNull(),
    questionId: ref('question_id'),
    answerId: ref('answer_id'),
    commentId: ref('comment_id'),
    threadId: ref('thread_id'),
    messageId: ref('message_id'),
    createdAt: at('created_at').notNull().defaultNow(),
    readAt: at('read_at'),
    hidden: boolean('hidden').notNull().default(false),
  },
  (t) => [
    // A page of one account's list: a range of this index, newest first.
    index('notifications_account_idx')
      .on(t.accountId, t.id.desc())
      .where(sql`not hidden`),
    // A question's or a message's notifications, hidden or shown again with it.
    index('notifications_question_idx')
      .on(t.questionId)
      .where(sql`question_id is not null`),
    index('notifications_message_idx')
      .on(t.messageId)
      .where(sql`message_id is not null`),
    // The sweep of read notifications older than 180 days.
    index('notifications_read_idx')
      .on(t.createdAt)
      .where(sql`read_at is not null`),
    check('notifications_kind_check', sql`${t.kind} in ('answer', 'comment', 'mention', 'accept', 'followedAnswer')`),
  ],
);

/** Questions an account follows: asking or answering one follows it; a toggle leaves it. */
export const questionFollows = pgTable(
  'question_follows',
  {
    questionId: ref('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    accountId: ref('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.questionId, t.accountId] })],
);

/** Tags an account follows: their questions make its 'My tags' list and its digest. */
export const tagFollows = pgTable(
  'tag_follows',
  {
    accountId: ref('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tagId: ref('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.tagId] })],
);
