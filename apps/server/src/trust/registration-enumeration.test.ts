// Trust #23 item 10: registration answers 'Email already in use' (the spec's text), so it
// tells whether an email has an account. The mitigation is the registration limit per
// address (docs/product.md section 6: 10 an hour), counted before the email is looked up, so one
// address learns about at most 10 emails an hour, however fast or parallel it asks.
import { MESSAGES } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { registerUser, uniqueName, type TestUser } from '../test/factories.ts';
import { snapshot } from '../test/snapshot.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

const LIMIT = 10; // registrations an hour per address

describe.each(DATABASE_KINDS)('email enumeration through registration on %s', (kind) => {
  let t: TestApp;
  let victims: TestUser[];

  beforeAll(async () => {
    t = await startTestApp(kind, { env: { RATE_LIMIT_MULTIPLIER: '1' } });
    // Registered from 127.0.0.1; the probes come from other addresses.
    victims = [await registerUser(t.app), await registerUser(t.app)];
  });
  afterAll(async () => t.close());

  /** A registration with a fresh username and the n-th victim's email, in a varied case. */
  const probe = (n: number, remoteAddress: string) => {
    const email = victims[n % victims.length]!.email;
    return t.app.inject({
      method: 'POST',
      url: '/api/account/addAccount',
      remoteAddress,
      payload: { username: uniqueName('probe'), email: n % 2 ? email.toUpperCase() : email, password: 'secret-pass' },
    });
  };

  it('answers 10 registrations with taken emails from one address, and the 11th gets 429 with Retry-After', async () => {
    const address = '198.51.100.7';
    const answers: string[] = [];
    for (let n = 0; n < LIMIT; n++) {
      const response = await probe(n, address);
      answers.push(`${response.statusCode} ${response.json<{ error: string }>().error}`);
    }
    expect(answers).toEqual(Array(LIMIT).fill(`409 ${MESSAGES.emailInUse}`));

    const before = await snapshot(t.app.db);
    const refused = await probe(LIMIT, address);
    expect(refused.statusCode).toBe(429);
    // The 429 says nothing about the email.
    expect(refused.json()).toEqual({ error: MESSAGES.tooManyRequests, code: expect.any(String) as string });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60 * 60);
    expect(await snapshot(t.app.db)).toEqual(before);
    // The limit is the address's own: another address still gets its answers.
    expect((await probe(0, '198.51.100.8')).statusCode).toBe(409);
  });

  it('answers at most 10 of 30 parallel probes from one address; the rest get 429', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, n) => probe(n, '198.51.100.9')));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(409), ...Array<number>(30 - LIMIT).fill(429)]);
  });
});
