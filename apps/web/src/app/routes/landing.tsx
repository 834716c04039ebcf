import { Link, useSearchParams } from 'react-router';
import { safeRedirectPath } from '@porpoise/core';
import { CenteredCard } from '@/components/centered-card';
import { DocumentTitle } from '@/components/document-title';
import { REDIRECT_PARAM, paths } from '@/config/paths';
import { useOptionalAccount } from '@/features/auth/hooks/use-account';
import { PorpEntryForm } from '@/features/porpchat/components/porp-entry-form';

/**
 * / and /porp: the PorpChat entry, with the ways into an account when signed out and the
 * way to the questions when signed in (spec section 2, docs/product.md section 2).
 */
export function LandingRoute() {
  const account = useOptionalAccount();
  const [searchParams] = useSearchParams();
  // Passed on only when it is a path of this site; /login checks it again before following it.
  const redirectTo = safeRedirectPath(searchParams.get(REDIRECT_PARAM)) ?? undefined;
  return (
    <CenteredCard>
      <DocumentTitle title="Welcome to PorpChat" />
      <h1 className="card__title">Welcome to PorpChat!</h1>
      <p className="card__lead">Chat with everyone here, no account needed. Choose a name to join.</p>
      <PorpEntryForm />
      <nav className="card__links" aria-label="Account">
        {account === null ? (
          <>
            <Link to={paths.login(redirectTo)}>Sign In</Link>
            <Link to={paths.register()}>Create Your Account</Link>
          </>
        ) : (
          <Link to={paths.home()} className="card__link--primary">
            Go to Questions
          </Link>
        )}
      </nav>
    </CenteredCard>
  );
}
