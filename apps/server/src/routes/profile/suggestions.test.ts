import type { ProfileDetail, TagSuggestion, Thread, UserSuggestion } from '@porpoise/core';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { tagSuggestionsSql, usernameSuggestionsSql } from '../../queries/suggestions.ts';
import { DATABASE_KINDS } from '../../test/databases.ts';
import { accountIdOf, answerQuestion, askQuestion, registerUser, type TestUser } from '../../test/factories.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

// Suggestions as one types and what a profile shows (docs/product.md section 5, "A member's first week").
describe.each(DATABASE_KINDS)('suggestions and profiles on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let eve: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    [alice, bob, eve] = [await registerUser(t.app), await registerUser(t.app), await registerUser(t.app)];
  });
  afterAll(async () => t.close());

  const get = (user: TestUser | null, url: string) =>
    t.app.inject({ method: 'GET', url, headers: user ? { cookie: user.cookie } : {} });
  const tagsFor = async (prefix: string) => {
    const response = await get(alice, `/api/tag/suggest?prefix=${encodeURIComponent(prefix)}`);
    expect(response.statusCode).toBe(200);
    return response.json<TagSuggestion[]>();
  };
  const usersFor = async (user: TestUser, prefix: string) => {
    const response = await get(user, `/api/profile/suggest?prefix=${encodeURIComponent(prefix)}`);
    expect(response.statusCode).toBe(200);
    return response.json<UserSuggestion[]>().map((row) => row.username);
  };
  /** The plan of `query` with the table analysed, as PostgreSQL's EXPLAIN prints it. */
  const planOf = async (table: string, query: SQL) => {
    await t.app.db.execute(sql.raw(`analyze ${table}`));
    const rows = await queryRows<Record<string, string>>(t.app.db, sql`explain ${query}`);
    return rows.map((row) => Object.values(row).join(' ')).join('\n');
  };

  describe('tag suggestions', () => {
    beforeAll(async () => {
      // 3,000 tags share the prefix 'kx', so the plan must be the index range, and the list bounded.
      await t.app.db.execute(sql`insert into tags (name, description, question_count)
        select 'kx' || lpad(g::text, 4, '0'), 'user added tag', g % 5 from generate_series(1, 3000) g`);
      await t.app.db.execute(sql`insert into tags (name, description, question_count) values
        ('zq_a', 'user added tag', 2), ('zqxa', 'user added tag', 3), ('zq%b', 'user added tag', 1),
        ('azqz', 'user added tag', 4), ('zqempty', 'user added tag', 0)`);
    });

    it('names at most ten tags starting with the prefix, in any case, by name, each with its question count', async () => {
      const tags = await tagsFor('KX');
      expect(tags).toHaveLength(10);
      // kx0005, kx0010... carry no shown question (count 0) and never show.
      expect(tags).toEqual(
        ['kx0001', 'kx0002', 'kx0003', 'kx0004', 'kx0006', 'kx0007', 'kx0008', 'kx0009', 'kx0011', 'kx0012'].map(
          (name) => ({ name, count: Number(name.slice(2)) % 5 }),
        ),
      );
    });

    it('matches the start of a name only, takes wildcards literally, and leaves out tags no shown question carries', async () => {
      expect(await tagsFor('zq')).toEqual([
        { name: 'zq%b', count: 1 },
        { name: 'zq_a', count: 2 },
        { name: 'zqxa', count: 3 },
      ]);
      expect(await tagsFor('zq_')).toEqual([{ name: 'zq_a', count: 2 }]);
      expect(await tagsFor('zq%')).toEqual([{ name: 'zq%b', count: 1 }]);
      expect(await tagsFor('qz')).toEqual([]);
      expect(await tagsFor('zqempty')).toEqual([]);
    });

    it('reads a range of the prefix index, not every tag', async () => {
      const plan = await planOf('tags', tagSuggestionsSql('kx00'));
      expect(plan).toContain('tags_name_prefix_idx');
      expect(plan).not.toMatch(/Seq Scan/);
    });

    it('shows a tag once a question carries it, though its prefix was asked before', async () => {
      expect(await tagsFor('seaweed')).toEqual([]);
      await askQuestion(t.app, bob, { tags: ['seaweed'] });
      expect(await tagsFor('seaweed')).toEqual([{ name: 'seaweed', count: 1 }]);
    });

    it('refuses an empty or over-long prefix, and visitors', async () => {
      const empty = await get(alice, '/api/tag/suggest?prefix=');
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toMatchObject({ error: 'Prefix cannot be empty' });
      const long = await get(alice, `/api/tag/suggest?prefix=${'a'.repeat(21)}`);
      expect(long.statusCode).toBe(400);
      expect(long.json()).toMatchObject({ error: 'Prefix cannot be more than 20 characters' });
      expect((await get(null, '/api/tag/suggest?prefix=kx')).statusCode).toBe(401);
    });
  });

  describe('username suggestions', () => {
    beforeAll(async () => {
      await t.app.db.execute(sql`insert into accounts (username, email, password_hash)
        select 'Pod' || lpad(g::text, 4, '0'), 'pod' || g || '@example.com', 'x' from generate_series(1, 3000) g`);
    });

    it('names at most ten other members starting with the prefix, in any case, by name', async () => {
      expect(await usersFor(alice, 'pOD')).toEqual(
        ['0001', '0002', '0003', '0004', '0005', '0006', '0007', '0008', '0009', '0010'].map((n) => `Pod${n}`),
      );
      expect(await usersFor(alice, 'od00')).toEqual([]);
    });

    it('never names the caller, a suspended member, or a name that only matches a wildcard', async () => {
      const prefix = bob.username.slice(0, -1);
      expect(await usersFor(alice, prefix)).toEqual([bob.username]);
      expect(await usersFor(bob, prefix)).toEqual([]);
      // 'user_' with '_' taken as any character would match every 'userX...' name.
      expect(await usersFor(alice, 'user%')).toEqual([]);
      await t.app.db.execute(
        sql`update accounts set suspended_until = now() + interval '1 day', suspension_reason = 'spam' where username = ${bob.username}`,
      );
      expect(await usersFor(alice, prefix)).toEqual([]);
      await t.app.db.execute(
        sql`update accounts set suspended_until = null, suspension_reason = null where username = ${bob.username}`,
      );
    });

    it('reads a range of the prefix index, not every account', async () => {
      const plan = await planOf('accounts', usernameSuggestionsSql('pod00', await accountIdOf(t.app, alice.username)));
      expect(plan).toContain('accounts_username_prefix_idx');
      expect(plan).not.toMatch(/Seq Scan/);
    });

    it('refuses an empty or over-long prefix, and visitors', async () => {
      const long = await get(alice, `/api/profile/suggest?prefix=${'a'.repeat(31)}`);
      expect(long.statusCode).toBe(400);
      expect(long.json()).toMatchObject({ error: 'Prefix cannot be more than 30 characters' });
      expect((await get(alice, '/api/profile/suggest?prefix=')).json()).toMatchObject({
        error: 'Prefix cannot be empty',
      });
      expect((await get(null, '/api/profile/suggest?prefix=pod')).statusCode).toBe(401);
    });
  });

  describe('profiles', () => {
    const profileOf = async (viewer: TestUser, user: TestUser) => {
      const response = await get(viewer, `/api/profile/getBio?username=${user.username.toUpperCase()}`);
      expect(response.statusCode).toBe(200);
      return response.json<ProfileDetail>();
    };

    it('shows when the member joined and their shown questions and answers only', async () => {
      const member = await registerUser(t.app);
      const [kept, deleted] = [await askQuestion(t.app, member), await askQuestion(t.app, member)];
      const other = await askQuestion(t.app, alice);
      await answerQuestion(t.app, member, kept);
      await answerQuestion(t.app, member, other);
      const removedAnswer = await answerQuestion(t.app, member, other);
      const onDeleted = await askQuestion(t.app, alice);
      await answerQuestion(t.app, member, onDeleted);

      const before = await profileOf(bob, member);
      expect(before).toMatchObject({ username: member.username, bio: '', questionCount: 2, answerCount: 4 });
      expect(before.createdAt).toBe(member.account.createdAt);

      const remove = (user: TestUser, url: string) =>
        t.app.inject({ method: 'DELETE', url, headers: { cookie: user.cookie } });
      expect((await remove(member, `/api/question/${deleted}`)).statusCode).toBe(200);
      expect((await remove(member, `/api/answer/${removedAnswer}`)).statusCode).toBe(200);
      // A question deleted by a moderator takes its answers off their authors' profiles.
      await t.app.db.execute(sql`update questions set deleted_at = now() where id = ${Number(onDeleted)}`);
      expect(await profileOf(bob, member)).toMatchObject({ questionCount: 1, answerCount: 2 });
      expect(await profileOf(member, member)).toMatchObject({ questionCount: 1, answerCount: 2 });
    });

    it("carries the caller's direct thread with the member, and none on one's own profile", async () => {
      expect((await profileOf(alice, bob)).threadId).toBeNull();
      const started = await t.app.inject({
        method: 'POST',
        url: '/api/thread/addThread',
        headers: { cookie: alice.cookie },
        payload: { messages: [], accounts: [alice.username, bob.username], threadUpdatedDateTime: '' },
      });
      expect(started.statusCode).toBe(200);
      const tid = started.json<Thread>()._id;
      expect((await profileOf(alice, bob)).threadId).toBe(tid);
      expect((await profileOf(bob, alice)).threadId).toBe(tid);
      // Nobody else learns of it.
      expect((await profileOf(eve, bob)).threadId).toBeNull();
      expect((await profileOf(alice, alice)).threadId).toBeNull();
    });
  });
});
