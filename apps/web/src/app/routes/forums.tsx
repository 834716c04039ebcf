import { Link } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { paths } from '@/config/paths';
import { useAccount } from '@/features/auth/hooks/use-account';
import { ForumList } from '@/features/forums/components/forum-list';

/** Forum cards (spec: /forums). */
export function ForumsRoute() {
  const account = useAccount();
  return (
    <>
      <DocumentTitle title="Forums" />
      <div className="page-header">
        <h1 className="page-title">Forums</h1>
        <Link to={paths.newForum()} className="button button--primary">
          Start a Forum
        </Link>
      </div>
      <ForumList username={account.username} />
    </>
  );
}
