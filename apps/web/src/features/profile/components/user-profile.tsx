import type { ReactNode } from 'react';
import { DEFAULT_OTHER_BIO, type ProfileDetail } from '@porpoise/core';
import { Deferred, LoadingText } from '@/components/deferred';
import { ProfileIcon } from '@/components/icons';
import type { ProfileData } from '../api/profile-data';
import { ProfileFacts } from './profile-facts';
import { ReputationHistory, ReputationTotal } from './reputation';
import { UserPosts } from './user-posts';

/**
 * Another user's profile (spec: /profile/:username): name, bio, when they joined, their
 * questions and answers, their reputation and its history (docs/product.md section 13), and the control the app passes in (its 'Message' button).
 */
export function UserProfile({ data, action }: { data: ProfileData; action?: (profile: ProfileDetail) => ReactNode }) {
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
              <ProfileFacts profile={profile} />
              <ReputationTotal reputation={data.reputation} />
              <p className="profile-bio">{profile.bio === '' ? DEFAULT_OTHER_BIO : profile.bio}</p>
            </div>
            {action?.(profile)}
          </section>
          <UserPosts questions={data.questions} answers={data.answers} />
          <ReputationHistory reputation={data.reputation} own={false} />
        </>
      )}
    </Deferred>
  );
}
