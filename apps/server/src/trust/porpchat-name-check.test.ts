// Issue 32 item 6: joining PorpChat checks the name at once (docs/product.md section 5), by the
// rule posting applies again (docs/product.md section 6, 'PorpChat names'). The answer tells
// whether a username exists, so it is limited per address like registration
// (trust/registration-enumeration.test.ts): 10 an hour, counted before the lookup.
import { MESSAGES } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { registerUser, type TestUser } from '../test/factories.ts';
import { snapshot } from '../test/snapshot.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

const LIMIT = 10; // name checks an hour per address

describe.each(DATABASE_KINDS)('PorpChat name check on joining, on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind, {
      env: { RATE_LIMIT_MULTIPLIER: '1' },
      configure: (config) => {
        config.rateLimits.registerPerIp = { max: 1_000, windowMs: 60_000 };
      },
    });
    alice = await registerUser(t.app, { username: 'alice' });
  });
  afterAll(async () => t.close());

  const check = (name: unknown, remoteAddress: string, user: TestUser | null = null) =>
    t.app.inject({
      method: 'POST',
      url: '/api/porpchat/checkName',
      remoteAddress,
      headers: user ? { cookie: user.cookie } : {},
      payload: { name },
    });

  it("refuses a member's name and its look-alikes with the text the field shows, and writes nothing else", async () => {
    const before = await snapshot(t.app.db);
    for (const name of ['alice', 'ALICE', '\u0430l\u200Bice', 'a1ice']) {
      const refused = await check(name, '198.51.100.20');
      expect([refused.statusCode, refused.json()]).toEqual([
        409,
        { error: MESSAGES.porpNameTaken, code: 'porp_name_taken' },
      ]);
    }
    const free = await check('  bob  ', '198.51.100.20');
    expect([free.statusCode, free.json()]).toEqual([200, { ok: true }]);
    const empty = await check('   ', '198.51.100.20');
    expect([empty.statusCode, empty.json<{ error: string }>().error]).toEqual([400, MESSAGES.porpNameRequired]);
    expect((await check('x'.repeat(31), '198.51.100.20')).statusCode).toBe(400);
    // A check is a read: no message, no account (rate counters aside).
    expect(await snapshot(t.app.db)).toEqual(before);
  });

  it('lets a member join under a look-alike of their own name, as posting does', async () => {
    expect((await check('ALICE', '198.51.100.21', alice)).statusCode).toBe(200);
    expect((await check('alice', '198.51.100.21', null)).statusCode).toBe(409);
  });

  it('answers 10 checks an hour per address, then 429 with Retry-After that says nothing of the name', async () => {
    const address = '198.51.100.22';
    const answers: number[] = [];
    for (let n = 0; n < LIMIT; n++) answers.push((await check(n % 2 ? 'alice' : `guest${n}`, address)).statusCode);
    expect(answers).toEqual(Array.from({ length: LIMIT }, (_, n) => (n % 2 ? 409 : 200)));
    for (const name of ['alice', 'nobody-here']) {
      const refused = await check(name, address);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: MESSAGES.tooManyRequests, code: 'too_many_requests' });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60 * 60);
    }
    // Counted before the name is read: a malformed body counts too.
    expect((await check(42, address)).statusCode).toBe(429);
    // Another address keeps its own answers.
    expect((await check('alice', '198.51.100.23')).statusCode).toBe(409);
  });

  it('answers at most 10 of 30 parallel checks from one address', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => check('alice', '198.51.100.24')));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(409), ...Array<number>(30 - LIMIT).fill(429)]);
  });
});
