import type { DomainEvent } from '@porpoise/core';
import type { OutgoingMail } from '../mail/mailer.ts';
import { confirmEmailMail, emailChangedMail, passwordResetMail } from '../mail/templates.ts';

/** The mail an event sends, if any; links start with `linkBase` (PUBLIC_URL or http://localhost:PORT). */
export function mailFor(event: DomainEvent, linkBase: string): OutgoingMail | null {
  const link = (path: string, token: string) => `${linkBase}${path}?token=${encodeURIComponent(token)}`;
  switch (event.type) {
    case 'passwordResetRequested':
      return passwordResetMail(event.email, event.username, link('/reset-password', event.token));
    case 'emailChangeRequested':
      return confirmEmailMail(event.newEmail, event.username, link('/confirm-email', event.token));
    case 'emailChanged':
      if (event.revertToken === null) return null;
      return emailChangedMail(
        event.oldEmail,
        event.username,
        event.newEmail,
        link('/confirm-email', event.revertToken),
      );
    default:
      return null;
  }
}
