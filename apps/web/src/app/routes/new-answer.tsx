import { useEffect } from 'react';
import { Link, useLoaderData, useNavigate, type LoaderFunctionArgs } from 'react-router';
import type { Question } from '@porpoise/core';
import { DocumentTitle } from '@/components/document-title';
import { FormError } from '@/components/form-error';
import { MissingPage } from '@/components/missing-page';
import { paths } from '@/config/paths';
import { useAccount } from '@/features/auth/hooks/use-account';
import { findQuestion } from '@/features/questions/api/get-question';
import { AnswerForm } from '@/features/questions/components/answer-form';
import { AnsweredQuestion } from '@/features/questions/components/answered-question';

/** How long 'Question ID is missing.' stays up before the list replaces it. */
const MISSING_ID_DELAY_MS = 2000;
const MISSING_ID = 'Question ID is missing.';

/** The question to show above the form (docs/product.md section 5); none to load without an id. */
export async function newAnswerLoader({
  params,
  request,
}: LoaderFunctionArgs): Promise<{ qid: string; question: Question | null }> {
  const qid = params.qid?.trim() ?? '';
  return { qid, question: qid === '' ? null : await findQuestion(qid, request.signal) };
}

export function NewAnswerRoute() {
  const account = useAccount();
  const navigate = useNavigate();
  const { qid, question } = useLoaderData<typeof newAnswerLoader>();
  const missing = qid === '';

  useEffect(() => {
    if (!missing) return;
    const timer = window.setTimeout(() => void navigate(paths.home(), { replace: true }), MISSING_ID_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [missing, navigate]);

  // Unknown, or deleted (which takes no answers): as the question page says it.
  if (!missing && (question === null || question.deleted === true)) return <MissingPage what="Question" />;
  return (
    <div className="q-narrow">
      <DocumentTitle title="Answer the Question" />
      <h1 className="q-page-title">Answer the Question</h1>
      {missing ? (
        <>
          <FormError message={MISSING_ID} />
          <p className="q-back">
            <Link to={paths.home()}>Go to Questions</Link>
          </p>
        </>
      ) : (
        <>
          <p className="q-back">
            <Link to={paths.question(qid)}>← Back to the question</Link>
          </p>
          {question === null ? null : <AnsweredQuestion question={question} />}
          <div className="q-panel">
            <AnswerForm qid={qid} username={account.username} />
          </div>
        </>
      )}
    </div>
  );
}
