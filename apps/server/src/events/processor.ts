import {
  SOCKET_EVENTS,
  type DomainEvent,
  type HeldFor,
  type Outcome,
  type PostKind,
  type SocketEventName,
} from '@porpoise/core';
import { SOCKET_PAYLOADS, type SocketPayloads } from '@porpoise/core/contract';
import type { z } from '@porpoise/core/schemas';
import type { FastifyInstance } from 'fastify';
import { shaped } from '../http/contract-routes.ts';
import fp from 'fastify-plugin';
import {
  everySignedIn,
  moderating,
  ownSockets,
  readersOf,
  showingQuestion,
  type Audience,
} from '../policies/audience.ts';
import { presentReviewItem } from '../presenters/moderation.ts';
import { countReviewQueue, getReviewItem } from '../queries/moderation.ts';
import {
  presentAnswer,
  presentClosed,
  presentComment,
  presentQuestionEdit,
  presentSummary,
} from '../presenters/question.ts';
import { presentForum, presentMessage, presentThread, threadIdOf } from '../presenters/thread.ts';
import { getAnswerRow } from '../queries/answers.ts';
import { getAnswerComments, getCommentRow } from '../queries/comments.ts';
import { getQuestionSummary } from '../queries/question-lists.ts';
import { getClosing, getQuestionDetail } from '../queries/question-page.ts';
import { getViewCounts } from '../queries/views.ts';
import { getAnswerVoters, getVoters } from '../queries/votes.ts';
import { findThread, getForumRow, getMessage, threadWithLastMessage } from '../queries/threads.ts';
import { mailFor } from './account-mail.ts';
import { touchedBy, touchesNothing } from './invalidation.ts';
import { ViewCounter } from './view-counter.ts';
import { NOTIFYING_EVENTS, syncNotificationVisibility, writeNotifications, type Written } from './notifications.ts';
import { presentNotifications } from '../presenters/notification.ts';
import { LEDGER_EVENTS, writeReputation } from './reputation.ts';
import { IMAGE_EVENTS, writeImageUses } from './image-uses.ts';
import { retryDeadlocked } from '../db/errors.ts';
import type { Db } from '../db/client.ts';

/** A hidden item's reason, as the payloads carry it: absent unless held. */
const heldMark = (event: { held: HeldFor | null }) => (event.held === null ? {} : { held: event.held });

/** A post deleted, held or shown again, as deleteUpdate says it: no content. */
const deletePayload = (
  post: PostKind,
  id: number,
  event: { questionId: number; deleted: boolean; held: HeldFor | null },
): SocketPayloads['deleteUpdate'] => ({
  qid: String(event.questionId),
  post,
  id: String(id),
  deleted: event.deleted,
  ...heldMark(event),
});

/** An event as it goes out: to whom, its name and its payload (of the contract's shape for that name). */
type Delivery = {
  [E in SocketEventName]: { audience: Audience; event: E; payload: SocketPayloads[E] };
}[SocketEventName];

/**
 * The one place that acts on what writes did (docs/style.md, "The write path"). A route runs
 * its command through `settle`, which hands the command's events to `apply`, which
 * 1. drops the cached reads they changed, here and on every other process, before the
 *    write is answered (events/invalidation.ts decides which);
 * 2. asks the policies who hears each event, presents its payload and emits it;
 * 3. counts first views, whose counts and viewsUpdate go out at most once a second.
 * Routes neither clear caches nor emit (a lint rule keeps `app.realtime` to this file).
 * 4. ends sessions a password change ended, and hands mail to the mailer (events/account-mail.ts).
 * 5. writes notifications and follows (events/notifications.ts) inside the transaction of the
 *    write that caused them (`write`), tells their recipients after it commits, and hides or
 *    shows them again with the posts they are about.
 * 6. writes the reputation ledger (events/reputation.ts) inside the transaction of the vote,
 *    accept, delete, undelete, hide or adjustment that moved it (`write`).
 * 7. keeps which posts use which uploaded images (events/image-uses.ts) inside the
 *    transaction of the ask, answer or edit that embedded them (`write`).
 */
export interface EventProcessor {
  apply(events: readonly DomainEvent[], notified?: readonly Written[]): Promise<void>;
  /**
   * A command's outcome, its events applied: what a route does with every write
   * (`const id = await app.events.settle(addQuestion(...))`). Resolves with the result
   * once the changed cached reads are gone, here and on the other processes.
   */
  settle<T>(outcome: Promise<Outcome<T>>): Promise<T>;
  /**
   * settle for the writes that notify (asking, answering, commenting, accepting, posting a
   * message) or move reputation (voting, accepting, deleting or hiding a post, adjusting):
   * runs the command in a transaction, writes the notifications and ledger rows its events
   * cause in the same one, and settles it once committed
   * (`await app.events.write((tx) => addAnswer(tx, ...))`).
   */
  write<T>(command: (tx: Db) => Promise<Outcome<T>>): Promise<T>;
  /** Counts the first views gathered so far now, rather than at the next tick (tests, shutdown). */
  flushViews(): Promise<void>;
}

export const eventsPlugin = fp(
  async (app: FastifyInstance) => {
    // Each payload is checked against the contract's schema for its event before it goes out.
    const emit = ({ audience, event, payload }: Delivery) =>
      app.realtime.emit(audience, event, shaped(SOCKET_PAYLOADS[event] as z.ZodType<typeof payload>, payload));

    /** A question's list row as the lists show it; null when there is none, or it is deleted. */
    const summaryOf = async (questionId: number) => {
      const row = await getQuestionSummary(app.db, questionId);
      return row && presentSummary(row);
    };

    /** A question's edited fields as the public sees them; null when there is none, or it is deleted. */
    const editOf = async (questionId: number) => {
      const detail = await getQuestionDetail(app.db, questionId);
      return detail && detail.question.deletedAt === null ? presentQuestionEdit(detail) : null;
    };

    /** What each event says to whom, read from the database after the write committed. */
    async function deliveries(event: DomainEvent): Promise<Delivery[]> {
      switch (event.type) {
        case 'questionAsked': {
          const summary = await summaryOf(event.questionId);
          return summary ? [{ audience: everySignedIn, event: SOCKET_EVENTS.questionUpdate, payload: summary }] : [];
        }
        case 'answerAdded': {
          const row = await getAnswerRow(app.db, event.answerId);
          if (!row) return [];
          const payload = { qid: String(event.questionId), answer: presentAnswer(row, []) };
          return [{ audience: showingQuestion(event.questionId), event: SOCKET_EVENTS.answerUpdate, payload }];
        }
        case 'commentAdded': {
          const row = await getCommentRow(app.db, event.commentId);
          if (!row) return [];
          const result = {
            qid: String(event.questionId),
            parentId: String(event.parentId),
            comment: presentComment(row),
          };
          const payload = { result, type: event.target };
          return [{ audience: showingQuestion(event.questionId), event: SOCKET_EVENTS.commentUpdate, payload }];
        }
        case 'voteChanged': {
          const payload = { qid: String(event.questionId), ...(await getVoters(app.db, event.questionId)) };
          return [{ audience: showingQuestion(event.questionId), event: SOCKET_EVENTS.voteUpdate, payload }];
        }
        case 'answerVoteChanged': {
          const voters = await getAnswerVoters(app.db, event.answerId);
          const payload = { qid: String(event.questionId), aid: String(event.answerId), ...voters };
          return [{ audience: showingQuestion(event.questionId), event: SOCKET_EVENTS.answerVoteUpdate, payload }];
        }
        case 'answerAccepted': {
          const acceptedAnswer = event.acceptedAnswerId === null ? null : String(event.acceptedAnswerId);
          const payload = { qid: String(event.questionId), acceptedAnswer };
          return [{ audience: showingQuestion(event.questionId), event: SOCKET_EVENTS.acceptUpdate, payload }];
        }
        case 'questionEdited': {
          const [summary, detail] = await Promise.all([summaryOf(event.questionId), editOf(event.questionId)]);
          if (!summary || !detail) return [];
          const audience = showingQuestion(event.questionId);
          return [
            { audience, event: SOCKET_EVENTS.questionUpdate, payload: summary },
            { audience, event: SOCKET_EVENTS.questionEditUpdate, payload: detail },
          ];
        }
        case 'answerEdited': {
          const row = await getAnswerRow(app.db, event.answerId);
          if (!row) return [];
          const payload = { qid: String(event.questionId), answer: presentAnswer(row, []) };
          return [{ audience: showingQuestion(event.questionId), event: SOCKET_EVENTS.answerUpdate, payload }];
        }
        case 'questionDeleted': {
          const payload = deletePayload('question', event.questionId, event);
          const out: Delivery[] = [
            { audience: showingQuestion(event.questionId), event: SOCKET_EVENTS.deleteUpdate, payload },
          ];
          // Undeleted, it may join any list, as a new question does.
          const summary = event.deleted ? null : await summaryOf(event.questionId);
          if (summary) out.push({ audience: everySignedIn, event: SOCKET_EVENTS.questionUpdate, payload: summary });
          return out;
        }
        case 'answerDeleted': {
          const qid = String(event.questionId);
          const audience = showingQuestion(event.questionId);
          const payload = deletePayload('answer', event.answerId, event);
          const out: Delivery[] = [{ audience, event: SOCKET_EVENTS.deleteUpdate, payload }];
          // The answer comes back to every page showing its question, now that it shows again.
          const row = event.deleted ? null : await getAnswerRow(app.db, event.answerId);
          if (row) {
            const comments = (await getAnswerComments(app.db, event.answerId)).map(presentComment);
            out.push({
              audience,
              event: SOCKET_EVENTS.answerUpdate,
              payload: { qid, answer: presentAnswer(row, comments) },
            });
          }
          const summary = await summaryOf(event.questionId);
          if (summary) out.push({ audience, event: SOCKET_EVENTS.questionUpdate, payload: summary });
          return out;
        }
        case 'commentDeleted': {
          const qid = String(event.questionId);
          const audience = showingQuestion(event.questionId);
          const payload = deletePayload('comment', event.commentId, event);
          const out: Delivery[] = [{ audience, event: SOCKET_EVENTS.deleteUpdate, payload }];
          const row = event.deleted ? null : await getCommentRow(app.db, event.commentId);
          if (row) {
            const result = { qid, parentId: String(row.parentId), comment: presentComment(row) };
            out.push({ audience, event: SOCKET_EVENTS.commentUpdate, payload: { result, type: row.target } });
          }
          return out;
        }
        case 'questionClosed': {
          const closing = await getClosing(app.db, event.questionId);
          if (closing === undefined) return [];
          const payload = { qid: String(event.questionId), closed: presentClosed(closing.closed) };
          return [{ audience: showingQuestion(event.questionId), event: SOCKET_EVENTS.closeUpdate, payload }];
        }
        case 'closeVoteCast': {
          const closing = await getClosing(app.db, event.questionId);
          if (closing === undefined) return [];
          const payload = {
            qid: String(event.questionId),
            closed: presentClosed(closing.closed),
            closeVotes: closing.closeVotes,
          };
          return [{ audience: showingQuestion(event.questionId), event: SOCKET_EVENTS.closeVoteUpdate, payload }];
        }
        case 'messagePosted': {
          const message = await getMessage(app.db, event.messageId);
          const thread = message ? await findThread(app.db, String(message.threadId)) : null;
          if (!message || !thread) return [];
          const audience = readersOf(thread);
          const payload = { result: { tid: threadIdOf(thread), message: presentMessage(message, thread) } };
          const out: Delivery[] = [{ audience, event: SOCKET_EVENTS.messageUpdate, payload }];
          // A direct thread's row moves to the top of both participants' thread lists.
          if (thread.kind === 'direct') {
            const { last } = await threadWithLastMessage(app.db, thread.id);
            out.push({
              audience,
              event: SOCKET_EVENTS.threadUpdate,
              payload: presentThread(thread, last ? [last] : []),
            });
          }
          return out;
        }
        case 'threadStarted': {
          const { thread, last } = await threadWithLastMessage(app.db, event.threadId);
          const payload = presentThread(thread, last ? [last] : []);
          return [{ audience: readersOf(thread), event: SOCKET_EVENTS.threadUpdate, payload }];
        }
        case 'forumCreated': {
          const row = await getForumRow(app.db, event.forumId);
          return row ? [{ audience: everySignedIn, event: SOCKET_EVENTS.forumUpdate, payload: presentForum(row) }] : [];
        }
        case 'messageDeleted': {
          const thread = await findThread(app.db, String(event.threadId));
          if (!thread) return [];
          const audience = readersOf(thread);
          const tid = threadIdOf(thread);
          const payload = { tid, id: String(event.messageId), deleted: event.deleted, ...heldMark(event) };
          const out: Delivery[] = [{ audience, event: SOCKET_EVENTS.messageDeleteUpdate, payload }];
          // Shown again: it comes back to every reader, in its place.
          const message = event.deleted ? null : await getMessage(app.db, event.messageId);
          if (message) {
            const result = { tid, message: presentMessage(message, thread) };
            out.push({ audience, event: SOCKET_EVENTS.messageUpdate, payload: { result } });
          }
          return out;
        }
        case 'reviewChanged': {
          const target = { targetType: event.targetType, targetId: event.targetId };
          const [item, open] = await Promise.all([getReviewItem(app.db, target), countReviewQueue(app.db)]);
          const payload = {
            targetType: event.targetType,
            targetId: String(event.targetId),
            item: item === null ? null : presentReviewItem(item),
            open,
          };
          return [{ audience: moderating, event: SOCKET_EVENTS.reviewUpdate, payload }];
        }
        case 'unreadNotificationsChanged': {
          const payload = { count: event.count };
          return [{ audience: ownSockets(event.accountId), event: SOCKET_EVENTS.notificationCount, payload }];
        }
        case 'reputationAdjusted':
        case 'questionViewed':
        case 'roleChanged':
        case 'passwordResetRequested':
        case 'emailChangeRequested':
        case 'emailChanged':
        case 'sessionsEnded':
          return [];
      }
    }

    const views = new ViewCounter(
      {
        read: (questionIds, withViewers) => getViewCounts(app.db, questionIds, withViewers),
        cache: app.contentCache,
        announce: (counts) =>
          app.realtime.emitEach(
            SOCKET_EVENTS.viewsUpdate,
            [...counts].map(([questionId, { recent, viewCount }]) => ({
              audience: showingQuestion(questionId),
              payload: shaped(SOCKET_PAYLOADS.viewsUpdate, { qid: String(questionId), views: recent ?? [], viewCount }),
            })),
          ),
        onError: (error) => app.log.warn({ err: error }, 'could not bring view counts up to date'),
      },
      app.config.viewCountMs,
    );
    app.addHook('onClose', async () => views.stop());

    /** New notifications to their recipients' own sockets, as the inbox lists them (presented as written). */
    function deliverNotifications(notified: readonly Written[]) {
      const shown = notified.filter((row) => !row.hidden);
      if (shown.length === 0) return;
      // One message to the other processes however many followers an answer tells; an
      // account told twice by one write (two of its events) gets two frames, one notification
      // each, so each emitEach names an account at most once.
      const presented = presentNotifications(shown);
      const rounds: Array<Array<{ audience: Audience; payload: unknown }>> = [];
      const seen = new Map<number, number>();
      shown.forEach((row, index) => {
        const round = seen.get(row.accountId) ?? 0;
        seen.set(row.accountId, round + 1);
        (rounds[round] ??= []).push({
          audience: ownSockets(row.accountId),
          payload: shaped(SOCKET_PAYLOADS.notificationUpdate, presented[index]!),
        });
      });
      for (const round of rounds) app.realtime.emitEach(SOCKET_EVENTS.notificationUpdate, round);
    }

    const processor: EventProcessor = {
      async apply(events, notified = []) {
        // First, with no read: an inbox is no cached page, and its bell is waited on.
        deliverNotifications(notified);
        const touched = touchedBy(events);
        if (!touchesNothing(touched)) await app.contentCache.invalidate(touched);
        for (const event of events) {
          // A post deleted, held or shown again: its notifications leave or rejoin the inboxes,
          // and the counts that moved reach their accounts' bells.
          for (const moved of await syncNotificationVisibility(app.db, event)) {
            for (const delivery of await deliveries(moved)) emit(delivery);
          }
          if (event.type === 'questionViewed') views.add(event.questionId);
          // Every process reads the account's role again at its next request (auth/sessions.ts remembers 30 s).
          if (event.type === 'roleChanged') {
            await app.sessions.forgetRemembered();
            app.realtime.seatRole(event.accountId, event.role);
          }
          // Sessions ended by a sign-in or sign-out, a password set or changed, an email moved
          // back or a suspension: forgotten by every process, their sockets closed.
          if (event.type === 'sessionsEnded') {
            await app.sessions.forget(event.tokenHashes);
            for (const tokenHash of event.tokenHashes) app.realtime.endSession(tokenHash);
          }
          // Mail leaves in the background, after the write committed (mail/mailer.ts retries it).
          const mail = mailFor(event, app.config.linkBase);
          if (mail !== null) app.mailer.send(mail);
          for (const delivery of await deliveries(event)) emit(delivery);
        }
      },
      async settle(outcome) {
        const { result, events } = await outcome;
        // A write that notifies, moves reputation or embeds images goes through `write`, or its
        // notifications, ledger rows or image uses would be lost.
        const skipped = events.find(
          (event) => NOTIFYING_EVENTS.has(event.type) || LEDGER_EVENTS.has(event.type) || IMAGE_EVENTS.has(event.type),
        );
        if (skipped) throw new Error(`a '${skipped.type}' write must go through app.events.write`);
        await processor.apply(events);
        return result;
      },
      async write(command) {
        const run = () =>
          app.db.transaction(async (tx) => {
            const outcome = await command(tx);
            const notified = await writeNotifications(tx, outcome.events);
            await writeReputation(tx, outcome.events);
            await writeImageUses(tx, outcome.events);
            return { ...outcome, notified };
          });
        // PostgreSQL breaks a deadlock by rolling one transaction back, all of it: a write's
        // rows may lock several accounts (a vote's author and voter, an accept's two, a
        // delete's many), so two writes can meet in opposite orders. It runs again, as new.
        const { result, events, notified } = await retryDeadlocked(run);
        await processor.apply(events, notified);
        return result;
      },
      flushViews: () => views.flush(),
    };
    app.decorate('events', processor);
  },
  { name: 'events', dependencies: ['read-cache', 'realtime', 'database'] },
);
