import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { Deferred, LoadingText } from '@/components/deferred';
import { DocumentTitle } from '@/components/document-title';
import { userFacingError } from '@/lib/api-client';
import { deferred } from '@/lib/deferred';
import { signedInAccount } from '@/features/auth/api/me';
import { getPrivileges } from '@/lib/privileges';
import { PrivilegeList } from '@/features/privileges/components/privilege-list';
import { getUserReputation } from '@/features/profile/api/get-reputation';

/**
 * The privileges and the member's reputation as they stand now (the account the layout keeps
 * may be older than the last vote), both asked for at once; the heading does not wait.
 */
export function privilegesLoader({ request }: LoaderFunctionArgs) {
  const reputation = signedInAccount().then((account) => getUserReputation(account.username, request.signal));
  return {
    standing: deferred(
      Promise.all([getPrivileges(request.signal), reputation]).then(([privileges, own]) => ({
        privileges,
        reputation: own.reputation,
      })),
    ),
  };
}

/** /help/privileges: what reputation unlocks (docs/product.md section 13). */
export function PrivilegesRoute() {
  const { standing } = useLoaderData<typeof privilegesLoader>();
  return (
    <>
      <DocumentTitle title="Privileges" />
      <h1 className="page-title">Privileges</h1>
      <Deferred
        data={standing}
        loading={<LoadingText>Loading privileges…</LoadingText>}
        failed={(error) => <p className="inline-error">{userFacingError(error, 'Failed to load privileges')}</p>}
      >
        {({ privileges, reputation }) => <PrivilegeList privileges={privileges} reputation={reputation} />}
      </Deferred>
    </>
  );
}
