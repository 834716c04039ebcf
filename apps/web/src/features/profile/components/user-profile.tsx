import { DEFAULT_OTHER_BIO } from '@porpoise/core';
import { Deferred, LoadingText } from '@/components/deferred';
import { ProfileIcon } from '@/components/icons';
import type { ProfileData } from '../api/profile-data';
import { UserPosts } from './user-posts';

/** Another user's profile (spec: /profile/:username): name, bio and their questions and answers. */
export function UserProfile({ data }: { data: ProfileData }) {
  return (
    <Deferred
      data={data.profile}
      loading={<LoadingText>Loading user profile...</LoadingText>}
      failed={() => (
        <p className="inline-error" role="alert">
          Failed to load user profile
        </p>
      )}
    >
      {(profile) => (
        <>
          <section className="card profile-card" aria-labelledby="user-profile-username">
            <ProfileIcon className="profile-card__avatar" width="56" height="56" />
            <div className="profile-card__details">
              <h2 className="profile-card__name" id="user-profile-username">
                {profile.username}
              </h2>
              <p className="profile-bio">{profile.bio === '' ? DEFAULT_OTHER_BIO : profile.bio}</p>
            </div>
          </section>
          <UserPosts questions={data.questions} answers={data.answers} />
        </>
      )}
    </Deferred>
  );
}
