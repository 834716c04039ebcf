import type { ResponseOf } from '@porpoise/core/contract';
import { callApi } from '@/lib/api-client';

/** Accepts an answer to one's own question, or takes the mark back (docs/product.md section 7). */
export function acceptAnswer(qid: string, aid: string): Promise<ResponseOf<'acceptAnswer'>> {
  return callApi('POST /answer/acceptAnswer', { body: { qid, aid } });
}
