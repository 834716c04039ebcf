import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { Deferred, LoadingText } from '@/components/deferred';
import { DocumentTitle } from '@/components/document-title';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { deferred } from '@/lib/deferred';
import { getRevisions } from '@/features/questions/api/edit-post';
import { RevisionHistory } from '@/features/questions/components/revision-history';

/** /history/question/:qid and /history/answer/:aid: a post's revisions (docs/product.md section 9). */
export function historyLoader({ params, request }: LoaderFunctionArgs) {
  const post =
    params.qid === undefined
      ? { type: 'answer' as const, id: params.aid ?? '' }
      : { type: 'question' as const, id: params.qid };
  return { post, revisions: deferred(getRevisions(post, request.signal)) };
}

export function PostHistoryRoute() {
  const { post, revisions } = useLoaderData<typeof historyLoader>();
  const title = post.type === 'question' ? 'Question history' : 'Answer history';
  return (
    <div className="q-narrow">
      <DocumentTitle title={title} />
      <h1 className="q-page-title">{title}</h1>
      <Deferred
        data={revisions}
        loading={<LoadingText>Loading revisions…</LoadingText>}
        failed={(error) => <p className="inline-error">{userFacingError(error, 'Failed to load the history')}</p>}
      >
        {(found) => (
          <>
            {post.type === 'question' ? (
              <p className="q-back">
                <Link to={paths.question(post.id)}>← Back to the question</Link>
              </p>
            ) : null}
            <RevisionHistory revisions={found} />
          </>
        )}
      </Deferred>
    </div>
  );
}
