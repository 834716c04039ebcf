import { ORDERS, type DomainEvent } from '@porpoise/core';
import type { Touched } from '../cache/content-cache.ts';

/**
 * The cached reads each event changes (docs/style.md: a cache is invalidated by the events that
 * change what it holds, not cleared whole). A list page holds rows (counts shown on them)
 * in an order, under a total, for the whole list or one tag:
 * - a new question joins every order and total of the whole list and of its tags, and
 *   changes the tags page's counts (perhaps its tags);
 * - an answer changes its question's page and row, moves it to the top of `active` and,
 *   the first one, takes it out of `unanswered` (its pages and total);
 * - a comment changes its question's page only (lists show no comments);
 * - a vote changes its question's page and row; an answer's vote its question's page;
 * - an accepted answer changes its question's page and row (the row marks it);
 * - an edit changes its question's page; a question's edit its row too (title, tags) and,
 *   when its tags changed, every list of the tags it joined or left and the tags page;
 * - a deleted (or undeleted) question leaves (or rejoins) its page, every order and total
 *   of the whole list and of its tags, and the tags page's counts;
 * - a deleted answer changes its question's page and row (its count) and, when the count
 *   reaches or leaves 0, the unanswered lists; a deleted comment its question's page;
 * - closing or reopening changes the question's page;
 * - a first view changes nothing here: counts are brought up to date in place, at most a
 *   second late (events/view-counter.ts);
 * - messages, threads and forums are not cached.
 */
export function touchedBy(events: readonly DomainEvent[]): Touched {
  const touched: Touched = { questions: [], rows: [], orders: [], tags: false };
  for (const event of events) {
    switch (event.type) {
      case 'questionAsked':
        for (const order of ORDERS) {
          touched.orders.push({ order, tags: event.tags });
        }
        touched.tags = true;
        break;
      case 'answerAdded':
        touched.questions.push(event.questionId);
        touched.rows.push(event.questionId);
        touched.orders.push({ order: 'active', tags: event.tags });
        if (event.firstAnswer) touched.orders.push({ order: 'unanswered', tags: event.tags });
        break;
      case 'commentAdded':
        touched.questions.push(event.questionId);
        break;
      case 'voteChanged':
      case 'answerAccepted':
        touched.questions.push(event.questionId);
        touched.rows.push(event.questionId);
        break;
      case 'answerVoteChanged':
      case 'answerEdited':
        touched.questions.push(event.questionId);
        break;
      case 'questionEdited':
        touched.questions.push(event.questionId);
        touched.rows.push(event.questionId);
        if (event.tagsChanged) {
          for (const order of ORDERS) touched.orders.push({ order, tags: event.tags });
          touched.tags = true;
        }
        break;
      case 'questionDeleted':
        touched.questions.push(event.questionId);
        touched.rows.push(event.questionId);
        for (const order of ORDERS) touched.orders.push({ order, tags: event.tags });
        touched.tags = true;
        break;
      case 'answerDeleted':
        touched.questions.push(event.questionId);
        touched.rows.push(event.questionId);
        if (event.unansweredChanged) touched.orders.push({ order: 'unanswered', tags: event.tags });
        break;
      case 'commentDeleted':
      case 'questionClosed':
      case 'closeVoteCast':
        touched.questions.push(event.questionId);
        break;
      case 'questionViewed':
      case 'messagePosted':
      case 'threadStarted':
      case 'forumCreated':
      case 'roleChanged':
      case 'passwordResetRequested':
      case 'emailChangeRequested':
      case 'emailChanged':
      case 'sessionsEnded':
      case 'messageDeleted':
      case 'reviewChanged':
      case 'unreadNotificationsChanged':
      case 'reputationAdjusted':
        break;
    }
  }
  return touched;
}

export const touchesNothing = (touched: Touched) =>
  touched.questions.length === 0 && touched.rows.length === 0 && touched.orders.length === 0 && !touched.tags;
