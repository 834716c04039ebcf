import type { Answer } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

export function addAnswer(qid: string, text: string, ansBy: string): Promise<Answer> {
  return callApi('POST /answer/addAnswer', {
    body: { qid, ans: { text, ansBy, ansDateTime: new Date().toISOString(), comments: [] } },
  });
}
