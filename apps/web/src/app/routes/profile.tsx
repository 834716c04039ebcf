import { DocumentTitle } from '@/components/document-title';
import { ProfileIcon } from '@/components/icons';
import { SignOutButton } from '@/features/auth/components/sign-out-button';
import { useAccount } from '@/features/auth/hooks/use-account';

/** The signed-in user's own profile (spec: /profile). */
export function ProfileRoute() {
  const account = useAccount();
  return (
    <>
      <DocumentTitle title="Profile" />
      <h1 className="page-title">Profile</h1>
      <section className="card profile-card" aria-labelledby="profile-username">
        <ProfileIcon className="profile-card__avatar" width="56" height="56" />
        <div className="profile-card__details">
          <h2 className="profile-card__name" id="profile-username">
            {account.username}
          </h2>
          <dl className="details">
            <div>
              <dt>Email</dt>
              <dd>{account.email}</dd>
            </div>
          </dl>
        </div>
        <SignOutButton />
      </section>
      <p className="muted">Your bio, questions and answers are coming soon.</p>
    </>
  );
}
