import type { Answer } from '@porpoise/core';
import { apiRequest } from '@/lib/api-client';

export function addAnswer(qid: string, text: string, ansBy: string): Promise<Answer> {
  return apiRequest<Answer>('/answer/addAnswer', {
    method: 'POST',
    body: { qid, ans: { text, ansBy, ansDateTime: new Date().toISOString(), comments: [] } },
  });
}
