import { PORPCHAT_THREAD_ID, type Message, type Thread } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** PorpChat's history, oldest first; open to anonymous visitors. */
export function getPorpchatThread(signal?: AbortSignal): Promise<Thread> {
  return callApi('GET /thread/getThreadById/:id', { params: { id: PORPCHAT_THREAD_ID }, signal });
}

/** Posts to PorpChat under the typed name (409 when it belongs to a member, 429 when too fast). */
export function postPorpMessage(sender: string, content: string): Promise<Message> {
  return callApi('POST /message/addMessage', {
    body: {
      tid: PORPCHAT_THREAD_ID,
      msg: { content, sender, messageDateTime: new Date().toISOString(), views: [sender], likes: [] },
    },
  });
}
