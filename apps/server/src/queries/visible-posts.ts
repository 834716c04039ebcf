import type { Db } from '../db/client.ts';
import { postNotFound } from '../http/http-error.ts';
import { can, refuseHidden, type Actor } from '../policies/authorize.ts';
import { findThread, getMessage, type ThreadRow } from './threads.ts';
import { getAnswerOwnership, getCommentOwnership, getQuestionOwnership } from './ownership.ts';

/*
 * One loader per kind of post, for the routes that act on one: each answers 404 when the
 * post is missing or not there for the actor (deleted or held, and so under a deleted or
 * held post: docs/product.md sections 9 and 10), and returns the resource the routes then
 * authorize on.
 */

export interface QuestionResource {
  type: 'question';
  askerId: number;
  deletedBy: number | null;
  held: boolean;
}

export interface AnswerResource {
  type: 'answer';
  authorId: number;
  deletedBy: number | null;
  held: boolean;
}

export interface CommentResource {
  type: 'comment';
  authorId: number;
  deletedBy: number | null;
  held: boolean;
}

export interface MessageResource {
  type: 'message';
  senderId: number | null;
  thread: ThreadRow;
}

/** A question as the actor may see it. */
export async function visibleQuestion(db: Db, actor: Actor | null, questionId: number): Promise<QuestionResource> {
  const question = await getQuestionOwnership(db, questionId);
  if (!question) throw postNotFound('question');
  const { askerId, deletedBy, held } = question;
  const resource = { type: 'question', askerId, deletedBy, held } as const;
  refuseHidden(actor, resource, question.deleted);
  return resource;
}

/** An answer as the actor may see it: under a question hidden from them, it is not there either. */
export async function visibleAnswer(db: Db, actor: Actor | null, answerId: number): Promise<AnswerResource> {
  const answer = await getAnswerOwnership(db, answerId);
  if (!answer) throw postNotFound('answer');
  refuseHidden(actor, { type: 'question', askerId: answer.question.authorId }, answer.question.deleted);
  const { authorId, deletedBy, held } = answer;
  const resource = { type: 'answer', authorId, deletedBy, held } as const;
  refuseHidden(actor, resource, answer.deleted);
  return resource;
}

/** A comment as the actor may see it: under a question or answer hidden from them, it is not there either. */
export async function visibleComment(db: Db, actor: Actor | null, commentId: number): Promise<CommentResource> {
  const comment = await getCommentOwnership(db, commentId);
  if (!comment) throw postNotFound('comment');
  refuseHidden(actor, { type: 'question', askerId: comment.question.authorId }, comment.question.deleted);
  if (comment.answer) {
    refuseHidden(actor, { type: 'answer', authorId: comment.answer.authorId }, comment.answer.deleted);
  }
  const { authorId, deletedBy, held } = comment;
  const resource = { type: 'comment', authorId, deletedBy, held } as const;
  refuseHidden(actor, resource, comment.deleted);
  return resource;
}

/**
 * A message of a thread the actor may read, shown or hidden: a thread they may not read
 * answers exactly like a missing message. Marking read goes by it (a hidden message still
 * has its place in the thread).
 */
export async function readableMessage(
  db: Db,
  actor: Actor | null,
  messageId: number,
): Promise<MessageResource & { deleted: boolean }> {
  const message = await getMessage(db, messageId);
  const thread = message ? await findThread(db, String(message.threadId)) : null;
  if (!message || !thread || !can(actor, 'read', { type: 'thread', thread })) throw postNotFound('message');
  return { type: 'message', senderId: message.senderAccountId, thread, deleted: message.deleted };
}

/** A message as the actor may see it: readable, and shown to them (docs/product.md section 10). */
export async function visibleMessage(db: Db, actor: Actor | null, messageId: number): Promise<MessageResource> {
  const { deleted, ...resource } = await readableMessage(db, actor, messageId);
  refuseHidden(actor, resource, deleted);
  return resource;
}
