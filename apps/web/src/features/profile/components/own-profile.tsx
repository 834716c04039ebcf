import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Account } from '@porpoise/core';
import { ProfileIcon } from '@/components/icons';
import { paths } from '@/config/paths';
import { Deferred, LoadingText } from '@/components/deferred';
import type { ProfileData } from '../api/profile-data';
import { AccountSettings } from './account-settings';
import { BioEditor } from './bio-editor';
import { DigestSetting } from './digest-setting';
import { ProfileFacts } from './profile-facts';
import { ReputationHistory, ReputationTotal } from './reputation';
import { UserPosts } from './user-posts';

/**
 * The signed-in user's profile (spec: /profile): name, email, the sign-out control the
 * app passes in, the editable bio, their questions and answers, their reputation and its history
 * (docs/product.md section 13), the email digest (docs/product.md section 11) and the account's settings (password and email, docs/product.md section 10).
 */
export function OwnProfile({ account, data, signOut }: { account: Account; data: ProfileData; signOut: ReactNode }) {
  return (
    <>
      <section className="card profile-card" aria-labelledby="profile-username">
        <ProfileIcon className="profile-card__avatar" width="56" height="56" />
        <div className="profile-card__details">
          <h2 className="profile-card__name" id="profile-username">
            {account.username === '' ? 'Guest' : account.username}
          </h2>
          <dl className="details">
            <div>
              <dt>Email</dt>
              <dd>{account.email === '' ? 'Not provided' : account.email}</dd>
            </div>
          </dl>
          <Deferred data={data.profile} loading={null} failed={() => null}>
            {(profile) => <ProfileFacts profile={profile} />}
          </Deferred>
          <ReputationTotal reputation={data.reputation} />
          <p className="profile-card__settings">
            <Link to={paths.accessibilitySettings()}>Accessibility settings</Link>
          </p>
        </div>
        {signOut}
      </section>
      <Deferred
        data={data.profile}
        loading={<LoadingText>Loading bio…</LoadingText>}
        // A bio that failed to load counts as never written, so the default shows.
        failed={() => <BioEditor username={account.username} initialBio="" />}
      >
        {(profile) => <BioEditor username={account.username} initialBio={profile.bio} />}
      </Deferred>
      <UserPosts questions={data.questions} answers={data.answers} />
      <ReputationHistory reputation={data.reputation} own />
      <DigestSetting saved={account.digest} />
      <AccountSettings />
    </>
  );
}
