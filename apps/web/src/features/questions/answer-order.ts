import type { Answer, AnswerOrder } from '@porpoise/core';

export const ANSWER_ORDER_LABELS: Record<AnswerOrder, string> = {
  score: 'Score',
  oldest: 'Oldest',
  newest: 'Newest',
};

const score = (answer: Answer) => answer.upVotes.length - answer.downVotes.length;
const oldestFirst = (a: Answer, b: Answer) =>
  a.ansDateTime.localeCompare(b.ansDateTime) || Number(a._id) - Number(b._id);

/**
 * The answers in the chosen order (docs/product.md section 7): by score, the accepted answer
 * first, then the highest score, ties oldest first; or oldest or newest first. The API
 * keeps them in the order they were posted; the page sorts.
 */
export function sortAnswers(answers: readonly Answer[], order: AnswerOrder, accepted: string | null): Answer[] {
  if (order === 'oldest') return answers.toSorted(oldestFirst);
  if (order === 'newest') return answers.toSorted((a, b) => oldestFirst(b, a));
  return answers.toSorted(
    (a, b) => Number(b._id === accepted) - Number(a._id === accepted) || score(b) - score(a) || oldestFirst(a, b),
  );
}
