import { CenteredCard } from '@/components/centered-card';
import { DocumentTitle } from '@/components/document-title';
import { RegisterForm } from '@/features/auth/components/register-form';

export function RegisterRoute() {
  return (
    <CenteredCard>
      <DocumentTitle title="Create Your Account" />
      <h1 className="card__title">Create Your Account</h1>
      <RegisterForm />
    </CenteredCard>
  );
}
