// Trust #15 item 3: sign-in limits never lock out the owner. Wrong passwords are counted
// per username and client address together (and per address); failures from other
// addresses never refuse the right password from an address that has not failed.
import { MESSAGES, type Account } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { registerUser, sessionCookie, uniqueName, type TestUser } from '../test/factories.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

// docs/product.md section 6: wrong passwords 10 in 10 minutes per username and address; this
// app's limit per address, for any usernames, is 20.
const PER_USERNAME_AND_ADDRESS = 10;
const PER_ADDRESS = 20;

describe.each(DATABASE_KINDS)('sign-in lockout on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    // The real sign-in limits; registration (from the default address) raised for the setup.
    t = await startTestApp(kind, {
      env: { RATE_LIMIT_MULTIPLIER: '1' },
      configure: (config) => {
        config.rateLimits.registerPerIp = { max: 1_000, windowMs: 60_000 };
      },
    });
  });
  afterAll(async () => t.close());

  const signIn = (username: string, password: string, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/account/login', remoteAddress, payload: { username, password } });
  const statusesOf = async (attempts: (() => Promise<{ statusCode: number }>)[]) => {
    const statuses: number[] = [];
    for (const attempt of attempts) statuses.push((await attempt()).statusCode);
    return statuses;
  };
  const wrongTries = (user: TestUser, count: number, remoteAddress: string) =>
    statusesOf(Array.from({ length: count }, (_, i) => () => signIn(user.username, `wrong-${i}`, remoteAddress)));

  it('lets the owner sign in from another address after 12 wrong passwords from one; that one gets 429', async () => {
    const alice = await registerUser(t.app);
    const [a, b] = ['198.51.100.1', '203.0.113.1'];
    expect(await wrongTries(alice, 12, a)).toEqual([...Array<number>(PER_USERNAME_AND_ADDRESS).fill(401), 429, 429]);

    const fromB = await signIn(alice.username.toUpperCase(), alice.password, b);
    expect(fromB.statusCode).toBe(200);
    expect(fromB.json<Account>().username).toBe(alice.username);
    const me = await t.app.inject({ method: 'GET', url: '/api/account/me', headers: { cookie: sessionCookie(fromB) } });
    expect(me.json<Account>().username).toBe(alice.username);

    // Address A has failed: further tries there wait, even with the right password.
    const fromA = await signIn(alice.username, alice.password, a);
    expect(fromA.statusCode).toBe(429);
    expect(fromA.json()).toEqual({ error: MESSAGES.tooManyRequests, code: expect.any(String) as string });
    expect(Number(fromA.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(alice.username, 'wrong-again', a)).statusCode).toBe(429);
  });

  it('counts wrong passwords per address across usernames, and only at that address', async () => {
    const owner = await registerUser(t.app);
    const [a, b] = ['198.51.100.2', '203.0.113.2'];
    const statuses = await statusesOf(
      Array.from({ length: PER_ADDRESS + 1 }, () => () => signIn(uniqueName('nobody'), 'guess', a)),
    );
    expect(statuses).toEqual([...Array<number>(PER_ADDRESS).fill(401), 429]);
    expect((await signIn(owner.username, owner.password, a)).statusCode).toBe(429);
    expect((await signIn(owner.username, owner.password, b)).statusCode).toBe(200);
  });

  it('never counts right passwords: an address signing in more often than the limits is never refused', async () => {
    const user = await registerUser(t.app);
    const address = '198.51.100.3';
    // Nine failures, then more right sign-ins than either limit allows failures.
    expect(await wrongTries(user, PER_USERNAME_AND_ADDRESS - 1, address)).toEqual(Array(9).fill(401));
    const statuses = await statusesOf(
      Array.from({ length: PER_ADDRESS + 2 }, () => () => signIn(user.username, user.password, address)),
    );
    expect(statuses).toEqual(Array(PER_ADDRESS + 2).fill(200));
    // The right password cleared this username's failures here: ten more wrong ones fit.
    expect(await wrongTries(user, PER_USERNAME_AND_ADDRESS + 1, address)).toEqual([
      ...Array<number>(PER_USERNAME_AND_ADDRESS).fill(401),
      429,
    ]);
  });

  it('lets no more than the limit of parallel wrong passwords through', async () => {
    const user = await registerUser(t.app);
    const address = '198.51.100.4';
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signIn(user.username, `parallel-${i}`, address)),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([...Array<number>(PER_USERNAME_AND_ADDRESS).fill(401), ...Array<number>(20).fill(429)]);
  });
});
