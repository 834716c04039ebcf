import { Form, redirect, useLoaderData, useNavigation, type LoaderFunctionArgs } from 'react-router';
import { Deferred, LoadingText } from '@/components/deferred';
import { DocumentTitle } from '@/components/document-title';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { deferred } from '@/lib/deferred';
import { administers } from '@/lib/roles';
import { listBackups } from '@/features/admin/api/backups';
import { getPrivilegeThresholds } from '@/features/admin/api/privileges';
import { listUsers } from '@/features/admin/api/users';
import { Backups } from '@/features/admin/components/backups';
import { PrivilegeThresholds } from '@/features/admin/components/privilege-thresholds';
import { UserRoles } from '@/features/admin/components/user-roles';
import { signedInAccount } from '@/features/auth/api/me';

/** Admins only: anyone else is sent to /home (the API refuses them too, with 403). */
export async function adminUsersLoader({ request }: LoaderFunctionArgs) {
  const account = await signedInAccount();
  if (!administers(account)) return redirect(paths.home());
  const search = new URL(request.url).searchParams.get('search')?.trim() ?? '';
  return {
    search,
    users: deferred(listUsers(search, request.signal)),
    privileges: deferred(getPrivilegeThresholds(request.signal)),
    backups: deferred(listBackups(request.signal)),
  };
}

/**
 * /admin/users (and /admin): find accounts by name and set their roles (docs/product.md section
 * 10), set the privileges' reputation thresholds (section 13), and the server's backups (section 15).
 */
export function AdminUsersRoute() {
  const { search, users, privileges, backups } = useLoaderData<typeof adminUsersLoader>();
  const navigation = useNavigation();
  return (
    <>
      <DocumentTitle title="Users" />
      <h1 className="page-title">Users</h1>
      <Form role="search" method="get" className="user-search" aria-busy={navigation.state === 'loading'}>
        <label htmlFor="user-search">Search users</label>
        <div className="user-search__row">
          <input id="user-search" className="field__input" type="search" name="search" defaultValue={search} />
          <button type="submit" className="button">
            Search
          </button>
        </div>
      </Form>
      <Deferred
        key={search}
        data={users}
        loading={<LoadingText>Loading users…</LoadingText>}
        failed={(error) => <p className="inline-error">{userFacingError(error, 'Failed to load users')}</p>}
      >
        {(found) => <UserRoles users={found} />}
      </Deferred>
      <Deferred
        data={privileges}
        loading={<LoadingText>Loading privileges…</LoadingText>}
        failed={(error) => <p className="inline-error">{userFacingError(error, 'Failed to load privileges')}</p>}
      >
        {(current) => <PrivilegeThresholds privileges={current} />}
      </Deferred>
      <Deferred
        data={backups}
        loading={<LoadingText>Loading backups…</LoadingText>}
        failed={(error) => <p className="inline-error">{userFacingError(error, 'Failed to load backups')}</p>}
      >
        {(current) => <Backups initial={current} />}
      </Deferred>
    </>
  );
}
