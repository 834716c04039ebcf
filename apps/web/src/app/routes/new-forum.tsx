import { DocumentTitle } from '@/components/document-title';
import { NewForumForm } from '@/features/forums/components/new-forum-form';

/** Creating a forum (spec: /new/forum). */
export function NewForumRoute() {
  return (
    <>
      <DocumentTitle title="Start a Forum" />
      <h1 className="page-title">Start a Forum</h1>
      <NewForumForm />
    </>
  );
}
