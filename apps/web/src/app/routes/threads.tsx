import { Link } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { paths } from '@/config/paths';
import { useAccount } from '@/features/auth/hooks/use-account';
import { ThreadList } from '@/features/threads/components/thread-list';

/** The user's direct threads (spec: /threads). */
export function ThreadsRoute() {
  const account = useAccount();
  return (
    <>
      <DocumentTitle title="Threads" />
      <div className="page-header">
        <h1 className="page-title">Threads</h1>
        <Link to={paths.newThread()} className="button button--primary">
          Start a Thread
        </Link>
      </div>
      <ThreadList username={account.username} />
    </>
  );
}
