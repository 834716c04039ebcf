import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Account } from '@porpoise/core';
import { ProfileIcon } from '@/components/icons';
import { paths } from '@/config/paths';
import { useRemoteData } from '@/hooks/use-remote-data';
import { getBio } from '../api/get-bio';
import { BioEditor } from './bio-editor';
import { UserPosts } from './user-posts';

/**
 * The signed-in user's profile (spec: /profile): name, email, the sign-out control the
 * app passes in, the editable bio and their questions and answers.
 */
export function OwnProfile({ account, signOut }: { account: Account; signOut: ReactNode }) {
  const [bio] = useRemoteData(`bio:${account.username}`, (signal) => getBio(account.username, signal));
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
          <p className="profile-card__settings">
            <Link to={paths.accessibilitySettings()}>Accessibility settings</Link>
          </p>
        </div>
        {signOut}
      </section>
      {bio.status === 'loading' ? (
        <p className="muted" role="status">
          Loading bio…
        </p>
      ) : (
        // A bio that failed to load counts as never written, so the default shows.
        <BioEditor username={account.username} initialBio={bio.status === 'ready' ? bio.data.bio : ''} />
      )}
      <UserPosts username={account.username} />
    </>
  );
}
