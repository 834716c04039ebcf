import { Link, redirect, useLoaderData } from 'react-router';
import { Deferred, LoadingText } from '@/components/deferred';
import { DocumentTitle } from '@/components/document-title';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { deferred } from '@/lib/deferred';
import { moderates } from '@/lib/roles';
import { getModerationLog } from '@/features/moderation/api/moderation';
import { ModerationLog } from '@/features/moderation/components/moderation-log';
import { signedInAccount } from '@/features/auth/api/me';

/** Moderators and admins only, as the queue. `?before=` pages back through older entries. */
export async function moderationLogLoader({ request }: { request: Request }) {
  const account = await signedInAccount();
  if (!moderates(account)) return redirect(paths.home());
  const before = new URL(request.url).searchParams.get('before');
  return { before, entries: deferred(getModerationLog(before, request.signal)) };
}

/** /moderation/log: every moderator action, newest first (docs/product.md section 10). */
export function ModerationLogRoute() {
  const { before, entries } = useLoaderData<typeof moderationLogLoader>();
  return (
    <>
      <DocumentTitle title="Moderation log" />
      <div className="page-header">
        <h1 className="page-title">Moderation log</h1>
        <Link to={paths.moderation()}>Review queue</Link>
      </div>
      <Deferred
        key={before ?? ''}
        data={entries}
        loading={<LoadingText>Loading the log…</LoadingText>}
        failed={(error) => <p className="inline-error">{userFacingError(error, 'Failed to load the log')}</p>}
      >
        {(loaded) => <ModerationLog entries={loaded} />}
      </Deferred>
    </>
  );
}
