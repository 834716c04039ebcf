import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { FormError } from '@/components/form-error';
import { paths } from '@/config/paths';
import { useAccount } from '@/features/auth/hooks/use-account';
import { AnswerForm } from '@/features/questions/components/answer-form';

/** How long 'Question ID is missing.' stays up before the list replaces it. */
const MISSING_ID_DELAY_MS = 2000;
const MISSING_ID = 'Question ID is missing.';

export function NewAnswerRoute() {
  const account = useAccount();
  const navigate = useNavigate();
  const qid = useParams().qid?.trim() ?? '';
  const missing = qid === '';

  useEffect(() => {
    if (!missing) return;
    const timer = window.setTimeout(() => void navigate(paths.home(), { replace: true }), MISSING_ID_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [missing, navigate]);

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
          <div className="q-panel">
            <AnswerForm qid={qid} username={account.username} />
          </div>
        </>
      )}
    </div>
  );
}
