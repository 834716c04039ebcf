import type { VoteDirection } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/**
 * Toggles the user's vote. The page changes only when voteUpdate arrives (spec
 * section 4), and a failure is silently ignored (spec section 8): it is only logged.
 */
export async function voteQuestion(direction: VoteDirection, qid: string, username: string): Promise<void> {
  try {
    await callApi(direction === 'up' ? 'POST /upvoteQuestion' : 'POST /downvoteQuestion', { body: { qid, username } });
  } catch {
    // callApi has logged it; the spec shows nothing.
  }
}
