import type { Question } from '@porpoise/core';
import { apiRequest } from '@/lib/api-client';

/**
 * The question with its answers and comments. The server records the session's user as
 * a viewer (once), so the spec's optional `?username` is not needed.
 */
export function getQuestion(qid: string, signal?: AbortSignal): Promise<Question> {
  return apiRequest<Question>(`/getQuestionById/${encodeURIComponent(qid)}`, { signal, expectedStatuses: [400, 404] });
}
