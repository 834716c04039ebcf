import { PORPCHAT_THREAD_ID, type Message, type Thread } from '@porpoise/core';
import { apiRequest } from '@/lib/api-client';

/** PorpChat's history, oldest first; open to anonymous visitors. */
export function getPorpchatThread(signal?: AbortSignal): Promise<Thread> {
  return apiRequest<Thread>(`/thread/getThreadById/${PORPCHAT_THREAD_ID}`, { signal });
}

/** Posts to PorpChat under the typed name (409 when it belongs to a member, 429 when too fast). */
export function postPorpMessage(sender: string, content: string): Promise<Message> {
  return apiRequest<Message>('/message/addMessage', {
    method: 'POST',
    body: {
      tid: PORPCHAT_THREAD_ID,
      msg: { content, sender, messageDateTime: new Date().toISOString(), views: [sender], likes: [] },
    },
  });
}
