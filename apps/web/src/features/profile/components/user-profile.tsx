import { DEFAULT_OTHER_BIO } from '@porpoise/core';
import { ProfileIcon } from '@/components/icons';
import { useRemoteData } from '@/hooks/use-remote-data';
import { getBio } from '../api/get-bio';
import { UserPosts } from './user-posts';

/** Another user's profile (spec: /profile/:username): name, bio and their questions and answers. */
export function UserProfile({ username }: { username: string }) {
  const [profile] = useRemoteData(`bio:${username}`, (signal) => getBio(username, signal));

  if (profile.status === 'loading') {
    return (
      <p className="muted" role="status">
        Loading user profile...
      </p>
    );
  }
  if (profile.status === 'error') {
    return (
      <p className="inline-error" role="alert">
        Failed to load user profile
      </p>
    );
  }
  return (
    <>
      <section className="card profile-card" aria-labelledby="user-profile-username">
        <ProfileIcon className="profile-card__avatar" width="56" height="56" />
        <div className="profile-card__details">
          <h2 className="profile-card__name" id="user-profile-username">
            {profile.data.username}
          </h2>
          <p className="profile-bio">{profile.data.bio === '' ? DEFAULT_OTHER_BIO : profile.data.bio}</p>
        </div>
      </section>
      <UserPosts username={profile.data.username} />
    </>
  );
}
