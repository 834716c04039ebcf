import { CenteredCard } from '@/components/centered-card';
import { DocumentTitle } from '@/components/document-title';
import { LoginForm } from '@/features/auth/components/login-form';

export function LoginRoute() {
  return (
    <CenteredCard>
      <DocumentTitle title="Sign In" />
      <h1 className="card__title">Sign In</h1>
      <LoginForm />
    </CenteredCard>
  );
}
