// Trust #23 item 9: PorpChat has daily caps (docs/product.md sections 4 and 6): 500 posts a day
// per address, and a member's PorpChat posts are messages, counted toward the member's
// 12 posts a minute and 1,000 messages a day, so a typed name is no way around them.
import { MESSAGES } from '@porpoise/core';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { DATABASE_KINDS } from '../test/databases.ts';
import { registerUser, uniqueName, type TestUser } from '../test/factories.ts';
import { snapshot } from '../test/snapshot.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

const HOUR_S = 60 * 60;
const DAY_MS = 24 * HOUR_S * 1000;
/** The day's cap per address in these tests: the real 500 scaled by 0.1 (500 posts cost a test 10-20 s). */
const DAILY_CAP = 50;

it('caps PorpChat at 500 posts a day per address by default', () => {
  expect(loadConfig({}).rateLimits.porpchatPerAddressPerDay).toEqual({ max: 500, windowMs: DAY_MS });
});

describe.each(DATABASE_KINDS)('PorpChat limits on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    // The real limits, except the 10 per 10 s per client, which would stop a test posting
    // in a row long before the daily cap, the daily cap itself (scaled), and registration,
    // which the tests need a lot of.
    t = await startTestApp(kind, {
      env: { RATE_LIMIT_MULTIPLIER: '1' },
      configure: (config) => {
        config.rateLimits.porpchatPerClient = { max: 100_000, windowMs: 10_000 };
        config.rateLimits.porpchatPerAddressPerDay = { max: DAILY_CAP, windowMs: DAY_MS };
        config.rateLimits.registerPerIp = { max: 1_000, windowMs: 60_000 };
      },
    });
  });
  afterAll(async () => t.close());

  const porpchat = (user: TestUser | null, remoteAddress = '127.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/message/addMessage',
      remoteAddress,
      headers: user ? { cookie: user.cookie } : {},
      payload: { tid: 'porpchat', msg: { content: 'hello', sender: uniqueName('guest') } },
    });
  const post = (user: TestUser, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: { cookie: user.cookie }, payload });
  const expectRefused = (response: LightMyRequestResponse) => {
    expect(response.statusCode).toBe(429);
    expect(response.json()).toEqual({ error: MESSAGES.tooManyRequests, code: expect.any(String) as string });
    return Number(response.headers['retry-after']);
  };

  it("refuses the PorpChat post past the day's cap from one address (the 501st; here the 51st) with 429 and Retry-After, storing nothing", async () => {
    const address = '203.0.113.7';
    // Ten more than the cap, all at once: the counter is one atomic upsert, so exactly the cap passes.
    const answers = await Promise.all(Array.from({ length: DAILY_CAP + 10 }, () => porpchat(null, address)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array<number>(DAILY_CAP).fill(200), ...Array<number>(10).fill(429)]);

    const member = await registerUser(t.app);
    const before = await snapshot(t.app.db);
    const retryAfter = expectRefused(await porpchat(null, address));
    // The day's cap, not the 10 seconds': the wait is hours.
    expect(retryAfter).toBeGreaterThan(23 * HOUR_S);
    expect(retryAfter).toBeLessThanOrEqual(24 * HOUR_S);
    // The cap is the address's: a member posting from it is held too.
    expectRefused(await porpchat(member, address));
    expect(await snapshot(t.app.db)).toEqual(before);
    // Another address is not held back.
    expect((await porpchat(null, '203.0.113.8')).statusCode).toBe(200);
  });

  it("counts a member's PorpChat posts toward their 12 posts a minute, both ways", async () => {
    const [member, friend] = [await registerUser(t.app), await registerUser(t.app)];
    const thread = await post(member, '/api/thread/addThread', { accounts: [member.username, friend.username] });
    expect(thread.statusCode).toBe(200);
    const tid = thread.json<{ _id: string }>()._id;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await post(member, '/api/message/addMessage', { tid, msg: { content: `m${i}` } })).statusCode);
    for (let i = 0; i < 6; i++) statuses.push((await porpchat(member)).statusCode);
    expect(statuses).toEqual(Array(11).fill(200));

    const before = await snapshot(t.app.db);
    // The 13th post of the minute, under a typed name in PorpChat or in the direct thread.
    expect(expectRefused(await porpchat(member))).toBeLessThanOrEqual(60);
    const dm = await post(member, '/api/message/addMessage', { tid, msg: { content: 'more' } });
    expect(expectRefused(dm)).toBeLessThanOrEqual(60);
    expect(await snapshot(t.app.db)).toEqual(before);
    // A visitor from the same address is not a member: it still posts.
    expect((await porpchat(null)).statusCode).toBe(200);
  });
});

describe.each(DATABASE_KINDS)("PorpChat posts and a member's daily messages on %s", (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    // Only the daily message cap holds (scaled down to 20, to keep the test short).
    t = await startTestApp(kind, {
      env: { RATE_LIMIT_MULTIPLIER: '1' },
      configure: (config) => {
        config.rateLimits.porpchatPerClient = { max: 100_000, windowMs: 10_000 };
        config.rateLimits.postsPerAccount = { max: 100_000, windowMs: 60_000 };
        config.rateLimits.messagesPerDay = { max: 20, windowMs: DAY_MS };
      },
    });
  });
  afterAll(async () => t.close());

  it("counts a member's PorpChat posts toward their messages a day", async () => {
    const member = await registerUser(t.app);
    const porpchat = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/message/addMessage',
        headers: { cookie: member.cookie },
        payload: { tid: 'porpchat', msg: { content: 'hello', sender: uniqueName('alias') } },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await porpchat()).statusCode);
    expect(statuses).toEqual(Array(20).fill(200));
    const refused = await porpchat();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * HOUR_S);
  });
});
