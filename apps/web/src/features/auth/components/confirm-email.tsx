import { Link } from 'react-router';
import { MESSAGES } from '@porpoise/core';
import { MailedLinkAction } from '@/components/mailed-link-action';
import { paths } from '@/config/paths';
import { confirmEmail } from '../api/password-reset';

/**
 * /confirm-email?token=... (docs/product.md section 10): nothing changes until 'Confirm Email'
 * is pressed, so a mail scanner that opens the link changes nothing.
 */
export function ConfirmEmail({ token }: { token: string }) {
  return (
    <MailedLinkAction
      intro={<p>Confirm that your account should use the address this link was sent to.</p>}
      label="Confirm Email"
      act={() => confirmEmail(token)}
      done={MESSAGES.emailConfirmed}
      after={
        <p className="form__alternative">
          <Link to={paths.profile()}>Go to your profile</Link>
        </p>
      }
    />
  );
}
