import { apiRequest } from '@/lib/api-client';

export type VoteDirection = 'up' | 'down';

/**
 * Toggles the user's vote. The page changes only when voteUpdate arrives (spec
 * section 4), and a failure is silently ignored (spec section 8): it is only logged.
 */
export async function voteQuestion(direction: VoteDirection, qid: string, username: string): Promise<void> {
  const path = direction === 'up' ? '/upvoteQuestion' : '/downvoteQuestion';
  try {
    await apiRequest<unknown>(path, { method: 'POST', body: { qid, username } });
  } catch {
    // apiRequest has logged it; the spec shows nothing.
  }
}
