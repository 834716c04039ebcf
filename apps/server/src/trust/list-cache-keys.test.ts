// Issue 23 item 8: the home list's cache was keyed by the raw URL, so junk query
// parameters (or the same ones in another order) made new entries and pushed popular
// pages out. It is keyed by the parsed query: defaults filled in, a fixed order, unknown
// parameters ignored.
import type { QuestionSummary } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { askQuestion, registerUser, uniqueName, type TestUser } from '../test/factories.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

describe.each(DATABASE_KINDS)('list cache keys on %s', (kind) => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await registerUser(t.app);
    await askQuestion(t.app, user);
  });
  afterAll(async () => t.close());

  const list = async (query: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/getQuestion?${query}`,
      headers: { cookie: user.cookie },
    });
    expect(response.statusCode).toBe(200);
    return response.json<QuestionSummary[]>();
  };

  it('answers the same list with junk parameters, in any order, from one entry', async () => {
    const { lists } = t.app.contentCache;
    const loadsBefore = lists.loads;
    const sizeBefore = lists.size;
    const first = await list('order=newest&junk=1');
    expect(lists.loads).toBe(loadsBefore + 1);
    for (const query of ['junk=2&order=newest', 'order=newest', '', `${uniqueName('x')}=1&limit=50&offset=0`]) {
      expect(await list(query)).toEqual(first);
    }
    expect(lists.loads).toBe(loadsBefore + 1);
    expect(lists.size).toBe(sizeBefore + 1);
  });

  it('keys a tag by the name the list reads (any case), and a different page separately', async () => {
    const tag = uniqueName('k').slice(0, 20);
    await askQuestion(t.app, user, { tags: [tag] });
    const { lists } = t.app.contentCache;
    const loadsBefore = lists.loads;
    const tagged = await list(`tag=${tag}`);
    expect(tagged).toHaveLength(1);
    expect(await list(`tag=${tag.toUpperCase()}&order=newest&z=1`)).toEqual(tagged);
    expect(lists.loads).toBe(loadsBefore + 1);
    await list(`tag=${tag}&limit=5`);
    expect(lists.loads).toBe(loadsBefore + 2);
  });
});
