import { MESSAGES } from '@porpoise/core';
import { CenteredCard } from '@/components/centered-card';
import { DocumentTitle } from '@/components/document-title';
import { FormError } from '@/components/form-error';
import { useLinkToken } from '@/features/auth/hooks/use-link-token';
import { UnsubscribeDigest } from '@/features/notifications/components/unsubscribe-digest';

/** /unsubscribe?token=...: open to anyone holding the digest's link, no session needed (docs/product.md section 11). */
export function UnsubscribeRoute() {
  const token = useLinkToken();
  return (
    <CenteredCard>
      <DocumentTitle title="Unsubscribe from the Email Digest" />
      <h1 className="card__title">Unsubscribe from the Email Digest</h1>
      {token === '' ? <FormError message={MESSAGES.unsubscribeInvalid} /> : <UnsubscribeDigest token={token} />}
    </CenteredCard>
  );
}
