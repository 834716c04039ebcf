import { useLoaderData, useParams } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { useAccount } from '@/features/auth/hooks/use-account';
import { UserProfile } from '@/features/profile/components/user-profile';
import { MessageButton } from '@/features/threads/components/message-button';
import { ProfileRoute } from './profile';
import type { userProfileLoader } from './profile-loader';

/** Another user's profile (spec: /profile/:username); one's own name shows the own profile. */
export function UserProfileRoute() {
  const { username = '' } = useParams();
  const account = useAccount();
  const data = useLoaderData<typeof userProfileLoader>();
  if (username.toLowerCase() === account.username.toLowerCase()) return <ProfileRoute />;
  return (
    <>
      <DocumentTitle title={`${username}'s Profile`} />
      <h1 className="page-title">User Profile</h1>
      <UserProfile
        key={username}
        data={data}
        // Only another member's profile has it; profiles need signing in (spec section 2).
        action={(profile) => (
          <MessageButton own={account.username} other={profile.username} threadId={profile.threadId} />
        )}
      />
    </>
  );
}
