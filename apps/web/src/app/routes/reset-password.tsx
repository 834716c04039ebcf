import { MESSAGES } from '@porpoise/core';
import { CenteredCard } from '@/components/centered-card';
import { useLinkToken } from '@/features/auth/hooks/use-link-token';
import { DocumentTitle } from '@/components/document-title';
import { FormError } from '@/components/form-error';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

export function ResetPasswordRoute() {
  const token = useLinkToken();
  return (
    <CenteredCard>
      <DocumentTitle title="Choose a New Password" />
      <h1 className="card__title">Choose a New Password</h1>
      {token === '' ? <FormError message={MESSAGES.linkExpired} /> : <ResetPasswordForm token={token} />}
    </CenteredCard>
  );
}
