// Trust #15 item 5: forums and new threads are posts like any other (docs/product.md section 6):
// they share the per-account rate of 12 a minute, have daily caps, and the forum list
// answers one bounded page at a time.
import { LIMITS, MESSAGES, type Forum } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { accountIdOf, registerUser, uniqueName, type TestUser } from '../test/factories.ts';
import { snapshot } from '../test/snapshot.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

describe.each(DATABASE_KINDS)('forum and thread limits on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    // The real limits, except registration, which every test here needs a lot of.
    t = await startTestApp(kind, {
      env: { RATE_LIMIT_MULTIPLIER: '1' },
      configure: (config) => {
        config.rateLimits.registerPerIp = { max: 1_000, windowMs: 60_000 };
      },
    });
  });
  afterAll(async () => t.close());

  const post = (user: TestUser, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: { cookie: user.cookie }, payload });
  const addForum = (user: TestUser) =>
    post(user, '/api/forum/addForum', { name: `Forum ${uniqueName('f')}`, description: 'About things' });
  const addThread = (user: TestUser, recipient: TestUser) =>
    post(user, '/api/thread/addThread', { accounts: [user.username, recipient.username] });
  const getForums = (user: TestUser, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/forum/getForums${query}`, headers: { cookie: user.cookie } });

  it.each(['forum', 'thread'] as const)(
    'refuses the 13th forum or new thread in a minute (a %s) with 429 and Retry-After, creating nothing',
    async (last) => {
      const spammer = await registerUser(t.app);
      const recipients: TestUser[] = [];
      for (let i = 0; i < 7; i++) recipients.push(await registerUser(t.app));
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await addForum(spammer)).statusCode);
      for (let i = 0; i < 6; i++) statuses.push((await addThread(spammer, recipients[i]!)).statusCode);
      expect(statuses).toEqual(Array(12).fill(200));

      const before = await snapshot(t.app.db);
      const refused = last === 'forum' ? await addForum(spammer) : await addThread(spammer, recipients[6]!);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: MESSAGES.tooManyRequests, code: expect.any(String) as string });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(await snapshot(t.app.db)).toEqual(before);
      // The limit is the spammer's own: the recipient still starts a thread with them.
      expect((await addThread(recipients[6]!, spammer)).statusCode).toBe(200);
    },
  );

  it('counts forums and new threads with the other posts toward the 12 a minute', async () => {
    const poster = await registerUser(t.app);
    const friend = await registerUser(t.app);
    for (let i = 0; i < 11; i++) {
      const asked = await post(poster, '/api/addQuestion', { title: `Q${i}`, text: 'x', tags: [{ name: 'general' }] });
      expect(asked.statusCode).toBe(200);
    }
    expect((await addForum(poster)).statusCode).toBe(200);
    const before = await snapshot(t.app.db);
    expect((await addThread(poster, friend)).statusCode).toBe(429);
    expect(await snapshot(t.app.db)).toEqual(before);
  });

  it('caps forums at 10 a day per account', async () => {
    const founder = await registerUser(t.app);
    for (let i = 0; i < 10; i++) expect((await addForum(founder)).statusCode).toBe(200);
    const before = await snapshot(t.app.db);
    const refused = await addForum(founder);
    expect(refused.statusCode).toBe(429);
    // The day's cap, not the minute's: the wait is hours.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60 * 60);
    expect(await snapshot(t.app.db)).toEqual(before);
  });

  it('answers the forum list one bounded page at a time, newest first', async () => {
    const reader = await registerUser(t.app);
    const owner = await accountIdOf(t.app, reader.username);
    const prefix = uniqueName('page');
    await t.app.db.execute(sql`insert into forums (name, description, created_by, created_at)
      select ${prefix} || '_' || n, 'd', ${owner}, now() + make_interval(secs => n) from generate_series(1, 250) n`);

    const first = await getForums(reader);
    expect(first.statusCode).toBe(200);
    const firstPage = first.json<Forum[]>();
    expect(firstPage).toHaveLength(LIMITS.pageSizeDefault);
    expect(firstPage[0]?.name).toBe(`${prefix}_250`);

    const largest = (await getForums(reader, `?limit=${LIMITS.pageSizeMax}`)).json<Forum[]>();
    expect(largest).toHaveLength(LIMITS.pageSizeMax);
    const tooLarge = await getForums(reader, `?limit=${LIMITS.pageSizeMax + 1}`);
    expect(tooLarge.statusCode).toBe(400);

    // Pages follow on without gaps or repeats.
    const next = (await getForums(reader, `?limit=${LIMITS.pageSizeMax}&offset=${LIMITS.pageSizeMax}`)).json<Forum[]>();
    const names = [...largest, ...next].map((forum) => forum.name);
    expect(names).toEqual(Array.from({ length: 2 * LIMITS.pageSizeMax }, (_, i) => `${prefix}_${250 - i}`));

    // A discussion page finds its forum by thread, however far down the list it is.
    const made = (await addForum(reader)).json<Forum>();
    expect(firstPage.concat(largest, next).some((forum) => forum._id === made._id)).toBe(false);
    expect((await getForums(reader, `?thread=${made.thread}`)).json()).toEqual([made]);
    expect((await getForums(reader, '?thread=porpchat')).json()).toEqual([]);
  });
});
