import { useSearchParams } from 'react-router';
import { MESSAGES } from '@porpoise/core';
import { CenteredCard } from '@/components/centered-card';
import { DocumentTitle } from '@/components/document-title';
import { FormError } from '@/components/form-error';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

export function ResetPasswordRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  return (
    <CenteredCard>
      <DocumentTitle title="Choose a New Password" />
      <h1 className="card__title">Choose a New Password</h1>
      {token === '' ? <FormError message={MESSAGES.linkExpired} /> : <ResetPasswordForm token={token} />}
    </CenteredCard>
  );
}
