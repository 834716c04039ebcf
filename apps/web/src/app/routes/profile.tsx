import { DocumentTitle } from '@/components/document-title';
import { SignOutButton } from '@/features/auth/components/sign-out-button';
import { useAccount } from '@/features/auth/hooks/use-account';
import { OwnProfile } from '@/features/profile/components/own-profile';

/** The signed-in user's own profile (spec: /profile). */
export function ProfileRoute() {
  const account = useAccount();
  return (
    <>
      <DocumentTitle title="Profile" />
      <h1 className="page-title">Profile</h1>
      <OwnProfile account={account} signOut={<SignOutButton />} />
    </>
  );
}
