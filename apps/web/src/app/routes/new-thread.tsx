import { DocumentTitle } from '@/components/document-title';
import { useAccount } from '@/features/auth/hooks/use-account';
import { NewThreadForm } from '@/features/threads/components/new-thread-form';

/** Starting a direct thread (spec: /new/thread). */
export function NewThreadRoute() {
  const account = useAccount();
  return (
    <>
      <DocumentTitle title="Start a Thread" />
      <h1 className="page-title">Start a Thread</h1>
      <NewThreadForm username={account.username} />
    </>
  );
}
