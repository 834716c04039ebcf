import type { VoteDirection } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/**
 * Toggles the user's vote on a question. The page changes only when voteUpdate arrives
 * (spec section 4), and a failure is silently ignored (spec section 8): it is only logged.
 */
export async function voteQuestion(direction: VoteDirection, qid: string, username: string): Promise<void> {
  try {
    await callApi(direction === 'up' ? 'POST /upvoteQuestion' : 'POST /downvoteQuestion', { body: { qid, username } });
  } catch {
    // callApi has logged it; the spec shows nothing.
  }
}

/** Toggles the user's vote on an answer, like a question's: the page follows answerVoteUpdate. */
export async function voteAnswer(direction: VoteDirection, aid: string, username: string): Promise<void> {
  try {
    await callApi(direction === 'up' ? 'POST /answer/upvoteAnswer' : 'POST /answer/downvoteAnswer', {
      body: { aid, username },
    });
  } catch {
    // Logged by callApi; as for questions, nothing is shown.
  }
}
