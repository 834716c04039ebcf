import type { Comment } from '@porpoise/core';
import { apiRequest } from '@/lib/api-client';

export type CommentTarget = 'question' | 'answer';

/** Comments on a question or an answer (`id` is that question's or answer's id). */
export function addComment(id: string, type: CommentTarget, text: string, commentBy: string): Promise<Comment> {
  return apiRequest<Comment>('/comment/addComment', {
    method: 'POST',
    body: { id, type, comment: { text, commentBy, commentDateTime: new Date().toISOString() } },
  });
}
