import type { Answer, Question, UserAnswer } from '@porpoise/core';
import type { ResponseOf } from '@porpoise/core/contract';
import { callApi } from '@/lib/api-client';

export type Revision = ResponseOf<'questionRevisions'>[number];

/** Saves an edit of a question (docs/product.md section 9): the author's, or a moderator's. */
export function editQuestion(
  qid: string,
  edit: { title: string; text: string; tagNames: string[]; reason: string },
): Promise<Question> {
  return callApi('PUT /question/:id', {
    params: { id: qid },
    body: {
      title: edit.title,
      text: edit.text,
      tags: edit.tagNames.map((name) => ({ name, description: '' })),
      ...(edit.reason === '' ? {} : { reason: edit.reason }),
    },
  });
}

/** Saves an edit of an answer's text. */
export function editAnswer(aid: string, text: string, reason: string): Promise<Answer> {
  return callApi('PUT /answer/:id', {
    params: { id: aid },
    body: { text, ...(reason === '' ? {} : { reason }) },
  });
}

/** One answer with its question's id and title (the edit screen's starting point). */
export function getAnswer(aid: string, signal?: AbortSignal): Promise<UserAnswer> {
  return callApi('GET /answer/:id', { params: { id: aid }, signal, expectedStatuses: [400, 404] });
}

/** A post's revisions, newest first; revision 1 is the original. */
export function getRevisions(
  post: { type: 'question' | 'answer'; id: string },
  signal?: AbortSignal,
): Promise<Revision[]> {
  return post.type === 'question'
    ? callApi('GET /question/:id/revisions', { params: { id: post.id }, signal, expectedStatuses: [400, 404] })
    : callApi('GET /answer/:id/revisions', { params: { id: post.id }, signal, expectedStatuses: [400, 404] });
}
