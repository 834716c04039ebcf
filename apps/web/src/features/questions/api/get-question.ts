import type { Answer, Question } from '@porpoise/core';
import { ApiError, callApi } from '@/lib/api-client';

/**
 * The question with its first page of answers (and `answerCount`) and comments. The server records the session's user as
 * a viewer (once), so the spec's optional `?username` is not needed.
 */
export function getQuestion(qid: string, signal?: AbortSignal): Promise<Question> {
  return callApi('GET /getQuestionById/:id', { params: { id: qid }, signal, expectedStatuses: [400, 404] });
}

/** The question, or null when there is none (or the id is malformed): its screen says 'Question not found'. */
export async function findQuestion(qid: string, signal?: AbortSignal): Promise<Question | null> {
  try {
    return await getQuestion(qid, signal);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

/** The page of a question's answers after the answer `after`, oldest first. */
export function getAnswerPage(qid: string, after: string, signal?: AbortSignal): Promise<Answer[]> {
  return callApi('GET /question/:id/answers', { params: { id: qid }, query: { after }, signal });
}
