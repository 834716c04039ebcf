import type { Outcome } from '@porpoise/core';
import { MESSAGES } from '@porpoise/core';
import { mentionedUsernames } from '@porpoise/core/markdown';
import { eq, sql } from 'drizzle-orm';
import { inTransaction, queryRows, type Db } from '../db/client.ts';
import { forums, messageReads, messages, threadParticipants, threads } from '../db/schema.ts';
import { uniqueViolation } from '../db/errors.ts';
import { badRequest, conflict } from '../http/http-error.ts';
import type { Actor } from '../policies/actor.ts';
import { accountIdByName } from '../queries/accounts.ts';
import { directPairKey } from '../queries/threads.ts';

/**
 * Starts a direct thread between the actor and a recipient. An unknown recipient, the
 * actor themself, or a pair that already has a thread all fail with the spec's one text.
 */
export async function createDirectThread(
  db: Db,
  actor: Actor,
  recipientName: string,
): Promise<Outcome<{ threadId: number; recipientId: number }>> {
  const recipientId = await accountIdByName(db, recipientName.trim());
  if (recipientId === null || recipientId === actor.id) throw badRequest(MESSAGES.threadFailed);
  const recipient = { id: recipientId };
  const pairKey = directPairKey(actor.id, recipient.id);
  try {
    return await db.transaction(async (tx) => {
      const [thread] = await tx.insert(threads).values({ kind: 'direct', pairKey }).returning({ id: threads.id });
      if (!thread) throw new Error('insert returned no thread');
      await tx.insert(threadParticipants).values([
        { threadId: thread.id, accountId: actor.id },
        { threadId: thread.id, accountId: recipient.id },
      ]);
      return {
        result: { threadId: thread.id, recipientId: recipient.id },
        events: [{ type: 'threadStarted', threadId: thread.id }],
      };
    });
  } catch (error) {
    if (uniqueViolation(error) === 'threads_pair_key_key') throw badRequest(MESSAGES.threadFailed);
    throw error;
  }
}

export interface NewMessage {
  threadId: number;
  /** null for an anonymous PorpChat visitor. */
  senderAccountId: number | null;
  senderName: string;
  content: string;
  /** Whether the sender's read receipt is kept: never in PorpChat, whose messages show no readers. */
  readBySender: boolean;
}

/** Stores a message, counts it read by its sender where receipts are kept, and moves the thread's update time. */
export async function postMessage(db: Db, input: NewMessage): Promise<Outcome<number>> {
  return inTransaction(db, async (tx) => {
    const [message] = await tx
      .insert(messages)
      .values({
        threadId: input.threadId,
        senderAccountId: input.senderAccountId,
        senderName: input.senderName,
        content: input.content,
      })
      .returning({ id: messages.id, at: messages.messageDateTime });
    if (!message) throw new Error('insert returned no message');
    if (input.readBySender && input.senderAccountId !== null)
      await tx.insert(messageReads).values({ messageId: message.id, accountId: input.senderAccountId });
    await tx.update(threads).set({ threadUpdatedDateTime: message.at }).where(eq(threads.id, input.threadId));
    return {
      result: message.id,
      events: [
        {
          type: 'messagePosted',
          threadId: input.threadId,
          messageId: message.id,
          // An anonymous PorpChat visitor mentions nobody (docs/product.md section 11).
          mentions: input.senderAccountId === null ? [] : mentionedUsernames(input.content, 'inline'),
        },
      ],
    };
  });
}

/**
 * Marks a message read by an account; reading twice changes nothing. No event: who read a
 * message is not cached, and shows when the thread is next read.
 */
export async function markRead(db: Db, accountId: number, messageId: number): Promise<void> {
  await db.insert(messageReads).values({ messageId, accountId }).onConflictDoNothing();
}

/**
 * Marks a thread's last message read by an account (opening a thread, docs/product.md section 4).
 * No event, as for markRead.
 */
export async function markLastRead(db: Db, accountId: number, threadId: number): Promise<void> {
  const [last] = await queryRows<{ id: number }>(
    db,
    sql`select id from messages where thread_id = ${threadId} order by id desc limit 1`,
  );
  if (last) await markRead(db, accountId, Number(last.id));
}

/** A forum and its discussion thread, in one transaction; names are unique without regard to case. */
export async function createForum(db: Db, actor: Actor, name: string, description: string) {
  try {
    return await db.transaction(async (tx) => {
      const [thread] = await tx.insert(threads).values({ kind: 'forum' }).returning({ id: threads.id });
      if (!thread) throw new Error('insert returned no thread');
      const [forum] = await tx
        .insert(forums)
        .values({ name, description, threadId: thread.id, createdBy: actor.id })
        .returning();
      if (!forum) throw new Error('insert returned no forum');
      return { result: forum, events: [{ type: 'forumCreated', forumId: forum.id }] } satisfies Outcome<typeof forum>;
    });
  } catch (error) {
    if (uniqueViolation(error) === 'forums_name_lower_key') throw conflict(MESSAGES.forumNameTaken);
    throw error;
  }
}
