// Issue 20 items 1-3: mail through a real SMTP exchange, password reset, password and email
// changes (docs/product.md section 10), on both databases.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MESSAGES } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { DATABASE_KINDS } from '../../test/databases.ts';
import { requestPasswordReset, sweepDeadLinks } from '../../commands/account-security.ts';
import { hashToken } from '../../auth/sessions.ts';
import { accountIdOf, registerUser, sessionCookie, uniqueName, type TestUser } from '../../test/factories.ts';
import { startSmtpInbox, type ReceivedMail, type SmtpInbox } from '../../test/smtp-inbox.ts';
import { connected, openSocket } from '../../test/sockets.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { captureLog } from '../../test/log-capture.ts';

const PUBLIC = 'https://porpoise.example';

/** The token of the link in a mail to `page` (/reset-password or /confirm-email). */
function tokenIn(mail: ReceivedMail, page: string): string {
  const start = mail.text.indexOf(`${PUBLIC}${page}?token=`);
  expect(start, mail.text).toBeGreaterThanOrEqual(0);
  const rest = mail.text.slice(start + `${PUBLIC}${page}?token=`.length);
  const token = rest.slice(0, rest.search(/[^A-Za-z0-9_-]|$/));
  expect(token.length).toBeGreaterThan(20);
  expect(mail.html).toContain(`${PUBLIC}${page}?token=${token}`);
  return token;
}

describe.each(DATABASE_KINDS)('mail, password reset and account settings on %s', (kind) => {
  let t: TestApp;
  let inbox: SmtpInbox;

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    t = await startTestApp(kind, {
      env: { SMTP_URL: inbox.url, MAIL_FROM: 'Porpoise <porpoise@porpoise.example>' },
      configure: (config) => {
        // What PUBLIC_URL gives links (the variable itself would also hold requests to its host).
        config.linkBase = PUBLIC;
        config.mail.retryDelaysMs = [20, 20];
        config.rateLimits.resetRequestsPerEmail = { max: 3, windowMs: 60 * 60_000 };
        // Above what this file's other tests ask from their one address; the limit's own test uses another.
        config.rateLimits.resetRequestsPerAddress = { max: 100, windowMs: 60 * 60_000 };
        config.rateLimits.currentPasswordFailuresPerAccount = { max: 4, windowMs: 10 * 60_000 };
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await inbox.close();
  });

  const post = (url: string, payload: object, cookie?: string, remoteAddress = '127.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: `/api/account/${url}`,
      payload,
      headers: cookie ? { cookie } : {},
      remoteAddress,
    });
  const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/account/me', headers: { cookie } });
  const login = (username: string, password: string) => post('login', { username, password });
  const tokenRows = async (accountId?: number) =>
    (
      await queryRows<{ n: number }>(
        t.app.db,
        accountId === undefined
          ? sql`select count(*)::int as n from account_tokens`
          : sql`select count(*)::int as n from account_tokens where account_id = ${accountId}`,
      )
    )[0]?.n;

  async function member(): Promise<TestUser> {
    return registerUser(t.app, { username: uniqueName('acct'), password: 'first-password' });
  }

  const emailOf = async (accountId: number) =>
    (await queryRows<{ email: string }>(t.app.db, sql`select email from accounts where id = ${accountId}`))[0]?.email;

  /** Moves the account's email from `from` to `to` by the mailed link; returns the revert link's token mailed to `from`. */
  async function moveEmail(cookie: string, password: string, from: string, to: string): Promise<string> {
    const asked = await post('changeEmail', { newEmail: to, currentPassword: password }, cookie);
    expect(asked.statusCode).toBe(200);
    const confirmed = await post('confirmEmail', { token: tokenIn(await inbox.next(to), '/confirm-email') });
    expect(confirmed.statusCode).toBe(200);
    const notice = await inbox.next(from);
    expect(notice.subject).toBe('Your Porpoise email was changed');
    return tokenIn(notice, '/confirm-email');
  }

  /** Waits for the server to close the socket; resolves with the reason. */
  const closing = (socket: ReturnType<typeof openSocket>) =>
    new Promise<string>((resolve) => socket.on('disconnect', (reason) => resolve(reason)));

  async function resetLink(user: TestUser): Promise<string> {
    const asked = await post('requestPasswordReset', { email: user.email.toUpperCase() });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ ok: true });
    return tokenIn(await inbox.next(user.email), '/reset-password');
  }

  describe('password reset', () => {
    it('mails a one-time link over SMTP; the new password signs in, the old one and every session end', async () => {
      const user = await member();
      const second = sessionCookie(await login(user.username, 'first-password'));
      const token = await resetLink(user);
      const mail = inbox.mails.find((each) => each.text.includes(token));
      expect(mail).toMatchObject({ subject: 'Reset your Porpoise password', from: 'porpoise@porpoise.example' });
      expect(mail?.text).toContain(`Hello ${user.username}`);
      expect(mail?.text).not.toContain('first-password');
      // The table holds only the token's hash.
      const stored = await queryRows<{ token_hash: string }>(
        t.app.db,
        sql`select token_hash from account_tokens where purpose = 'password'`,
      );
      const hashes = stored.map((row) => row.token_hash);
      expect(hashes).toContain(hashToken(token));
      expect(hashes).not.toContain(token);

      // A password the rules refuse leaves the link working.
      const weak = await post('resetPassword', { token, password: 'abc' });
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toMatchObject({ error: MESSAGES.passwordTooShort });

      const reset = await post('resetPassword', { token, password: 'second-password' });
      expect(reset.statusCode).toBe(200);
      expect((await me(user.cookie)).statusCode).toBe(401);
      expect((await me(second)).statusCode).toBe(401);
      expect((await login(user.username, 'first-password')).statusCode).toBe(401);
      expect((await login(user.username, 'second-password')).statusCode).toBe(200);

      const again = await post('resetPassword', { token, password: 'third-password' });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ error: MESSAGES.linkExpired });
    });

    it('answers an unknown email with the same answer as a known one, and writes and sends nothing', async () => {
      const before = await tokenRows();
      const sent = inbox.mails.length;
      const stranger = `${uniqueName('nobody')}@example.com`;
      const asked = await post('requestPasswordReset', { email: stranger });
      expect(asked.statusCode).toBe(200);
      expect(asked.json()).toEqual({ ok: true });
      await t.app.mailer.idle();
      expect(inbox.mails.length).toBe(sent);
      expect(await tokenRows()).toBe(before);
    });

    it('sends a suspended account no link, as for an unknown email; once the suspension ended, links again', async () => {
      const user = await member();
      const id = await accountIdOf(t.app, user.username);
      for (const until of [sql`now() + interval '1 day'`, sql`'infinity'::timestamptz`]) {
        await t.app.db.execute(
          sql`update accounts set suspended_until = ${until}, suspension_reason = 'spam' where id = ${id}`,
        );
        const sent = inbox.mails.length;
        const asked = await post('requestPasswordReset', { email: user.email });
        expect(asked.statusCode).toBe(200);
        expect(asked.json()).toEqual({ ok: true });
        await t.app.mailer.idle();
        expect(inbox.mails.length).toBe(sent);
        expect(await tokenRows(id)).toBe(0);
      }
      await t.app.db.execute(sql`update accounts set suspended_until = now() - interval '1 second' where id = ${id}`);
      const token = await resetLink(user);
      expect((await post('resetPassword', { token, password: 'second-password' })).statusCode).toBe(200);
    });

    it('refuses an expired link, an unknown one, and another purpose', async () => {
      const user = await member();
      const token = await resetLink(user);
      const id = await accountIdOf(t.app, user.username);
      await t.app.db.execute(
        sql`update account_tokens set expires_at = now() - interval '1 second' where account_id = ${id}`,
      );
      for (const tried of [token, 'not-a-token', '']) {
        const response = await post('resetPassword', { token: tried, password: 'second-password' });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ error: MESSAGES.linkExpired });
      }
      expect((await login(user.username, 'first-password')).statusCode).toBe(200);
    });

    it('uses a link up once when two resets race', async () => {
      const user = await member();
      const token = await resetLink(user);
      const answers = await Promise.all([
        post('resetPassword', { token, password: 'racer-one-password' }),
        post('resetPassword', { token, password: 'racer-two-password' }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    });

    it('writes an account at most 3 links an hour, however its email is spelled', async () => {
      // Past the route's per-email count (which keys on the email as typed), the command
      // itself counts the account's links: a spelling the database lowers alike gets nothing more.
      const user = await member();
      const id = await accountIdOf(t.app, user.username);
      const spellings = [
        user.email,
        user.email.toUpperCase(),
        user.email.replace(/^./, (c) => c.toUpperCase()),
        user.email,
      ];
      const events = [];
      for (const email of spellings) events.push((await requestPasswordReset(t.app.db, email)).events.length);
      expect(events).toEqual([1, 1, 1, 0]);
      expect(await tokenRows(id)).toBe(3);
    });

    it('limits requests per client address', async () => {
      const address = '10.77.0.1';
      for (let i = 0; i < 100; i++) {
        const response = await post(
          'requestPasswordReset',
          { email: `${uniqueName('any')}@example.com` },
          undefined,
          address,
        );
        expect(response.statusCode).toBe(200);
      }
      const blocked = await post(
        'requestPasswordReset',
        { email: `${uniqueName('any')}@example.com` },
        undefined,
        address,
      );
      expect(blocked.statusCode).toBe(429);
    });

    it('leaves no older link working once the password changed or the email moved', async () => {
      const user = await member();
      const token = await resetLink(user);
      const changed = await post(
        'changePassword',
        { currentPassword: 'first-password', newPassword: 'second-password' },
        user.cookie,
      );
      expect(changed.statusCode).toBe(200);
      const reset = await post('resetPassword', { token, password: 'third-password' });
      expect(reset.json()).toMatchObject({ error: MESSAGES.linkExpired });

      const other = await member();
      const resetToken = await resetLink(other);
      const firstMove = `${uniqueName('one')}@example.org`;
      const secondMove = `${uniqueName('two')}@example.org`;
      await post('changeEmail', { newEmail: firstMove, currentPassword: 'first-password' }, other.cookie);
      const first = tokenIn(await inbox.next(firstMove), '/confirm-email');
      await post('changeEmail', { newEmail: secondMove, currentPassword: 'first-password' }, other.cookie);
      const second = tokenIn(await inbox.next(secondMove), '/confirm-email');
      expect((await post('confirmEmail', { token: first })).statusCode).toBe(200);
      expect((await post('confirmEmail', { token: second })).json()).toMatchObject({ error: MESSAGES.linkExpired });
      expect((await post('resetPassword', { token: resetToken, password: 'x-password' })).json()).toMatchObject({
        error: MESSAGES.linkExpired,
      });
    });

    it('sweeps links that can no longer work once their hour is over, and only those', async () => {
      const user = await member();
      const id = await accountIdOf(t.app, user.username);
      const live = await resetLink(user);
      await resetLink(user);
      // One used and one expired, both made over an hour ago; the live one too.
      await t.app.db.execute(
        sql`update account_tokens set created_at = now() - interval '2 hours' where account_id = ${id}`,
      );
      await t.app.db.execute(
        sql`update account_tokens set used_at = now() where account_id = ${id} and token_hash <> ${hashToken(live)}`,
      );
      expect(await sweepDeadLinks(t.app.db)).toBeGreaterThanOrEqual(1);
      expect(await tokenRows(id)).toBe(1);
      expect((await post('resetPassword', { token: live, password: 'swept-password' })).statusCode).toBe(200);
    });

    it('limits requests per email', async () => {
      const user = await member();
      for (let i = 0; i < 3; i++)
        expect((await post('requestPasswordReset', { email: user.email })).statusCode).toBe(200);
      expect((await post('requestPasswordReset', { email: user.email })).statusCode).toBe(429);
      // The same for an email no account uses: the limit tells nothing about accounts.
      const stranger = `${uniqueName('nobody')}@example.com`;
      for (let i = 0; i < 3; i++)
        expect((await post('requestPasswordReset', { email: stranger })).statusCode).toBe(200);
      expect((await post('requestPasswordReset', { email: stranger })).statusCode).toBe(429);
    });

    it('closes the open sockets of the sessions a reset ends', async () => {
      const user = await member();
      const socket = openSocket(t.url, { cookie: user.cookie });
      try {
        await connected(socket);
        const closed = new Promise<string>((resolve) => socket.on('disconnect', (reason) => resolve(reason)));
        const token = await resetLink(user);
        expect((await post('resetPassword', { token, password: 'second-password' })).statusCode).toBe(200);
        expect(await closed).toBe('io server disconnect');
      } finally {
        socket.close();
      }
    });
  });

  describe('mail delivery', () => {
    it('answers before a slow mail server has the mail, and delivers it after', async () => {
      const user = await member();
      const release = inbox.hold();
      try {
        const asked = await post('requestPasswordReset', { email: user.email });
        expect(asked.statusCode).toBe(200);
        expect(inbox.mails.some((mail) => mail.to.includes(user.email.toLowerCase()))).toBe(false);
      } finally {
        release();
      }
      expect(tokenIn(await inbox.next(user.email), '/reset-password')).not.toBe('');
    });

    it('tries a refused mail again until the server takes it', async () => {
      const user = await member();
      const refusedBefore = inbox.refused();
      inbox.refuseNext(2);
      await post('requestPasswordReset', { email: user.email });
      expect(tokenIn(await inbox.next(user.email), '/reset-password')).not.toBe('');
      expect(inbox.refused() - refusedBefore).toBe(2);
    });
  });

  describe('changing the password', () => {
    it('needs the current password, then ends every other session', async () => {
      const user = await member();
      const other = sessionCookie(await login(user.username, 'first-password'));
      const wrong = await post(
        'changePassword',
        { currentPassword: 'nope', newPassword: 'second-password' },
        user.cookie,
      );
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ error: MESSAGES.currentPasswordIncorrect });
      const weak = await post('changePassword', { currentPassword: 'first-password', newPassword: 'a' }, user.cookie);
      expect(weak.json()).toMatchObject({ error: MESSAGES.passwordTooShort });

      const changed = await post(
        'changePassword',
        { currentPassword: 'first-password', newPassword: 'second-password' },
        user.cookie,
      );
      expect(changed.statusCode).toBe(200);
      expect((await me(sessionCookie(changed))).statusCode).toBe(200);
      expect((await me(other)).statusCode).toBe(401);
      expect((await login(user.username, 'second-password')).statusCode).toBe(200);
    });

    it('replaces the session that made the change: a new cookie works, the old token and its socket end', async () => {
      const user = await member();
      const socket = openSocket(t.url, { cookie: user.cookie });
      try {
        await connected(socket);
        const closed = closing(socket);
        const changed = await post(
          'changePassword',
          { currentPassword: 'first-password', newPassword: 'second-password' },
          user.cookie,
        );
        expect(changed.statusCode).toBe(200);
        const renewed = sessionCookie(changed);
        expect(renewed).not.toBe(user.cookie);
        expect(await closed).toBe('io server disconnect');
        expect((await me(user.cookie)).statusCode).toBe(401);
        expect((await me(renewed)).json()).toMatchObject({ username: user.username });
      } finally {
        socket.close();
      }
    });

    it('makes no session for a sign-in whose checked password changed before its session was written', async () => {
      const user = await member();
      const id = await accountIdOf(t.app, user.username);
      const [before] = await queryRows<{ hash: string }>(
        t.app.db,
        sql`select password_hash as hash from accounts where id = ${id}`,
      );
      const changed = await post(
        'changePassword',
        { currentPassword: 'first-password', newPassword: 'second-password' },
        user.cookie,
      );
      expect(changed.statusCode).toBe(200);
      // What a sign-in that had checked the old password would ask for now.
      expect(await t.app.sessions.createIfPasswordStill(id, before?.hash ?? '')).toBeNull();
      const [after] = await queryRows<{ hash: string }>(
        t.app.db,
        sql`select password_hash as hash from accounts where id = ${id}`,
      );
      expect(await t.app.sessions.createIfPasswordStill(id, after?.hash ?? '')).toMatchObject({
        token: expect.any(String) as unknown,
      });
    });

    it('counts wrong current passwords per account', async () => {
      const user = await member();
      for (let i = 0; i < 4; i++) {
        const response = await post(
          'changePassword',
          { currentPassword: 'nope', newPassword: 'x-password' },
          user.cookie,
        );
        expect(response.statusCode).toBe(400);
      }
      const blocked = await post(
        'changePassword',
        { currentPassword: 'first-password', newPassword: 'x-password' },
        user.cookie,
      );
      expect(blocked.statusCode).toBe(429);
    });

    it('is for members only', async () => {
      const response = await post('changePassword', { currentPassword: 'a', newPassword: 'second-password' });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('changing the email', () => {
    it('mails a link to the new address; the email changes when it is confirmed, and the old address is told', async () => {
      const user = await member();
      const newEmail = `${uniqueName('moved')}@example.org`;
      const wrong = await post('changeEmail', { newEmail, currentPassword: 'nope' }, user.cookie);
      expect(wrong.json()).toMatchObject({ error: MESSAGES.currentPasswordIncorrect });
      const asked = await post('changeEmail', { newEmail, currentPassword: 'first-password' }, user.cookie);
      expect(asked.statusCode).toBe(200);
      const token = tokenIn(await inbox.next(newEmail), '/confirm-email');
      // Not yet: only the confirmation changes it.
      expect((await me(user.cookie)).json()).toMatchObject({ email: user.email });

      const confirmed = await post('confirmEmail', { token });
      expect(confirmed.statusCode).toBe(200);
      expect((await me(user.cookie)).json()).toMatchObject({ email: newEmail });
      const notice = await inbox.next(user.email);
      expect(notice.subject).toBe('Your Porpoise email was changed');
      expect(notice.text).toContain(newEmail);
      const revert = tokenIn(notice, '/confirm-email');

      const again = await post('confirmEmail', { token });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ error: MESSAGES.linkExpired });
      // A reset now goes to the new address.
      await post('requestPasswordReset', { email: newEmail });
      expect(tokenIn(await inbox.next(newEmail), '/reset-password')).not.toBe('');

      // The old address moves the account back with the link it was sent, and is sent a reset
      // link; the address left is sent nothing.
      const sent = inbox.mails.length;
      expect((await post('confirmEmail', { token: revert })).statusCode).toBe(200);
      expect(await emailOf(await accountIdOf(t.app, user.username))).toBe(user.email);
      expect(tokenIn(await inbox.next(user.email), '/reset-password')).not.toBe('');
      await t.app.mailer.idle();
      expect(inbox.mails.length).toBe(sent + 1);
    });

    it('keeps the revert link through a password change and another move; it moves back, ends every session and mails a reset link', async () => {
      const owner = await member();
      const id = await accountIdOf(t.app, owner.username);
      // Someone holding the password moves the email, changes the password, moves the email again.
      const thief = sessionCookie(await login(owner.username, 'first-password'));
      const taken = `${uniqueName('taken')}@example.org`;
      const revert = await moveEmail(thief, 'first-password', owner.email, taken);
      const changed = await post(
        'changePassword',
        { currentPassword: 'first-password', newPassword: 'thief-password' },
        thief,
      );
      expect(changed.statusCode).toBe(200);
      const thiefNow = sessionCookie(changed);
      const laterRevert = await moveEmail(thiefNow, 'thief-password', taken, `${uniqueName('further')}@example.org`);

      const socket = openSocket(t.url, { cookie: thiefNow });
      try {
        await connected(socket);
        const closed = closing(socket);
        expect((await post('confirmEmail', { token: revert })).statusCode).toBe(200);
        expect(await closed).toBe('io server disconnect');
      } finally {
        socket.close();
      }
      expect(await emailOf(id)).toBe(owner.email);
      for (const cookie of [owner.cookie, thief, thiefNow]) expect((await me(cookie)).statusCode).toBe(401);
      const reset = await inbox.next(owner.email);
      expect(reset.subject).toBe('Reset your Porpoise password');
      const token = tokenIn(reset, '/reset-password');
      expect((await post('resetPassword', { token, password: 'owner-password' })).statusCode).toBe(200);
      expect((await login(owner.username, 'owner-password')).statusCode).toBe(200);

      // The link made after it, to the address the owner had left, moves nothing back; the revert worked once.
      for (const used of [laterRevert, revert]) {
        expect((await post('confirmEmail', { token: used })).json()).toMatchObject({ error: MESSAGES.linkExpired });
      }
      expect(await emailOf(id)).toBe(owner.email);
    });

    it('leaves an earlier revert link working when a later one is used first (A -> B -> C, B moves back first)', async () => {
      const owner = await member();
      const id = await accountIdOf(t.app, owner.username);
      const second = `${uniqueName('second')}@example.org`;
      const third = `${uniqueName('third')}@example.org`;
      const toFirst = await moveEmail(owner.cookie, 'first-password', owner.email, second);
      const toSecond = await moveEmail(owner.cookie, 'first-password', second, third);

      expect((await post('confirmEmail', { token: toSecond })).statusCode).toBe(200);
      expect(await emailOf(id)).toBe(second);
      const secondReset = tokenIn(await inbox.next(second), '/reset-password');

      expect((await post('confirmEmail', { token: toFirst })).statusCode).toBe(200);
      expect(await emailOf(id)).toBe(owner.email);
      expect(tokenIn(await inbox.next(owner.email), '/reset-password')).not.toBe('');
      // Whatever the second address was given is used up.
      expect((await post('resetPassword', { token: secondReset, password: 'x-password' })).json()).toMatchObject({
        error: MESSAGES.linkExpired,
      });
      expect((await post('confirmEmail', { token: toSecond })).json()).toMatchObject({ error: MESSAGES.linkExpired });
      expect(await emailOf(id)).toBe(owner.email);
    });

    it('refuses an address another account uses, or its own, and a bad one', async () => {
      const user = await member();
      const other = await member();
      const taken = await post(
        'changeEmail',
        { newEmail: other.email, currentPassword: 'first-password' },
        user.cookie,
      );
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toMatchObject({ error: MESSAGES.emailInUse });
      const own = await post('changeEmail', { newEmail: user.email, currentPassword: 'first-password' }, user.cookie);
      expect(own.json()).toMatchObject({ error: MESSAGES.emailUnchanged });
      const bad = await post(
        'changeEmail',
        { newEmail: 'not-an-email', currentPassword: 'first-password' },
        user.cookie,
      );
      expect(bad.json()).toMatchObject({ error: MESSAGES.emailInvalid });
    });

    it('refuses a confirmation when another account took the address meanwhile', async () => {
      const user = await member();
      const newEmail = `${uniqueName('race')}@example.org`;
      await post('changeEmail', { newEmail, currentPassword: 'first-password' }, user.cookie);
      const token = tokenIn(await inbox.next(newEmail), '/confirm-email');
      await registerUser(t.app, { email: newEmail });
      const confirmed = await post('confirmEmail', { token });
      expect(confirmed.statusCode).toBe(409);
      expect(confirmed.json()).toMatchObject({ error: MESSAGES.emailInUse });
      expect((await me(user.cookie)).json()).toMatchObject({ email: user.email });
    });
  });
});

describe('mail without an SMTP server', () => {
  it('is logged and written to MAIL_DIR as a .eml file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-mail-'));
    const { lines, logStream } = captureLog();
    const t = await startTestApp('pglite', { env: { MAIL_DIR: dir, PORT: '4321' }, logStream });
    try {
      const user = await registerUser(t.app);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/account/requestPasswordReset',
            payload: { email: user.email },
          })
        ).statusCode,
      ).toBe(200);
      await t.app.mailer.idle();
      const files = fs.readdirSync(dir).filter((name) => name.endsWith('.eml'));
      expect(files).toHaveLength(1);
      const eml = fs.readFileSync(path.join(dir, files[0] as string), 'utf8');
      expect(eml).toContain(`To: ${user.email}`);
      expect(eml).toContain('Subject: Reset your Porpoise password');
      expect(eml).toMatch(/Content-Type: text\/plain/);
      expect(eml).toMatch(/Content-Type: text\/html/);
      // Links start with http://localhost:PORT when PUBLIC_URL is unset.
      expect(eml.replace(/=\r?\n/g, '')).toContain('http://localhost:4321/reset-password?token=3D');
      expect(lines.some((line) => line.includes('mail (no SMTP_URL: not sent)') && line.includes(user.email))).toBe(
        true,
      );
    } finally {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(DATABASE_KINDS)('mail without an SMTP server on %s', (kind) => {
  it("logs each mail's recipient and subject, never a link's token; MAIL_DIR holds the whole mails", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-mail-'));
    const { lines, logStream } = captureLog();
    const t = await startTestApp(kind, { env: { MAIL_DIR: dir }, logStream });
    try {
      const post = (url: string, payload: object, cookie?: string) =>
        t.app.inject({ method: 'POST', url: `/api/account/${url}`, payload, headers: cookie ? { cookie } : {} });
      // Each .eml unfolded (quoted-printable soft breaks), with the token of its link.
      const emls = () =>
        fs
          .readdirSync(dir)
          .filter((name) => name.endsWith('.eml'))
          .map((name) => fs.readFileSync(path.join(dir, name), 'utf8').replace(/=\r?\n/g, ''))
          .map((text) => ({ text, token: /\?token=3D([A-Za-z0-9_-]{20,})/.exec(text)?.[1] ?? '' }));
      const user = await registerUser(t.app);
      const newEmail = `${uniqueName('moved')}@example.org`;
      // A reset link, a link confirming a new address, and the old address's link back.
      expect((await post('requestPasswordReset', { email: user.email })).statusCode).toBe(200);
      const asked = await post('changeEmail', { newEmail, currentPassword: user.password }, user.cookie);
      expect(asked.statusCode).toBe(200);
      await t.app.mailer.idle();
      const confirm = emls().find(({ text }) => text.includes(`To: ${newEmail}`));
      expect((await post('confirmEmail', { token: confirm?.token })).statusCode).toBe(200);
      await t.app.mailer.idle();

      const tokens = emls().map(({ token }) => token);
      expect(tokens).toHaveLength(3);
      for (const token of tokens) expect(token.length).toBeGreaterThan(20);
      const mailLines = lines.filter((line) => line.includes('mail (no SMTP_URL: not sent)'));
      expect(mailLines).toHaveLength(3);
      for (const [to, subject] of [
        [user.email, 'Reset your Porpoise password'],
        [newEmail, 'Confirm your new Porpoise email'],
        [user.email, 'Your Porpoise email was changed'],
      ] as const) {
        expect(mailLines.some((line) => line.includes(to) && line.includes(subject))).toBe(true);
      }
      for (const token of tokens) expect(lines.filter((line) => line.includes(token))).toEqual([]);
      expect(lines.filter((line) => line.includes('?token='))).toEqual([]);
    } finally {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
