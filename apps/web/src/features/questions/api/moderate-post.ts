import type { CloseReason, PostKind } from '@porpoise/core';
import type { ResponseOf } from '@porpoise/core/contract';
import { callApi } from '@/lib/api-client';

/** Deletes a post, or undeletes it (docs/product.md section 9): its author or a moderator. */
export function setPostDeleted(post: PostKind, id: string, deleted: boolean): Promise<ResponseOf<'deleteAnswer'>> {
  const params = { id };
  switch (post) {
    case 'question':
      return deleted ? callApi('DELETE /question/:id', { params }) : callApi('POST /question/:id/undelete', { params });
    case 'answer':
      return deleted ? callApi('DELETE /answer/:id', { params }) : callApi('POST /answer/:id/undelete', { params });
    case 'comment':
      return deleted ? callApi('DELETE /comment/:id', { params }) : callApi('POST /comment/:id/undelete', { params });
  }
}

/** Closes a question (moderators), with a reason and, for a duplicate, the original's id. */
export function closeQuestion(
  qid: string,
  reason: CloseReason,
  duplicateOf: string | null,
): Promise<ResponseOf<'closeQuestion'>> {
  return callApi('POST /question/:id/close', {
    params: { id: qid },
    body: duplicateOf === null ? { reason } : { reason, duplicateOf },
  });
}

export function reopenQuestion(qid: string): Promise<ResponseOf<'reopenQuestion'>> {
  return callApi('POST /question/:id/reopen', { params: { id: qid } });
}

/** A member's vote to close an open question ('Vote to close', docs/product.md section 13): the third closes it. */
export function closeVote(
  qid: string,
  reason: CloseReason,
  duplicateOf: string | null,
): Promise<ResponseOf<'closeVote'>> {
  return callApi('POST /question/:id/closeVote', {
    params: { id: qid },
    body: duplicateOf === null ? { reason } : { reason, duplicateOf },
  });
}

/** A member's vote to reopen a closed question: the third reopens it. */
export function reopenVote(qid: string): Promise<ResponseOf<'reopenVote'>> {
  return callApi('POST /question/:id/reopenVote', { params: { id: qid } });
}
