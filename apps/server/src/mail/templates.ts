/**
 * Every mail Porpoise sends, as text and HTML (docs/product.md section 10). Links start with
 * the public address; nothing a user typed is put into the HTML unescaped, and no mail
 * ever carries a password.
 */
import type { OutgoingMail } from './mailer.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** A short mail: a greeting, paragraphs, an optional button-like link, a closing line. */
function compose(
  to: string,
  subject: string,
  paragraphs: string[],
  action?: { label: string; href: string },
): OutgoingMail {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.href}`] : []), '— Porpoise'].join('\n\n');
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5; color: #1f2328">',
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ...(action
      ? [
          `<p><a href="${escapeHtml(action.href)}" style="display: inline-block; padding: 8px 16px; background: #0969da; color: #ffffff; border-radius: 6px; text-decoration: none">${escapeHtml(action.label)}</a></p>`,
          `<p style="color: #59636e">Or open this address: ${escapeHtml(action.href)}</p>`,
        ]
      : []),
    '<p>— Porpoise</p></body></html>',
  ].join('\n');
  return { to, subject, text, html };
}

export function passwordResetMail(to: string, username: string, link: string): OutgoingMail {
  return compose(
    to,
    'Reset your Porpoise password',
    [
      `Hello ${username},`,
      'Someone asked to reset the password of your Porpoise account. If it was you, choose a new password with the link below. It works once, for one hour.',
      'If it was not you, ignore this mail: your password stays as it is.',
    ],
    { label: 'Choose a new password', href: link },
  );
}

export function confirmEmailMail(to: string, username: string, link: string): OutgoingMail {
  return compose(
    to,
    'Confirm your new Porpoise email',
    [
      `Hello ${username},`,
      'Confirm that your Porpoise account should use this email address from now on. The link works once, for one hour; until you confirm, your account keeps its current address.',
    ],
    { label: 'Confirm this email', href: link },
  );
}

export function emailChangedMail(to: string, username: string, newEmail: string, revertLink: string): OutgoingMail {
  return compose(
    to,
    'Your Porpoise email was changed',
    [
      `Hello ${username},`,
      `Your Porpoise account now uses ${newEmail}; mail will no longer come to this address.`,
      'If you did not make this change, move the account back to this address with the link below (it works for a week): every session of the account ends, and a link to choose a new password comes to this address.',
    ],
    { label: 'Move my account back to this address', href: revertLink },
  );
}

/** What a digest says (docs/product.md section 11), as plain lines with their links. */
export interface DigestContent {
  notifications: Array<{ line: string; href: string }>;
  questions: Array<{ line: string; href: string }>;
  /** The page with the 'Unsubscribe' button, and the one-click address (RFC 8058). */
  unsubscribePage: string;
  oneClick: string;
}

/** The email digest: unread notifications and the week's top questions in followed tags, with a one-click unsubscribe. */
export function digestMail(to: string, username: string, content: DigestContent): OutgoingMail {
  const sections = [
    { heading: 'Unread notifications', items: content.notifications },
    { heading: 'Top questions this week in the tags you follow', items: content.questions },
  ].filter((section) => section.items.length > 0);
  const text = [
    `Hello ${username},`,
    ...sections.map((section) =>
      [section.heading, ...section.items.map((item) => `- ${item.line}\n  ${item.href}`)].join('\n'),
    ),
    `You get this digest because of your Porpoise email digest setting. Unsubscribe: ${content.unsubscribePage}`,
    '— Porpoise',
  ].join('\n\n');
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5; color: #1f2328">',
    `<p>${escapeHtml(`Hello ${username},`)}</p>`,
    ...sections.map(
      (section) =>
        `<h2 style="font-size: 1.1em">${escapeHtml(section.heading)}</h2><ul>${section.items
          .map(
            (item) => `<li><a href="${escapeHtml(item.href)}" style="color: #0969da">${escapeHtml(item.line)}</a></li>`,
          )
          .join('')}</ul>`,
    ),
    `<p style="color: #59636e">You get this digest because of your Porpoise email digest setting. <a href="${escapeHtml(content.unsubscribePage)}" style="color: #0969da">Unsubscribe</a></p>`,
    '<p>— Porpoise</p></body></html>',
  ].join('\n');
  return {
    to,
    subject: 'Your Porpoise digest',
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${content.oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
