import type { Order, QuestionSummary } from '@porpoise/core';
import { callApiWithHeaders } from '@/lib/api-client';

export interface QuestionListQuery {
  order: Order;
  search?: string;
  tag?: string;
  /** Only questions in the tags the member follows. */
  myTags?: boolean;
  limit?: number;
  /** The nextCursor of the page before: this page starts after it. */
  cursor?: string;
}

export interface QuestionPage {
  questions: QuestionSummary[];
  /** All matches on the server (the X-Total-Count header), not just this page. */
  total: number;
  /** Where the next page starts (the X-Next-Cursor header); null when this page is the last. */
  nextCursor: string | null;
}

const TOTAL_HEADER = 'X-Total-Count';
const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

/**
 * One page of the home list, with the number of all matches from the X-Total-Count header
 * and the cursor of the next page. Later pages follow the cursor: offsets stop at
 * LIMITS.listOffsetMax, and live inserts would shift them anyway.
 */
export async function getQuestions(query: QuestionListQuery, signal?: AbortSignal): Promise<QuestionPage> {
  const { data, headers } = await callApiWithHeaders('GET /getQuestion', {
    query: {
      order: query.order,
      search: query.search || undefined,
      tag: query.tag || undefined,
      myTags: query.myTags === true ? 'true' : undefined,
      limit: query.limit,
      cursor: query.cursor,
    },
    signal,
  });
  const questions = Array.isArray(data) ? data : [];
  const total = Number(headers.get(TOTAL_HEADER) ?? questions.length);
  return {
    questions,
    total: Number.isFinite(total) ? total : questions.length,
    nextCursor: headers.get(NEXT_CURSOR_HEADER) || null,
  };
}
