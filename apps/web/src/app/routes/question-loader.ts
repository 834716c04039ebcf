// In the first download, apart from the page's own module (router.tsx): the question is asked
// for while that module is still on its way (issue 39).
import { redirect, type LoaderFunctionArgs } from 'react-router';
import type { Question } from '@porpoise/core';
import { paths } from '@/config/paths';
import { findQuestion } from '@/features/questions/api/get-question';

/**
 * A question address without an id goes to the list (spec section 2). Opening the
 * question records the view; an unknown (or malformed) id gives the not-found state.
 */
export async function questionLoader({ params, request }: LoaderFunctionArgs): Promise<Question | null | Response> {
  const qid = params.qid?.trim();
  if (qid === undefined || qid === '') return redirect(paths.home());
  return findQuestion(qid, request.signal);
}
