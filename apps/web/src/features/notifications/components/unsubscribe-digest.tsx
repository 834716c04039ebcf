import { MailedLinkAction } from '@/components/mailed-link-action';
import { unsubscribeDigest } from '../api/unsubscribe';

export const UNSUBSCRIBED = 'You will no longer get the email digest.';

/**
 * The digest mail's unsubscribe link (docs/product.md section 11): nothing changes until
 * 'Unsubscribe' is pressed, so a mail scanner that opens the link changes nothing.
 */
export function UnsubscribeDigest({ token }: { token: string }) {
  return (
    <MailedLinkAction
      intro={
        <p>
          Porpoise mails you a digest of your unread notifications and the top questions in the tags you follow. Press
          the button to stop it. You can turn it on again from your profile.
        </p>
      }
      label="Unsubscribe"
      act={() => unsubscribeDigest(token)}
      done={UNSUBSCRIBED}
    />
  );
}
