import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { at, bytea, heldCheck, id, ref } from './columns.ts';

/**
 * Threads: a direct thread between two accounts (pair_key 'lowId:highId' keeps one per
 * pair), a forum's public discussion, or PorpChat's one public room.
 */
export const threads = pgTable(
  'threads',
  {
    id: id(),
    kind: text('kind').notNull(),
    pairKey: text('pair_key'),
    createdAt: at('created_at').notNull().defaultNow(),
    threadUpdatedDateTime: at('thread_updated_date_time').notNull().defaultNow(),
  },
  (t) => [
    check('threads_kind_check', sql`${t.kind} in ('direct', 'forum', 'porpchat')`),
    check('threads_pair_key_check', sql`(${t.kind} = 'direct') = (${t.pairKey} is not null)`),
    uniqueIndex('threads_pair_key_key').on(t.pairKey),
    uniqueIndex('threads_one_porpchat_key')
      .on(t.kind)
      .where(sql`kind = 'porpchat'`),
    index('threads_updated_idx').on(t.threadUpdatedDateTime.desc()),
  ],
);

export const threadParticipants = pgTable(
  'thread_participants',
  {
    threadId: ref('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    accountId: ref('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.threadId, t.accountId] }), index('thread_participants_account_idx').on(t.accountId)],
);

/** A message; sender_account_id is null only for anonymous PorpChat posts, which keep sender_name. */
export const messages = pgTable(
  'messages',
  {
    id: id(),
    threadId: ref('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    senderAccountId: ref('sender_account_id').references(() => accounts.id),
    senderName: text('sender_name').notNull(),
    messageDateTime: at('message_date_time').notNull().defaultNow(),
    /**
     * Deleted by a moderator from the review queue, or held by three spam or rude flags
     * (held_for 'flags', deleted by nobody): shown only to moderators and its sender's
     * account (docs/product.md section 10). Null while it shows.
     */
    deletedAt: at('deleted_at'),
    deletedBy: ref('deleted_by').references(() => accounts.id),
    heldFor: text('held_for'),
  },
  (t) => [heldCheck('messages', t), index('messages_thread_idx').on(t.threadId, t.id)],
);

export const messageReads = pgTable(
  'message_reads',
  {
    messageId: ref('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    accountId: ref('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.accountId] })],
);

export const messageLikes = pgTable(
  'message_likes',
  {
    messageId: ref('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    accountId: ref('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.accountId] })],
);

export const forums = pgTable(
  'forums',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    threadId: ref('thread_id').references(() => threads.id),
    createdBy: ref('created_by')
      .notNull()
      .references(() => accounts.id),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('forums_name_lower_key').on(sql`lower(${t.name})`),
    index('forums_created_idx').on(t.createdAt.desc()),
    // A discussion page finds its forum by thread.
    uniqueIndex('forums_thread_key').on(t.threadId),
  ],
);

/** Large payloads of @socket.io/postgres-adapter, which crosses events between processes. */
export const socketIoAttachments = pgTable('socket_io_attachments', {
  id: id(),
  createdAt: at('created_at').defaultNow(),
  payload: bytea('payload'),
});
