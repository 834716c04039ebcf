import { CenteredCard } from '@/components/centered-card';
import { DocumentTitle } from '@/components/document-title';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';

export function ForgotPasswordRoute() {
  return (
    <CenteredCard>
      <DocumentTitle title="Forgot Password" />
      <h1 className="card__title">Forgot Password</h1>
      <ForgotPasswordForm />
    </CenteredCard>
  );
}
