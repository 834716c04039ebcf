/**
 * Flags, the review queue's decisions and suspensions (docs/product.md section 10). Every
 * moderator action is written to the moderation log in the transaction that makes it.
 */
import {
  FLAGS_TO_HIDE,
  MESSAGES,
  type DomainEvent,
  type FlagReason,
  type FlagTarget,
  type Outcome,
  type Role,
} from '@porpoise/core';
import { eq, sql } from 'drizzle-orm';
import { inTransaction, queryPrepared, type Db, type Tx } from '../db/client.ts';
import { flagsMayHide, flagWeight } from '../policies/authorize.ts';
import { getStanding } from '../queries/privileges.ts';
import { accounts, answers, comments, flags, messages, questions } from '../db/schema.ts';
import { conflict, badRequest, notFound, postNotFound } from '../http/http-error.ts';
import type { Actor } from '../policies/actor.ts';
import { endSessions, useUpLinks } from './account-security.ts';
import { closeFlags, recordModeration, type FlagTargetRef } from './moderation-log.ts';
import {
  deletedBy,
  heldFor,
  removeAnswer,
  removeComment,
  removeMessage,
  removeQuestion,
  shown,
  type Removal,
} from './delete-post.ts';

/** An item's author (null: an anonymous PorpChat message), their role, and its state, read as it stands. */
interface ItemState {
  authorId: number | null;
  authorRole: Role | null;
  deleted: boolean;
  heldFor: string | null;
}

/**
 * An item's state, its rows locked as deleting locks them: a post's question first (every
 * flag and decision on a question's posts takes turns), a message's own row.
 */
async function lockedItem(tx: Tx, { targetType, targetId }: FlagTargetRef): Promise<ItemState> {
  const question = (id: unknown) => sql`select 1 from questions where id = ${id} for no key update`;
  let row: { authorId: number | null; deletedAt: Date | null; heldFor: string | null } | undefined;
  switch (targetType) {
    case 'question':
      await tx.execute(question(targetId));
      [row] = await tx
        .select({ authorId: questions.askedBy, deletedAt: questions.deletedAt, heldFor: questions.heldFor })
        .from(questions)
        .where(eq(questions.id, targetId));
      break;
    case 'answer':
      await tx.execute(question(sql`(select question_id from answers where id = ${targetId})`));
      [row] = await tx
        .select({ authorId: answers.ansBy, deletedAt: answers.deletedAt, heldFor: answers.heldFor })
        .from(answers)
        .where(eq(answers.id, targetId));
      break;
    case 'comment':
      await tx.execute(
        question(sql`(select coalesce(c.question_id, an.question_id) from comments c
          left join answers an on an.id = c.answer_id where c.id = ${targetId})`),
      );
      [row] = await tx
        .select({ authorId: comments.commentBy, deletedAt: comments.deletedAt, heldFor: comments.heldFor })
        .from(comments)
        .where(eq(comments.id, targetId));
      break;
    case 'message':
      [row] = await tx
        .select({ authorId: messages.senderAccountId, deletedAt: messages.deletedAt, heldFor: messages.heldFor })
        .from(messages)
        .where(eq(messages.id, targetId))
        .for('update');
      break;
  }
  if (!row) throw postNotFound(targetType);
  const authorId = row.authorId === null ? null : Number(row.authorId);
  const [author] =
    authorId === null ? [] : await tx.select({ role: accounts.role }).from(accounts).where(eq(accounts.id, authorId));
  return {
    authorId,
    authorRole: (author?.role as Role | undefined) ?? null,
    deleted: row.deletedAt !== null,
    heldFor: row.heldFor,
  };
}

/**
 * Whether an item's open flags hide it: a flag that hides at once, or FLAGS_TO_HIDE that
 * count (docs/product.md sections 10 and 13). The caller has locked the item.
 */
async function flagsHide(tx: Tx, { targetType, targetId }: FlagTargetRef): Promise<boolean> {
  const [row] = await queryPrepared<{ hides: boolean }>(
    tx,
    sql`select count(*) filter (where weight = 'hides') > 0 or count(*) filter (where weight = 'counts') >= ${FLAGS_TO_HIDE}
        as hides
      from flags where target_type = ${targetType} and target_id = ${targetId} and resolved_at is null`,
  );
  return row?.hides === true;
}

/** Hides, deletes or shows again any flaggable item, in the transaction: its events. */
async function removeItem(tx: Tx, { targetType, targetId }: FlagTargetRef, removal: Removal) {
  switch (targetType) {
    case 'question':
      // A moderator's decision: a question goes even with answers.
      return removeQuestion(tx, targetId, removal, true);
    case 'answer':
      return (await removeAnswer(tx, targetId, removal)).events;
    case 'comment':
      return (await removeComment(tx, targetId, removal)).events;
    case 'message':
      return removeMessage(tx, targetId, removal);
  }
}

const reviewChanged = (target: FlagTargetRef): DomainEvent => ({ type: 'reviewChanged', ...target });

/**
 * A member's flag on an item that shows (the caller has checked the member may flag it):
 * one per member per item ('You already flagged this'). It reaches the review queue whoever
 * sends it; it hides the item, until a moderator decides, when the open flags hide it
 * (flagsHide, weighed by the policies' flagWeight), unless a moderator or admin wrote it.
 */
export async function flagItem(
  db: Db,
  actor: Actor,
  target: FlagTargetRef,
  flag: { reason: FlagReason; note: string | null },
): Promise<Outcome<{ hidden: boolean }>> {
  return inTransaction(db, async (tx) => {
    const item = await lockedItem(tx, target);
    if (item.deleted) throw postNotFound(target.targetType);
    const weight = flagWeight(actor, flag.reason, await getStanding(tx, actor.id));
    const inserted = await tx
      .insert(flags)
      .values({ ...target, flaggedBy: actor.id, reason: flag.reason, note: flag.note, weight })
      .onConflictDoNothing()
      .returning({ id: flags.id });
    if (inserted.length === 0) throw conflict(MESSAGES.alreadyFlagged);
    const hidden = flagsMayHide(item.authorRole) && (await flagsHide(tx, target));
    const events = hidden ? await removeItem(tx, target, heldFor('flags')) : [];
    return { result: { hidden }, events: [...events, reviewChanged(target)] };
  });
}

/**
 * A moderator's decision on an item of the review queue: 'dismiss' closes its flags and
 * shows it again if it was held (a post waiting for approval is approved); 'delete'
 * closes its flags and deletes it. 409 when the item no longer waits (another moderator
 * decided first). Logged as dismiss, approve or delete.
 */
export async function decideReview(
  db: Db,
  actor: Actor,
  target: FlagTargetRef,
  decision: 'dismiss' | 'delete',
): Promise<Outcome<null>> {
  return inTransaction(db, async (tx) => {
    const item = await lockedItem(tx, target);
    const closed = await closeFlags(tx, target, decision === 'dismiss' ? 'dismissed' : 'deleted');
    if (closed === null && item.heldFor === null) throw conflict(MESSAGES.notInQueue);
    const removal = decision === 'delete' ? deletedBy(actor, true, true) : item.heldFor === null ? null : shown;
    const events = removal === null ? [] : await removeItem(tx, target, removal);
    const action = decision === 'delete' ? 'delete' : item.heldFor === 'approval' ? 'approve' : 'dismiss';
    await recordModeration(tx, actor, { action, ...target, subjectId: item.authorId, reason: closed });
    return { result: null, events: [...events, reviewChanged(target)] };
  });
}

/**
 * Suspends a member (docs/product.md section 10) for `days` or (null) for good, with a reason:
 * every session ends and every socket closes, every mailed link is used up, and signing
 * in is refused with the reason until then. Posts stay. Moderators and admins are not
 * suspended (an admin takes the role away first).
 */
export async function suspendMember(
  db: Db,
  actor: Actor,
  input: { username?: string; targetType?: FlagTarget; targetId?: string; reason: string; days: number | null },
): Promise<Outcome<{ username: string | null; suspendedUntil: Date | null }>> {
  return inTransaction(db, async (tx) => {
    // Given an item, its author is looked up here and never named back (a PorpChat message's
    // account stays unknown to the moderator, docs/product.md section 10).
    const item: FlagTargetRef | null =
      input.targetType !== undefined && input.targetId !== undefined
        ? { targetType: input.targetType, targetId: Number(input.targetId) }
        : null;
    const authorId = item === null ? null : (await lockedItem(tx, item)).authorId;
    if (item !== null && authorId === null) throw badRequest(MESSAGES.noAccountToSuspend);
    const [target] = await tx
      .select({ id: accounts.id, username: accounts.username, role: accounts.role })
      .from(accounts)
      .where(
        authorId !== null
          ? eq(accounts.id, authorId)
          : sql`lower(${accounts.username}) = lower(${input.username ?? ''})`,
      )
      .for('update');
    if (!target) throw notFound(MESSAGES.userNotFound);
    if (target.role !== 'member') throw badRequest(MESSAGES.onlyMembersSuspended);
    const until =
      input.days === null ? sql`'infinity'::timestamptz` : sql`now() + make_interval(days => ${input.days})`;
    const [row] = await tx
      .update(accounts)
      .set({ suspendedUntil: until, suspensionReason: input.reason })
      .where(eq(accounts.id, target.id))
      .returning({
        forGood: sql<boolean>`suspended_until = 'infinity'`,
        ms: sql<number>`(extract(epoch from suspended_until) * 1000)::float8`,
      });
    await useUpLinks(tx, target.id);
    const ended = await endSessions(tx, target.id);
    const withdrawn = await withdrawFlags(tx, target.id);
    await recordModeration(tx, actor, {
      action: 'suspend',
      ...(item ?? { targetType: 'account', targetId: target.id }),
      subjectId: target.id,
      reason: input.days === null ? `${input.reason} (for good)` : `${input.reason} (${input.days} days)`,
    });
    const suspendedUntil = row?.forGood ? null : new Date(Number(row?.ms));
    return {
      result: { username: item === null ? target.username : null, suspendedUntil },
      events: [ended, ...withdrawn],
    };
  });
}

/**
 * A suspended member's open flags are withdrawn (docs/product.md section 10): each item they
 * flagged leaves the queue if no other flag keeps it there, and an item hidden by flags shows
 * again when those left no longer hide it. Items are locked one after another in a fixed order.
 */
async function withdrawFlags(tx: Tx, accountId: number): Promise<DomainEvent[]> {
  const targets = await queryPrepared<{ targetType: FlagTarget; targetId: number }>(
    tx,
    sql`update flags set resolved_at = now(), resolution = 'withdrawn'
      where flagged_by = ${accountId} and resolved_at is null
      returning target_type as "targetType", target_id as "targetId"`,
  );
  targets.sort((a, b) => a.targetType.localeCompare(b.targetType) || Number(a.targetId) - Number(b.targetId));
  const events: DomainEvent[] = [];
  for (const { targetType, targetId } of targets) {
    const target = { targetType, targetId: Number(targetId) };
    const item = await lockedItem(tx, target);
    if (item.heldFor === 'flags' && !(await flagsHide(tx, target))) {
      events.push(...(await removeItem(tx, target, shown)));
    }
    events.push(reviewChanged(target));
  }
  return events;
}
