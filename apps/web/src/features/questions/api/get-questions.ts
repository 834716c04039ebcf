import { MESSAGES, type Order, type QuestionSummary } from '@porpoise/core';
import { ApiError } from '@/lib/api-client';

export interface QuestionListQuery {
  order: Order;
  search?: string;
  tag?: string;
  limit?: number;
  offset?: number;
}

export interface QuestionPage {
  questions: QuestionSummary[];
  /** All matches on the server (the X-Total-Count header), not just this page. */
  total: number;
}

const TOTAL_HEADER = 'X-Total-Count';

/**
 * One page of the home list. It needs the X-Total-Count header, which apiRequest does
 * not expose, so it calls fetch itself and fails the same way (logged, then an ApiError).
 */
export async function getQuestions(query: QuestionListQuery, signal?: AbortSignal): Promise<QuestionPage> {
  const params = new URLSearchParams({ order: query.order });
  if (query.search) params.set('search', query.search);
  if (query.tag) params.set('tag', query.tag);
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.offset !== undefined) params.set('offset', String(query.offset));
  const url = `/api/getQuestion?${params.toString()}`;

  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    console.error(`GET ${url} failed:`, cause);
    throw new ApiError(0, null, MESSAGES.unavailable);
  }
  const body = (await response.json().catch(() => undefined)) as unknown;
  if (!response.ok) {
    const serverMessage =
      typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string'
        ? body.error
        : null;
    console.error(`GET ${url} failed with status ${response.status}:`, serverMessage);
    throw new ApiError(response.status, serverMessage, serverMessage ?? `GET ${url} failed`);
  }
  const questions = Array.isArray(body) ? (body as QuestionSummary[]) : [];
  const total = Number(response.headers.get(TOTAL_HEADER) ?? questions.length);
  return { questions, total: Number.isFinite(total) ? total : questions.length };
}
