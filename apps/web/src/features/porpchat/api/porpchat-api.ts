import { PORPCHAT_THREAD_ID, type Message, type Thread } from '@porpoise/core';
import { ApiError, callApi } from '@/lib/api-client';

/** PorpChat's history, oldest first; open to anonymous visitors. */
export function getPorpchatThread(signal?: AbortSignal): Promise<Thread> {
  return callApi('GET /thread/getThreadById/:id', { params: { id: PORPCHAT_THREAD_ID }, signal });
}

/**
 * Asks whether a visitor may join under `name` (409 'That name belongs to a member'). A
 * refusal by the rate limit lets them in: posting checks the name again (docs/product.md section 6).
 */
export async function checkPorpName(name: string): Promise<void> {
  try {
    await callApi('POST /porpchat/checkName', { body: { name } });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 429)) throw error;
  }
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
