import type { Order, QuestionSummary } from '@porpoise/core';
import { apiRequestWithHeaders } from '@/lib/api-client';

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

/** One page of the home list, with the number of all matches from the X-Total-Count header. */
export async function getQuestions(query: QuestionListQuery, signal?: AbortSignal): Promise<QuestionPage> {
  const { data, headers } = await apiRequestWithHeaders<QuestionSummary[]>('/getQuestion', {
    query: {
      order: query.order,
      search: query.search || undefined,
      tag: query.tag || undefined,
      limit: query.limit,
      offset: query.offset,
    },
    signal,
  });
  const questions = Array.isArray(data) ? data : [];
  const total = Number(headers.get(TOTAL_HEADER) ?? questions.length);
  return { questions, total: Number.isFinite(total) ? total : questions.length };
}
