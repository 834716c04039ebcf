import type { Message } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** Posts a message to a thread as the signed-in user; the server stamps the time. */
export function addMessage(tid: string, sender: string, content: string): Promise<Message> {
  return callApi('POST /message/addMessage', {
    body: {
      tid,
      msg: { content, sender, messageDateTime: new Date().toISOString(), views: [sender], likes: [] },
    },
  });
}
