import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { paths } from '@/config/paths';
import { deferred } from '@/lib/deferred';
import { signedInAccount } from '@/features/auth/api/me';
import { useAccount } from '@/features/auth/hooks/use-account';
import { getFirstForums } from '@/features/forums/api/get-forums';
import { ForumList } from '@/features/forums/components/forum-list';

/** The first page of forums, shown when it arrives (the page's heading does not wait). */
export function forumsLoader({ request }: LoaderFunctionArgs) {
  return { firstPage: deferred(signedInAccount().then((account) => getFirstForums(account.username, request.signal))) };
}

/** Forum cards (spec: /forums). */
export function ForumsRoute() {
  const account = useAccount();
  const { firstPage } = useLoaderData<typeof forumsLoader>();
  return (
    <>
      <DocumentTitle title="Forums" />
      <div className="page-header">
        <h1 className="page-title">Forums</h1>
        <Link to={paths.newForum()} className="button button--primary">
          Start a Forum
        </Link>
      </div>
      <ForumList username={account.username} firstPage={firstPage} />
    </>
  );
}
