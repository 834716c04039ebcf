import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCommunity, seedTagNames } from '../apps/server/src/seed/community.ts';
import { DATABASE_KINDS } from '../apps/server/src/test/databases.ts';
import { startTestApp, type TestApp } from '../apps/server/src/test/test-app.ts';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import { memberSessions, MIX, MIX_MEMBERS, mixRequests, READS_ONLY, socketPages, type MixWorld } from './mix.ts';

const world = (members: string[], maxId: number, owned: MixWorld['owned'] = []): MixWorld => ({
  members,
  maxId,
  recentIds: Array.from({ length: Math.min(100, maxId) }, (_, i) => maxId - i),
  tagNames: seedTagNames(30),
  nextPages: ['/api/getQuestion?order=newest&limit=50&offset=50'],
  owned,
});

/** Stand-in questions of members, for the requests that need no server. */
const someOwned = (members: number): MixWorld['owned'] =>
  Array.from({ length: 50 }, (_, i) => ({
    member: i % members,
    qid: i + 1,
    tags: ['t'],
    aid: i % 2 === 0 ? i + 1 : null,
  }));

describe('the community-day mix', () => {
  it('sends each kind of request in its share, from 1,000 members, nearly all question views first views', () => {
    const members = Array.from({ length: MIX_MEMBERS }, (_, i) => `porpoise_session=m${i}`);
    const requests = mixRequests(world(members, 100_000, someOwned(MIX_MEMBERS)), MIX, 20_000, 7);
    for (const [kind, share] of Object.entries(MIX)) {
      const seen = requests.filter((request) => request.kind === kind).length / requests.length;
      expect(Math.abs(seen * 100 - share), kind).toBeLessThan(1);
    }
    expect(new Set(requests.map((request) => request.headers.cookie)).size).toBe(MIX_MEMBERS);
    const views = requests
      .filter((request) => request.kind === 'question')
      .map((request) => `${request.headers.cookie} ${request.path}`);
    expect(new Set(views).size / views.length).toBeGreaterThan(0.95);
    // Edits and accepts are made by the question's asker.
    for (const request of requests.filter((r) => r.kind === 'edit' || r.kind === 'accept')) {
      const qid =
        request.kind === 'edit'
          ? Number(request.path.split('/').at(-1))
          : Number((JSON.parse(request.body!) as { qid: string }).qid);
      expect(request.headers.cookie).toBe(members[(qid - 1) % MIX_MEMBERS]);
    }
    const reads = mixRequests(world(members, 100_000, someOwned(MIX_MEMBERS)), READS_ONLY, 2_000, 7);
    expect(reads.every((r) => r.method === 'GET')).toBe(true);
  });

  describe.each(DATABASE_KINDS)('on %s', (kind) => {
    let server: TestApp;
    let members: string[];
    beforeAll(async () => {
      server = await startTestApp(kind);
      await seedCommunity(
        server.app.db,
        {
          users: MIX_MEMBERS,
          questions: 60,
          tags: 30,
          answersPerQuestion: 1,
          commentsPerQuestion: 1,
          votesPerQuestion: 1,
          viewsPerQuestion: 1,
          days: 10,
        },
        { prefix: 'bench_user_', password: 'bench-password' },
      );
      members = await memberSessions(server.app.db, 'test');
    });
    afterAll(() => server.close());

    it("signs the seed's members in once: the same sessions every time, each its own member", async () => {
      expect(await memberSessions(server.app.db, 'test')).toEqual(members);
      for (const index of [0, 999]) {
        const me = await server.app.inject({ url: '/api/account/me', headers: { cookie: members[index]! } });
        expect(me.json()).toMatchObject({ username: `bench_user_${index + 1}` });
      }
    });

    it('sends only requests the server accepts, and sockets show ids of real questions', async () => {
      // The members' own questions, each with an answer where it has one (as bench.ts reads them).
      const owned = await queryRows<{ member: number; qid: number; tags: string[]; aid: number | null }>(
        server.app.db,
        sql`select substr(a.username, 12)::int - 1 as member, q.id as qid,
            array(select t.name from question_tags qt join tags t on t.id = qt.tag_id where qt.question_id = q.id) as tags,
            (select min(an.id) from answers an where an.question_id = q.id) as aid
          from questions q join accounts a on a.id = q.asked_by where a.username like 'bench_user_%'`,
      );
      const mixed = world(
        members,
        60,
        owned.map((row) => ({ ...row, qid: Number(row.qid), aid: row.aid === null ? null : Number(row.aid) })),
      );
      for (const request of mixRequests(mixed, MIX, 300, 11)) {
        const response = await server.app.inject({
          method: request.method,
          url: request.path,
          headers: { ...request.headers, ...(request.body ? { 'content-type': 'application/json' } : {}) },
          ...(request.body ? { payload: request.body } : {}),
        });
        expect(response.statusCode, `${request.method} ${request.path} ${request.body ?? ''}`).toBe(200);
      }
      const pages = socketPages(mixed, [[60, 59, 58]], 3);
      expect(pages).toHaveLength(MIX_MEMBERS);
      expect(pages.flat().every((id) => id >= 1 && id <= 60)).toBe(true);
    });
  });
});
