import { MESSAGES, READING_COMFORT_DEFAULTS } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { DATABASE_KINDS } from '../../test/databases.ts';
import { registerUser, sessionCookie, uniqueName } from '../../test/factories.ts';
import { captureLog } from '../../test/log-capture.ts';
import { startTestApp, TEST_PASSWORD_PARAMS, type TestApp } from '../../test/test-app.ts';

describe.each(DATABASE_KINDS)('accounts on %s', (kind) => {
  let t: TestApp;
  const { lines: logLines, logStream } = captureLog();

  beforeAll(async () => {
    t = await startTestApp(kind, { logStream });
  });
  afterAll(async () => t.close());

  const register = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/account/addAccount', payload, headers });
  const login = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/account/login', payload, headers });
  const me = (cookie?: string) =>
    t.app.inject({ method: 'GET', url: '/api/account/me', headers: cookie ? { cookie } : {} });
  const accountCount = async () =>
    Number((await queryRows<{ n: number }>(t.app.db, sql`select count(*)::int as n from accounts`))[0]?.n);

  describe('registration', () => {
    it('creates the account, signs it in and returns it without secrets', async () => {
      const username = uniqueName('Reg');
      const response = await register({
        username,
        email: `${username}@example.com`,
        password: 'secret1',
        createdAt: new Date().toISOString(),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        username,
        email: `${username}@example.com`,
        // The first account of the installation is its admin; any later one a member.
        role: expect.stringMatching(/^(admin|member)$/) as unknown,
        createdAt: expect.any(String) as unknown,
        accessibilitySettings: { lowVision: false, colorBlindness: 'none', ...READING_COMFORT_DEFAULTS },
        accessibilitySettingsSaved: false,
        followedTags: [],
        digest: 'weekly',
        reputation: 1,
      });
      const cookie = response.cookies.find((c) => c.name === 'porpoise_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie?.secure).toBeFalsy();
      const current = await me(sessionCookie(response));
      expect(current.statusCode).toBe(200);
      expect(current.json()).toMatchObject({ username });
    });

    it('stores only a salted slow hash of the password', async () => {
      const user = await registerUser(t.app, { password: 'plain-secret-1' });
      const rows = await queryRows<{ password_hash: string }>(
        t.app.db,
        sql`select password_hash from accounts where username = ${user.username}`,
      );
      const hash = rows[0]?.password_hash ?? '';
      // The test app's cheap parameters; trust/password-hashing.test.ts proves production's.
      expect(hash.startsWith(`scrypt$${TEST_PASSWORD_PARAMS.N}$8$1$`)).toBe(true);
      expect(hash).not.toContain('plain-secret-1');
      const other = await registerUser(t.app, { password: 'plain-secret-1' });
      const otherRows = await queryRows<{ password_hash: string }>(
        t.app.db,
        sql`select password_hash from accounts where username = ${other.username}`,
      );
      expect(otherRows[0]?.password_hash).not.toBe(hash);
    });

    it.each([
      ['a taken username, in any case', 'username', MESSAGES.usernameInUse, 409],
      ['a taken email, in any case', 'email', MESSAGES.emailInUse, 409],
    ])('refuses %s', async (_label, field, message, status) => {
      const existing = await registerUser(t.app);
      const username = field === 'username' ? existing.username.toUpperCase() : uniqueName();
      const email = field === 'email' ? existing.email.toUpperCase() : `${username}@example.com`;
      const before = await accountCount();
      const response = await register({ username, email, password: 'secret1' });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual({ error: message, code: expect.any(String) as string });
      expect(await accountCount()).toBe(before);
    });

    it.each([
      ['a 5-character password', { password: '12345' }, MESSAGES.passwordTooShort],
      ['a 129-character password', { password: 'x'.repeat(129) }, MESSAGES.passwordTooLong],
      ['a malformed username', { username: 'no spaces allowed' }, MESSAGES.usernameFormat],
      ['a 2-character username', { username: 'ab' }, MESSAGES.usernameFormat],
      ['an empty username', { username: '' }, MESSAGES.usernameRequired],
      ['an invalid email', { email: 'not-an-email' }, MESSAGES.emailInvalid],
      ['an empty email', { email: '' }, MESSAGES.emailRequired],
      ['a missing password', { password: undefined }, 'Password must be text'],
      ['a password that is a number', { password: 123456 }, 'Password must be text'],
      ['a NUL character', { username: 'bad\u0000name' }, 'The request contains characters that are not allowed'],
    ])('refuses %s with 400 and its message', async (_label, override, message) => {
      const username = uniqueName();
      const before = await accountCount();
      const response = await register({ username, email: `${username}@example.com`, password: 'secret1', ...override });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: message, code: expect.any(String) as string });
      expect(await accountCount()).toBe(before);
    });

    it('accepts a 64-character emoji password and signs in with it', async () => {
      const password = '🐬'.repeat(64);
      const user = await registerUser(t.app, { password });
      const response = await login({ username: user.username, password });
      expect(response.statusCode).toBe(200);
    });

    it('ignores a role the client sends: a later account is a member (docs/product.md section 10)', async () => {
      await registerUser(t.app);
      const username = uniqueName();
      const response = await register({
        username,
        email: `${username}@example.com`,
        password: 'secret1',
        role: 'admin',
        lowVision: true,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ role: 'member' });
      expect(response.json()).toMatchObject({ accessibilitySettings: { lowVision: false } });
    });
  });

  describe('sign in, me and sign out', () => {
    it('signs in case-insensitively and issues a new session each time', async () => {
      const user = await registerUser(t.app);
      const response = await login({ username: user.username.toUpperCase(), password: user.password });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ username: user.username, email: user.email });
      expect(sessionCookie(response)).not.toBe(user.cookie);
    });

    it('answers an unknown user and a wrong password the same way', async () => {
      const user = await registerUser(t.app);
      const wrong = await login({ username: user.username, password: 'wrong-password' });
      const unknown = await login({ username: uniqueName('ghost'), password: 'wrong-password' });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ error: MESSAGES.invalidLogin, code: expect.any(String) as string });
      expect(unknown.json()).toEqual(wrong.json());
    });

    it('answers me with 401 and no account without a session', async () => {
      const response = await me();
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: MESSAGES.notSignedIn, code: expect.any(String) as string });
      expect((await me('porpoise_session=made-up-token')).statusCode).toBe(401);
    });

    it('never accepts a cookie planted before sign-in', async () => {
      const planted = 'porpoise_session=attacker-chosen-token';
      const user = await registerUser(t.app);
      const response = await login({ username: user.username, password: user.password }, { cookie: planted });
      expect(sessionCookie(response)).not.toBe(planted);
      expect((await me(planted)).statusCode).toBe(401);
    });

    it('revokes the old session on sign-in from a signed-in browser', async () => {
      const user = await registerUser(t.app);
      const response = await login({ username: user.username, password: user.password }, { cookie: user.cookie });
      expect(response.statusCode).toBe(200);
      expect((await me(user.cookie)).statusCode).toBe(401);
      expect((await me(sessionCookie(response))).statusCode).toBe(200);
    });

    it('sign-out ends the session: the old cookie gets 401', async () => {
      const user = await registerUser(t.app);
      expect((await me(user.cookie)).statusCode).toBe(200);
      const out = await t.app.inject({ method: 'POST', url: '/api/account/logout', headers: { cookie: user.cookie } });
      expect(out.statusCode).toBe(200);
      expect(out.cookies.find((c) => c.name === 'porpoise_session')?.value).toBe('');
      expect((await me(user.cookie)).statusCode).toBe(401);
    });

    it('never writes a password, cookie or token into a log line', async () => {
      const user = await registerUser(t.app, { password: 'log-canary-123' });
      await login({ username: user.username, password: 'log-canary-123' }, { cookie: user.cookie });
      await me(user.cookie);
      const token = user.cookie.split('=')[1] ?? '';
      const logs = logLines.join('');
      expect(logs).toContain('/api/account/login');
      expect(logs).not.toContain('log-canary-123');
      expect(logs).not.toContain(token);
    });
  });

  describe('rate limits', () => {
    it('answers repeated failed sign-ins from one client with 429 and Retry-After', async () => {
      const limited = await startTestApp(kind, { env: { RATE_LIMIT_MULTIPLIER: '1' } });
      try {
        const user = await registerUser(limited.app);
        const attempts = [];
        for (let i = 0; i < 12; i++) {
          attempts.push(
            await limited.app.inject({
              method: 'POST',
              url: '/api/account/login',
              payload: { username: user.username, password: `wrong-${i}` },
            }),
          );
        }
        expect(attempts.slice(0, 10).every((r) => r.statusCode === 401)).toBe(true);
        const blocked = attempts[11]!;
        expect(blocked.statusCode).toBe(429);
        expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
        expect(blocked.json()).toEqual({ error: MESSAGES.tooManyRequests, code: expect.any(String) as string });
        // Even the right password waits until the window ends.
        const right = await limited.app.inject({
          method: 'POST',
          url: '/api/account/login',
          payload: { username: user.username, password: user.password },
        });
        expect(right.statusCode).toBe(429);
      } finally {
        await limited.close();
      }
    });

    it('limits registrations per client address', async () => {
      const limited = await startTestApp(kind, { env: { RATE_LIMIT_MULTIPLIER: '1' } });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 11; i++) {
          const username = uniqueName();
          const response = await limited.app.inject({
            method: 'POST',
            url: '/api/account/addAccount',
            payload: { username, email: `${username}@example.com`, password: 'secret1' },
          });
          statuses.push(response.statusCode);
        }
        expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
        expect(statuses[10]).toBe(429);
      } finally {
        await limited.close();
      }
    });
  });
});
