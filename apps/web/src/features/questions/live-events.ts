import { parseSearch, type QuestionSummary } from '@porpoise/core';
import type { SocketPayloads } from '@porpoise/core/contract';
import type { HomeQuery } from './home-query';

/** Payloads of the question events (spec section 7, docs/product.md section 3), as the contract states them. */
export type AnswerUpdate = SocketPayloads['answerUpdate'];
/** At most once a second per question: its recent viewers and its exact count. */
export type ViewsUpdate = SocketPayloads['viewsUpdate'];
export type VoteUpdate = SocketPayloads['voteUpdate'];
export type CommentUpdate = SocketPayloads['commentUpdate'];
export type AcceptUpdate = SocketPayloads['acceptUpdate'];
export type DeleteUpdate = SocketPayloads['deleteUpdate'];

export interface ListState {
  questions: QuestionSummary[];
  total: number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a question the list has not loaded belongs in it. A summary carries no body
 * text, so a word search is matched against the title only: close enough for a live hint.
 * 'My tags' takes the member's followed tags.
 */
export function matchesQuery(
  question: QuestionSummary,
  query: HomeQuery,
  followedTags: readonly string[] = [],
): boolean {
  const tagNames = question.tags.map((tag) => tag.name.toLowerCase());
  if (query.tag !== '' && !tagNames.includes(query.tag.toLowerCase())) return false;
  if (query.myTags && !followedTags.some((name) => tagNames.includes(name.toLowerCase()))) return false;
  if (query.order === 'unanswered' && question.answerCount > 0) return false;
  if (query.search === '') return true;
  const { tags, words } = parseSearch(query.search);
  if (tags.some((tag) => tagNames.includes(tag))) return true;
  return words.some((word) => new RegExp(`(^|\\W)${escapeRegExp(word)}(\\W|$)`, 'i').test(question.title));
}

/** questionUpdate: replace the row with the same id, else put a matching question where its order puts it. */
export function applyQuestionUpdate(
  state: ListState,
  question: QuestionSummary,
  query: HomeQuery,
  followedTags: readonly string[] = [],
): ListState {
  const index = state.questions.findIndex((row) => row._id === question._id);
  if (index >= 0) return { ...state, questions: state.questions.with(index, question) };
  if (!matchesQuery(question, query, followedTags)) return state;
  if (query.order === 'mostViewed') {
    // Most viewed: after every row with at least as many views; at the end only once all are loaded.
    const position = state.questions.findIndex((row) => row.viewCount < question.viewCount);
    if (position < 0 && state.questions.length < state.total) return { ...state, total: state.total + 1 };
    const at = position < 0 ? state.questions.length : position;
    return { questions: state.questions.toSpliced(at, 0, question), total: state.total + 1 };
  }
  return { questions: [question, ...state.questions], total: state.total + 1 };
}

/** answerUpdate: one more answer and fresh activity; 'active' moves it up, 'unanswered' lets it go. */
export function applyAnswerUpdate(state: ListState, { qid, answer }: AnswerUpdate, query: HomeQuery): ListState {
  const index = state.questions.findIndex((row) => row._id === qid);
  const row = state.questions[index];
  // An edited or undeleted answer is no new one: it is no later than the row's last activity
  // (an undeleted one's count comes with its questionUpdate).
  if (row === undefined || answer.ansDateTime <= row.lastActivity) return state;
  if (query.order === 'unanswered') {
    return { questions: state.questions.toSpliced(index, 1), total: Math.max(0, state.total - 1) };
  }
  const updated = { ...row, answerCount: row.answerCount + 1, lastActivity: answer.ansDateTime };
  if (query.order === 'active') return { ...state, questions: [updated, ...state.questions.toSpliced(index, 1)] };
  return { ...state, questions: state.questions.with(index, updated) };
}

function updateRow(state: ListState, qid: string, change: (row: QuestionSummary) => QuestionSummary): ListState {
  const index = state.questions.findIndex((row) => row._id === qid);
  const row = state.questions[index];
  if (row === undefined) return state;
  return { ...state, questions: state.questions.with(index, change(row)) };
}

export function applyViewsUpdate(state: ListState, { qid, viewCount }: ViewsUpdate): ListState {
  return updateRow(state, qid, (row) => ({ ...row, viewCount }));
}

export function applyVoteUpdate(state: ListState, { qid, upVotes, downVotes }: VoteUpdate): ListState {
  return updateRow(state, qid, (row) => ({ ...row, voteCount: upVotes.length - downVotes.length }));
}

/** acceptUpdate: the row's answer count is marked while an answer is accepted. */
export function applyAcceptUpdate(state: ListState, { qid, acceptedAnswer }: AcceptUpdate): ListState {
  return updateRow(state, qid, (row) => ({ ...row, acceptedAnswer }));
}

/** deleteUpdate: a deleted question leaves every list (an undeleted one comes back as a questionUpdate). */
export function applyDeleteUpdate(state: ListState, { post, id, deleted }: DeleteUpdate): ListState {
  if (post !== 'question' || !deleted) return state;
  const questions = state.questions.filter((row) => row._id !== id);
  return questions.length === state.questions.length ? state : { questions, total: Math.max(0, state.total - 1) };
}

/** Adds an item unless one with the same id is already there (the socket and the reply can both bring it). */
export function appendOnce<T extends { _id: string }>(items: T[], item: T): T[] {
  return items.some((existing) => existing._id === item._id) ? items : [...items, item];
}
