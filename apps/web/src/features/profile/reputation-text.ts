import type { ReputationEvent, ReputationReason } from '@porpoise/core';

/** What happened, on one's own profile (docs/product.md section 13). */
const OWN: Record<ReputationReason, string> = {
  questionUpvoted: 'Your question was upvoted',
  questionDownvoted: 'Your question was downvoted',
  answerUpvoted: 'Your answer was upvoted',
  answerDownvoted: 'Your answer was downvoted',
  answerAccepted: 'Your answer was accepted',
  acceptedAnswer: 'You accepted an answer to your question',
  downvotedAnswer: 'You downvoted an answer',
  adjustment: 'An admin adjusted your reputation',
};

/** What happened, on another member's profile (their name is the page's heading). */
const OTHERS: Record<ReputationReason, string> = {
  questionUpvoted: 'Question upvoted',
  questionDownvoted: 'Question downvoted',
  answerUpvoted: 'Answer upvoted',
  answerDownvoted: 'Answer downvoted',
  answerAccepted: 'Answer accepted',
  acceptedAnswer: 'Accepted an answer to their question',
  downvotedAnswer: 'Downvoted an answer',
  adjustment: 'Adjusted by an admin',
};

/** An upvote past the day's cap is an event that earns nothing (docs/product.md section 13). */
const OVER_DAILY_LIMIT = ' (daily limit reached)';

/** One history row's words, after its signed change: 'Your question was upvoted'. */
export function reputationEventText(event: ReputationEvent, own: boolean): string {
  const text = (own ? OWN : OTHERS)[event.reason];
  return event.delta === 0 ? `${text}${OVER_DAILY_LIMIT}` : text;
}
