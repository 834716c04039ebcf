import type { QuestionSummary } from '@porpoise/core';
import { ApiError, apiRequest } from '@/lib/api-client';

/** One of a user's answers, with the question it belongs to. */
export interface UserAnswer {
  _id: string;
  text: string;
  ansBy: string;
  ansDateTime: string;
  qid: string;
  questionTitle: string;
}

/** A 404 means the user has nothing to list (spec section 8): an empty list, not an error. */
function emptyOn404<T>(request: Promise<T[]>): Promise<T[]> {
  return request.catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  });
}

export function getUserQuestions(username: string, signal?: AbortSignal): Promise<QuestionSummary[]> {
  return emptyOn404(
    apiRequest<QuestionSummary[]>('/profile/getQuestions', { query: { username }, signal, expectedStatuses: [404] }),
  );
}

export function getUserAnswers(username: string, signal?: AbortSignal): Promise<UserAnswer[]> {
  return emptyOn404(
    apiRequest<UserAnswer[]>('/profile/getAnswers', { query: { username }, signal, expectedStatuses: [404] }),
  );
}
