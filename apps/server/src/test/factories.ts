import { randomBytes } from 'node:crypto';
import type { Account } from '@porpoise/core';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { queryRows } from '../db/client.ts';
import { accounts, WHOLE_LIST } from '../db/schema.ts';
import { questionSearchVector, tagLexemeSql } from '../db/search-vector.ts';

export interface TestUser {
  username: string;
  email: string;
  password: string;
  /** The Cookie header value carrying this user's session. */
  cookie: string;
  account: Account;
}

export const uniqueName = (prefix = 'user') => `${prefix}_${randomBytes(4).toString('hex')}`;

/** The `name=value` of the session cookie a response set. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'porpoise_session');
  if (!cookie) throw new Error(`no session cookie in response ${response.statusCode}: ${response.body}`);
  return `${cookie.name}=${cookie.value}`;
}

/** Registers a new account through the API and returns it with its session cookie. */
export async function registerUser(
  app: FastifyInstance,
  overrides: Partial<{ username: string; email: string; password: string }> = {},
): Promise<TestUser> {
  const username = overrides.username ?? uniqueName();
  const input = {
    username,
    email: overrides.email ?? `${username}@example.com`,
    password: overrides.password ?? 'secret-pass',
  };
  const response = await app.inject({
    method: 'POST',
    url: '/api/account/addAccount',
    payload: { ...input, createdAt: new Date().toISOString() },
  });
  if (response.statusCode !== 200) throw new Error(`register failed ${response.statusCode}: ${response.body}`);
  return { ...input, cookie: sessionCookie(response), account: response.json<Account>() };
}

/** The internal id of an account, for tests that address rooms or rows directly. */
export async function accountIdOf(app: FastifyInstance, username: string): Promise<number> {
  const [row] = await app.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.username, username));
  if (!row) throw new Error(`no account ${username}`);
  return row.id;
}

/**
 * Gives an account reputation, as an adjustment the event processor writes to the ledger
 * (no admin, so no moderation log entry): arranging a member with a privilege.
 */
export async function grantReputation(app: FastifyInstance, user: TestUser, delta: number): Promise<void> {
  const accountId = await accountIdOf(app, user.username);
  await app.events.write(async () => ({
    result: null,
    events: [{ type: 'reputationAdjusted', accountId, adminId: accountId, delta, note: 'arranged by a test' }],
  }));
}

/** Registers a member with the default 'Flag to hide' reputation (15): their spam and rude flags count. */
export async function registerTrustedFlagger(app: FastifyInstance): Promise<TestUser> {
  const user = await registerUser(app);
  await grantReputation(app, user, 14);
  return user;
}

/** Posts a question as `user` through the API; returns its id. */
export async function askQuestion(
  app: FastifyInstance,
  user: TestUser,
  input: Partial<{ title: string; text: string; tags: string[] }> = {},
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/addQuestion',
    headers: { cookie: user.cookie },
    payload: {
      title: input.title ?? `Question ${uniqueName('q')}`,
      text: input.text ?? 'Some details about the problem.',
      tags: (input.tags ?? ['general']).map((name) => ({ name, description: '' })),
      askedBy: user.username,
    },
  });
  if (response.statusCode !== 200) throw new Error(`ask failed ${response.statusCode}: ${response.body}`);
  return response.json<{ _id: string }>()._id;
}

export async function answerQuestion(
  app: FastifyInstance,
  user: TestUser,
  qid: string,
  text = 'An answer.',
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/answer/addAnswer',
    headers: { cookie: user.cookie },
    payload: { qid, ans: { text, ansBy: user.username, ansDateTime: new Date().toISOString(), comments: [] } },
  });
  if (response.statusCode !== 200) throw new Error(`answer failed ${response.statusCode}: ${response.body}`);
  return response.json<{ _id: string }>()._id;
}

/**
 * Inserts `count` questions by `user` under a new tag in one statement (a list deeper than
 * the API's posting limits allow in a test), with sort keys that tie and differ by
 * microseconds: question g (1..count) is asked at 2020-01-01 plus 3 µs per pair (so two
 * share each time), last active 0-4 ms after that, has g % 7 views, and one answer
 * counted when g % 4 = 0. Titles say 'Deep {word} g', and every tenth also '{rareWord}'.
 * Returns the ids in the order of g.
 */
export async function insertQuestions(
  app: FastifyInstance,
  user: TestUser,
  options: { count: number; tag: string; word: string; rareWord: string },
): Promise<number[]> {
  const accountId = await accountIdOf(app, user.username);
  const { count, tag, word, rareWord } = options;
  const rows = await queryRows<{ id: number }>(
    app.db,
    sql`with tag as (
        insert into tags (name, description, question_count) values (${tag}, 'user added tag', ${count}) returning id
      ), inserted as (
        insert into questions (title, text, asked_by, ask_date_time, last_activity_at, view_count, answer_count, search)
        select 'Deep ' || ${word} || ' ' || g || case when g % 10 = 0 then ' ' || ${rareWord} else '' end,
          'Details', ${accountId}, at, at + (g % 5) * interval '1 millisecond', g % 7,
          case when g % 4 = 0 then 1 else 0 end,
          ${questionSearchVector(
            sql`('Deep ' || ${word} || ' ' || g || case when g % 10 = 0 then ' ' || ${rareWord} else '' end)`,
            sql`'Details'`,
            sql`array[${tagLexemeSql(sql`(select id from tag)`)}]`,
          )}
        from generate_series(1, ${count}) g,
          lateral (select timestamptz '2020-01-01 00:00:00+00' + (g / 2) * 3 * interval '1 microsecond' as at) t
        order by g
        returning id, ask_date_time, last_activity_at, answer_count, view_count
      ), linked as (
        insert into question_tags (question_id, tag_id, ask_date_time, last_activity_at, answer_count)
        select inserted.id, tag.id, inserted.ask_date_time, inserted.last_activity_at, inserted.answer_count
        from inserted, tag
      ), ranked as (
        insert into view_ranks (question_id, tag_id, view_count, ask_date_time)
        select inserted.id, ranks.tag_id, inserted.view_count, inserted.ask_date_time
        from inserted, (select ${WHOLE_LIST}::bigint as tag_id union all select id from tag) ranks
      ), counted as (
        update question_counters set total = total + ${count},
          unanswered = unanswered + (select count(*) from generate_series(1, ${count}) g where g % 4 <> 0)
      )
      select id from inserted order by id`,
  );
  return rows.map((row) => Number(row.id));
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * A request to `app`'s API as `user` (signed out with null), with an optional JSON body: the
 * suites' `call`, e.g. `const call: Call = (...request) => callAs(t.app, ...request)`.
 */
export function callAs(app: FastifyInstance, user: TestUser | null, method: Method, url: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    headers: user ? { cookie: user.cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

export type Call = (user: TestUser | null, method: Method, url: string, payload?: unknown) => ReturnType<typeof callAs>;
