import type { QuestionSummary, UserAnswer } from '@porpoise/core';
import { ApiError, callApi } from '@/lib/api-client';

/** A 404 means the user has nothing to list (spec section 8): an empty list, not an error. */
function emptyOn404<T>(request: Promise<T[]>): Promise<T[]> {
  return request.catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  });
}

export function getUserQuestions(username: string, signal?: AbortSignal): Promise<QuestionSummary[]> {
  return emptyOn404(callApi('GET /profile/getQuestions', { query: { username }, signal, expectedStatuses: [404] }));
}

export type { UserAnswer };

export function getUserAnswers(username: string, signal?: AbortSignal): Promise<UserAnswer[]> {
  return emptyOn404(callApi('GET /profile/getAnswers', { query: { username }, signal, expectedStatuses: [404] }));
}
