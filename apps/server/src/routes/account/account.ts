import { LIMITS, MESSAGES, suspendedMessage } from '@porpoise/core';
import { findAccountByName, getAccount } from '../../queries/accounts.ts';
import { saveAccessibilitySettings } from '../../commands/account-settings.ts';
import {
  changePassword,
  confirmEmail,
  dropSession,
  liveToken,
  requestEmailChange,
  requestPasswordReset,
  resetPassword,
} from '../../commands/account-security.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerAccount } from '../../commands/register-account.ts';
import { upgradePasswordHash } from '../../commands/upgrade-password-hash.ts';
import { addressKey } from '../../auth/client-address.ts';
import { badRequest, forbidden, HttpError, unauthorized } from '../../http/http-error.ts';
import { getSuspension } from '../../queries/moderation.ts';
import { route } from '../../http/contract-routes.ts';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from '../../auth/password.ts';
import { clearSessionCookie, setSessionCookie } from '../../plugins/auth.ts';
import { presentAccount } from '../../presenters/account.ts';
import type { AccountRow } from '../../db/schema.ts';
import { followedTagNames } from '../../queries/notifications.ts';
import { setDigest } from '../../commands/notifications.ts';
import { bodyLimitFor } from '../../http/request-bodies.ts';

const invalidLogin = () => new HttpError(401, MESSAGES.invalidLogin);

/** Username, email, password and the spec's createdAt (an ISO time). */
const REGISTER_BODY_LIMIT = bodyLimitFor(LIMITS.usernameMax + LIMITS.emailMax + LIMITS.passwordMax + 64);
/** A one-time link's token (at most 200 characters) and a password. */
const TOKEN_BODY_LIMIT = bodyLimitFor(200 + LIMITS.passwordMax);
/** A current password (at most 1,000 characters) and a new password or email. */
const CHANGE_BODY_LIMIT = bodyLimitFor(1_000 + Math.max(LIMITS.passwordMax, LIMITS.emailMax));
/** loginInput's bounds: a username of up to 200 characters and a password of up to 1,000. */
const LOGIN_BODY_LIMIT = bodyLimitFor(200 + 1_000);

/** Registration, sign-in, sign-out and the current account (docs/product.md section 2). */
export async function accountRoutes(app: FastifyInstance) {
  const limits = app.config.rateLimits;

  /** The account as its owner sees it, with the tags it follows (read with it). */
  const presentOwn = async (account: AccountRow) => presentAccount(account, await followedTagNames(app.db, account.id));

  /** Ends any session the request arrived with, so a planted cookie never survives sign-in. */
  async function dropIncomingSession(request: FastifyRequest) {
    if (!request.session) return;
    await app.events.settle(dropSession(app.db, request.session));
  }

  // Counted before anything is read: 'Email already in use' tells whether an email has an
  // account, so each address learns that of at most 10 emails an hour.
  const countRegistration = async (request: FastifyRequest) =>
    app.rateLimiter.hit(`register:ip:${addressKey(request.ip)}`, limits.registerPerIp);
  const registerOptions = { bodyLimit: REGISTER_BODY_LIMIT, limit: countRegistration };
  route(app, 'addAccount', registerOptions, async ({ body: input }, request, reply) => {
    const account = await registerAccount(app.db, input, app.config.passwordHashing);
    await dropIncomingSession(request);
    const { token } = await app.sessions.create(account.id);
    setSessionCookie(reply, token);
    return presentAccount(account, []);
  });

  /**
   * Wrong passwords are counted per client address and per username at that address
   * (docs/product.md section 6), so failures elsewhere never refuse the owner. Each attempt
   * takes its place among the failures before its hash runs and gives it back when the
   * password proves right: parallel guesses cannot pass the limit, and right passwords
   * never count.
   */
  route(app, 'login', { bodyLimit: LOGIN_BODY_LIMIT }, async ({ body: input }, request, reply) => {
    const address = addressKey(request.ip);
    const perAddress = `login:ip:${address}`;
    const perUsername = `login:ip:${address}:user:${input.username.toLowerCase()}`;
    await app.rateLimiter.hitEach([
      { key: perUsername, rule: limits.loginFailuresPerUsernameAndAddress },
      { key: perAddress, rule: limits.loginFailuresPerAddress },
    ]);
    const account = await findAccountByName(app.db, input.username);
    // An unknown name costs the same hash as a wrong password, and gets the same answer.
    const hashing = app.config.passwordHashing;
    const valid = await verifyPassword(input.password, account?.passwordHash ?? (await decoyHash(hashing)));
    if (!account || !valid) throw invalidLogin();
    await app.rateLimiter.reset(perUsername);
    await app.rateLimiter.refund(perAddress);
    // A suspended member learns why, and until when, only with the right password (docs/product.md section 10).
    const suspension = await getSuspension(app.db, account.id);
    if (suspension) throw forbidden(suspendedMessage(suspension.until, suspension.reason));
    // A hash made with older, cheaper parameters is rewritten now; if that cannot run (every
    // hashing slot busy), the sign-in still succeeds and the next one tries again.
    let verifiedHash = account.passwordHash;
    if (needsRehash(account.passwordHash, hashing)) {
      const upgraded = await upgradePasswordHash(app.db, account, input.password, hashing).catch((error: unknown) => {
        request.log.warn({ err: error }, 'password hash upgrade postponed');
        return null;
      });
      verifiedHash = upgraded ?? verifiedHash;
    }
    await dropIncomingSession(request);
    // Only while the password is still the one just checked (a reset may have committed meanwhile).
    const session = await app.sessions.createIfPasswordStill(account.id, verifiedHash);
    if (!session) throw invalidLogin();
    setSessionCookie(reply, session.token);
    return presentOwn(account);
  });

  /**
   * Always the same answer, whether or not an account uses the email (docs/product.md section
   * 10): one statement finds the account and writes its link, and the mail leaves in the
   * background. Counted per client address and per email (and, in the command, 3 links an
   * hour per account), so neither a script nor a stranger can flood an inbox.
   */
  route(app, 'requestPasswordReset', { bodyLimit: bodyLimitFor(LIMITS.emailMax) }, async ({ body }, request) => {
    await app.rateLimiter.hitEach([
      { key: `reset:ip:${addressKey(request.ip)}`, rule: limits.resetRequestsPerAddress },
      { key: `reset:email:${body.email.normalize('NFC').toLowerCase()}`, rule: limits.resetRequestsPerEmail },
    ]);
    await app.events.settle(requestPasswordReset(app.db, body.email));
    return { ok: true } as const;
  });

  /**
   * The password is checked by the rules first (a refused one leaves the link working),
   * then the link, before the hash is paid for; setting it uses the link up.
   */
  route(app, 'resetPassword', { bodyLimit: TOKEN_BODY_LIMIT }, async ({ body }) => {
    if ((await liveToken(app.db, body.token, 'password')) === null) throw badRequest(MESSAGES.linkExpired);
    const passwordHash = await hashPassword(body.password, app.config.passwordHashing);
    await app.events.settle(resetPassword(app.db, body.token, passwordHash));
    return { ok: true } as const;
  });

  /**
   * The member's current password, checked as a sign-in is: each attempt counts against
   * the account before the hash runs and is given back when it proves right.
   */
  async function checkCurrentPassword(accountId: number, currentPassword: string) {
    const key = `current-password:${accountId}`;
    await app.rateLimiter.hit(key, limits.currentPasswordFailuresPerAccount);
    const account = await getAccount(app.db, accountId);
    if (!account || !(await verifyPassword(currentPassword, account.passwordHash))) {
      throw badRequest(MESSAGES.currentPasswordIncorrect);
    }
    await app.rateLimiter.refund(key);
    return account;
  }

  /**
   * Every session of the account ends, this one too, and the member gets a new one
   * (docs/product.md section 10): a copied cookie dies with the old password. The new session is
   * made only while the password is still the one just set (a reset meanwhile wins).
   */
  route(app, 'changePassword', { bodyLimit: CHANGE_BODY_LIMIT }, async ({ actor, body }, request, reply) => {
    if (!request.session) throw unauthorized();
    await checkCurrentPassword(actor.id, body.currentPassword);
    const passwordHash = await hashPassword(body.newPassword, app.config.passwordHashing);
    await app.events.settle(changePassword(app.db, actor.id, passwordHash));
    const session = await app.sessions.createIfPasswordStill(actor.id, passwordHash);
    if (session) setSessionCookie(reply, session.token);
    else clearSessionCookie(reply);
    return { ok: true } as const;
  });

  route(app, 'changeEmail', { bodyLimit: CHANGE_BODY_LIMIT }, async ({ actor, body }) => {
    const account = await checkCurrentPassword(actor.id, body.currentPassword);
    await app.rateLimiter.hit(`email-change:${actor.id}`, limits.emailChangesPerAccount);
    await app.events.settle(requestEmailChange(app.db, account, body.newEmail));
    return { ok: true } as const;
  });

  // A page with a 'Confirm Email' button sends this, so a mail scanner opening the link changes nothing.
  route(app, 'confirmEmail', { bodyLimit: bodyLimitFor(200) }, async ({ body }) => {
    await app.events.settle(confirmEmail(app.db, body.token));
    return { ok: true } as const;
  });

  route(app, 'logout', { bodyLimit: bodyLimitFor(0) }, async (_input, request, reply) => {
    await dropIncomingSession(request);
    clearSessionCookie(reply);
    return { ok: true } as const;
  });

  route(app, 'me', {}, async (_input, request) => {
    if (!request.session) throw unauthorized();
    const account = await getAccount(app.db, request.session.accountId);
    if (!account) throw unauthorized();
    return presentOwn(account);
  });

  /**
   * Only the signed-in account's own settings: another username in the payload is a 403.
   * The spec's payload carries the account (username, email) with them.
   */
  const settings = {
    bodyLimit: bodyLimitFor(LIMITS.usernameMax + LIMITS.emailMax),
    namesActor: ({ body }: { body: { username: string } }) => body.username,
  };
  route(app, 'saveAccessibilitySettings', settings, async ({ actor, body: input }) =>
    presentOwn(await saveAccessibilitySettings(app.db, actor.id, input.accessibilitySettings)),
  );

  // docs/product.md section 11: how often the email digest comes.
  route(app, 'setDigest', { bodyLimit: bodyLimitFor(16) }, async ({ actor, body: { digest } }) => {
    await setDigest(app.db, actor.id, digest);
    const account = await getAccount(app.db, actor.id);
    if (!account) throw unauthorized();
    return presentOwn(account);
  });
}
