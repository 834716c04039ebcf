import { Link, redirect, useLoaderData } from 'react-router';
import { Deferred, LoadingText } from '@/components/deferred';
import { DocumentTitle } from '@/components/document-title';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { deferred } from '@/lib/deferred';
import { moderates } from '@/lib/roles';
import { getReviewQueue } from '@/features/moderation/api/moderation';
import { ReviewQueue, useReviewFeed } from '@/features/moderation/components/review-queue';
import { signedInAccount } from '@/features/auth/api/me';

/** Moderators and admins only: anyone else is sent to /home (the API refuses them too, with 403). */
export async function moderationLoader({ request }: { request: Request }) {
  const account = await signedInAccount();
  if (!moderates(account)) return redirect(paths.home());
  return { queue: deferred(getReviewQueue(request.signal)) };
}

/** /moderation: the review queue, oldest first, live (docs/product.md section 10). */
export function ModerationRoute() {
  const { queue } = useLoaderData<typeof moderationLoader>();
  // Heard from now on: what happens while the queue loads is not lost.
  const feed = useReviewFeed();
  return (
    <>
      <DocumentTitle title="Moderation" />
      <div className="page-header">
        <h1 className="page-title">Review queue</h1>
        <Link to={paths.moderationLog()}>Moderation log</Link>
      </div>
      <Deferred
        data={queue}
        loading={<LoadingText>Loading the review queue…</LoadingText>}
        failed={(error) => <p className="inline-error">{userFacingError(error, 'Failed to load the review queue')}</p>}
      >
        {(loaded) => <ReviewQueue initial={loaded} feed={feed} />}
      </Deferred>
    </>
  );
}
