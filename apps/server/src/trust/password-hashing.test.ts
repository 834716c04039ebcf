// Trust #15 item 13: passwords are hashed with scrypt at OWASP's minimum (N=2^17, r=8,
// p=1), an older 2^15 hash still signs in and is rewritten at 2^17 then, and at most a
// few hashes (128 MiB each) run at once.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { accounts } from '../db/schema.ts';
import {
  HASH_CONCURRENCY,
  MAX_WAITING,
  PASSWORD_PARAMS,
  hashPassword,
  hashingLoad,
  needsRehash,
  verifyPassword,
} from '../auth/password.ts';
import { DATABASE_KINDS } from '../test/databases.ts';
import { accountIdOf, registerUser } from '../test/factories.ts';
import { startTestApp, TEST_PASSWORD_PARAMS, type TestApp } from '../test/test-app.ts';

const OLD_PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const paramsOf = (stored: string) => stored.split('$').slice(0, 4).join('$');

describe('password hashing parameters', () => {
  it('are N=2^17, r=8, p=1 in production, stored with each hash', async () => {
    expect(PASSWORD_PARAMS).toEqual({ N: 131_072, r: 8, p: 1 });
    expect(loadConfig({}).passwordHashing).toEqual(PASSWORD_PARAMS);
    const stored = await hashPassword('correct horse');
    expect(paramsOf(stored)).toBe('scrypt$131072$8$1');
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('wrong horse', stored)).toBe(false);
    expect(needsRehash(stored, PASSWORD_PARAMS)).toBe(false);
    expect(needsRehash(await hashPassword('x', OLD_PARAMS), PASSWORD_PARAMS)).toBe(true);
  });

  it('refuses stored parameters that would allocate more than 1 GiB instead of running them', async () => {
    const stored = await hashPassword('pw', TEST_PASSWORD_PARAMS);
    const [, , , , salt, hash] = stored.split('$');
    expect(await verifyPassword('pw', `scrypt$${2 ** 24}$8$1$${salt}$${hash}`)).toBe(false);
    expect(await verifyPassword('pw', `scrypt$NaN$8$1$${salt}$${hash}`)).toBe(false);
  });

  it(`runs at most ${HASH_CONCURRENCY} hashes at once and refuses more than ${MAX_WAITING} waiting with 503`, async () => {
    const burst = Array.from({ length: HASH_CONCURRENCY + MAX_WAITING }, (_, i) =>
      hashPassword(`pw-${i}`, TEST_PASSWORD_PARAMS),
    );
    expect(hashingLoad()).toMatchObject({ running: HASH_CONCURRENCY, waiting: MAX_WAITING });
    await expect(hashPassword('one too many', TEST_PASSWORD_PARAMS)).rejects.toMatchObject({
      statusCode: 503,
      headers: { 'Retry-After': '1' },
    });
    const hashes = await Promise.all(burst);
    expect(new Set(hashes).size).toBe(burst.length);
    expect(hashingLoad()).toEqual({ running: 0, waiting: 0, peak: HASH_CONCURRENCY });
  });
});

describe.each(DATABASE_KINDS)('upgrading stored hashes on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // Production parameters: this is the suite that proves them.
    t = await startTestApp(kind, { configure: (config) => (config.passwordHashing = loadConfig({}).passwordHashing) });
  });
  afterAll(async () => t.close());

  const storedHash = async (username: string) => {
    const id = await accountIdOf(t.app, username);
    const [row] = await t.app.db.select({ hash: accounts.passwordHash }).from(accounts).where(eq(accounts.id, id));
    return row!.hash;
  };
  const signIn = (username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/account/login', payload: { username, password } });

  it('signs in with an old 2^15 hash and rewrites it as 2^17; a wrong password rewrites nothing', async () => {
    const user = await registerUser(t.app);
    expect(paramsOf(await storedHash(user.username))).toBe('scrypt$131072$8$1');
    const old = await hashPassword(user.password, OLD_PARAMS);
    await t.app.db
      .update(accounts)
      .set({ passwordHash: old })
      .where(eq(accounts.id, await accountIdOf(t.app, user.username)));

    expect((await signIn(user.username, 'not-the-password')).statusCode).toBe(401);
    expect(await storedHash(user.username)).toBe(old);

    expect((await signIn(user.username, user.password)).statusCode).toBe(200);
    const upgraded = await storedHash(user.username);
    expect(paramsOf(upgraded)).toBe('scrypt$131072$8$1');
    expect(await verifyPassword(user.password, upgraded)).toBe(true);
    expect((await signIn(user.username, user.password)).statusCode).toBe(200);
    expect(await storedHash(user.username)).toBe(upgraded);
  });
});
