import { useLoaderData } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { SignOutButton } from '@/features/auth/components/sign-out-button';
import { useAccount } from '@/features/auth/hooks/use-account';
import { OwnProfile } from '@/features/profile/components/own-profile';
import type { profileLoader } from './profile-loader';

/** The signed-in user's own profile (spec: /profile). */
export function ProfileRoute() {
  const account = useAccount();
  const data = useLoaderData<typeof profileLoader>();
  return (
    <>
      <DocumentTitle title="Profile" />
      <h1 className="page-title">Profile</h1>
      <OwnProfile account={account} data={data} signOut={<SignOutButton />} />
    </>
  );
}
