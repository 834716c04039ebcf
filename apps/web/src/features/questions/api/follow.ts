import { callApi } from '@/lib/api-client';

/** Whether the member follows the question (docs/product.md section 11). */
export async function followsQuestion(qid: string, signal?: AbortSignal): Promise<boolean> {
  return (await callApi('GET /question/:id/follow', { params: { id: qid }, signal })).following;
}

/** Follows the question, or stops following it; resolves with the state after. */
export async function toggleQuestionFollow(qid: string): Promise<boolean> {
  return (await callApi('POST /question/:id/follow', { params: { id: qid } })).following;
}

/** Follows the tag, or stops following it; resolves with the state after. */
export async function toggleTagFollow(name: string): Promise<boolean> {
  return (await callApi('POST /tag/:name/follow', { params: { name } })).following;
}
