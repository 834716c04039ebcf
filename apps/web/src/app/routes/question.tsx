import { useLoaderData } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { MissingPage } from '@/components/missing-page';
import { moderates } from '@/lib/roles';
import { useAccount } from '@/features/auth/hooks/use-account';
import { QuestionView } from '@/features/questions/components/question-view';
import type { questionLoader } from './question-loader';

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
