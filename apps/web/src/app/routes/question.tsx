import { redirect, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { Question } from '@porpoise/core';
import { DocumentTitle } from '@/components/document-title';
import { MissingPage } from '@/components/missing-page';
import { paths } from '@/config/paths';
import { moderates } from '@/lib/roles';
import { useAccount } from '@/features/auth/hooks/use-account';
import { findQuestion } from '@/features/questions/api/get-question';
import { QuestionView } from '@/features/questions/components/question-view';

/**
 * A question address without an id goes to the list (spec section 2). Opening the
 * question records the view; an unknown (or malformed) id gives the not-found state.
 */
export async function questionLoader({ params, request }: LoaderFunctionArgs): Promise<Question | null | Response> {
  const qid = params.qid?.trim();
  if (qid === undefined || qid === '') return redirect(paths.home());
  return findQuestion(qid, request.signal);
}

export function QuestionRoute() {
  const question = useLoaderData<typeof questionLoader>();
  const account = useAccount();
  if (question === null) return <MissingPage what="Question" />;
  return (
    <>
      <DocumentTitle title={question.title} />
      <QuestionView key={question._id} initial={question} username={account.username} moderates={moderates(account)} />
    </>
  );
}
