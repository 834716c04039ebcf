import { MESSAGES } from '@porpoise/core';
import { CenteredCard } from '@/components/centered-card';
import { useLinkToken } from '@/features/auth/hooks/use-link-token';
import { DocumentTitle } from '@/components/document-title';
import { FormError } from '@/components/form-error';
import { ConfirmEmail } from '@/features/auth/components/confirm-email';

export function ConfirmEmailRoute() {
  const token = useLinkToken();
  return (
    <CenteredCard>
      <DocumentTitle title="Confirm Email" />
      <h1 className="card__title">Confirm Email</h1>
      {token === '' ? <FormError message={MESSAGES.linkExpired} /> : <ConfirmEmail token={token} />}
    </CenteredCard>
  );
}
