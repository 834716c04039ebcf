import { DocumentTitle } from '@/components/document-title';
import { useAccount } from '@/features/auth/hooks/use-account';
import { AskQuestionForm } from '@/features/questions/components/ask-question-form';

export function NewQuestionRoute() {
  const account = useAccount();
  return (
    <div className="q-narrow">
      <DocumentTitle title="Ask a Question" />
      <h1 className="q-page-title">Ask a Question</h1>
      <p className="q-page-lead">Be specific, and add the tags people with the answer would follow.</p>
      <div className="q-panel">
        <AskQuestionForm username={account.username} />
      </div>
    </div>
  );
}
