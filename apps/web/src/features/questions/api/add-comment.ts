import type { CommentTarget, Comment } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** Comments on a question or an answer (`id` is that question's or answer's id). */
export function addComment(id: string, type: CommentTarget, text: string, commentBy: string): Promise<Comment> {
  return callApi('POST /comment/addComment', {
    body: { id, type, comment: { text, commentBy, commentDateTime: new Date().toISOString() } },
  });
}
