import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { paths } from '@/config/paths';
import { deferred } from '@/lib/deferred';
import { signedInAccount } from '@/features/auth/api/me';
import { useAccount } from '@/features/auth/hooks/use-account';
import { getThreads } from '@/features/threads/api/get-threads';
import { ThreadList } from '@/features/threads/components/thread-list';

/** The user's threads, shown when they arrive (the page's heading does not wait). */
export function threadsLoader({ request }: LoaderFunctionArgs) {
  return { threads: deferred(signedInAccount().then((account) => getThreads(account.username, request.signal))) };
}

/** The user's direct threads (spec: /threads). */
export function ThreadsRoute() {
  const account = useAccount();
  const { threads } = useLoaderData<typeof threadsLoader>();
  return (
    <>
      <DocumentTitle title="Threads" />
      <div className="page-header">
        <h1 className="page-title">Threads</h1>
        <Link to={paths.newThread()} className="button button--primary">
          Start a Thread
        </Link>
      </div>
      <ThreadList username={account.username} threads={threads} />
    </>
  );
}
