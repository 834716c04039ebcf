// The community-day mix (issue 16 item 6): the requests a real community's members send in
// a day, in proportion, each as a random member among 1,000. bench.ts writes a fresh list
// for every measurement (so the question views stay first views) and runs it through
// load.ts in its own process; bench/fanout-clients.ts keeps 1,000 members' sockets open
// meanwhile.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../apps/server/src/db/client.ts';
import { hashToken, SESSION_COOKIE } from '../apps/server/src/auth/sessions.ts';
import { WORDS } from '../apps/server/src/seed/community.ts';
import { LIMITS, ORDERS } from '@porpoise/core';

/**
 * The share of each kind of request (per cent), as in issue 16; issue 18 added an asker's
 * edit of their question and an asker's accept (1% each), taken from the lists and pages;
 * issue 34 a member's inbox (the bell's count, the list, marking read: 2%) and follows of
 * questions and tags (1%), taken from the lists, and mentions in a fifth of comments and
 * answers.
 */
export const MIX = {
  list: 41,
  question: 34,
  search: 6,
  tags: 2,
  vote: 6,
  comment: 3,
  answer: 2,
  ask: 1,
  edit: 1,
  accept: 1,
  inbox: 2,
  follow: 1,
} as const;
export type MixKind = keyof typeof MIX;

/** The reads alone, in the same proportions to each other. */
export const READS_ONLY: Partial<Record<MixKind, number>> = {
  list: MIX.list,
  question: MIX.question,
  search: MIX.search,
  tags: MIX.tags,
};

/** Members whose sessions the mix and its sockets use (the seed's bench_user_1..N). */
export const MIX_MEMBERS = 1_000;

export interface MixRequest {
  kind: MixKind;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
  headers: Record<string, string>;
}

/** A question asked by one of the mix's members: they edit it, and accept its answer. */
export interface OwnedQuestion {
  /** The asker's index in `MixWorld.members`. */
  member: number;
  qid: number;
  /** Its tag names (an edit keeps them, as most edits do). */
  tags: string[];
  /** One of its answers, if it has any. */
  aid: number | null;
}

export interface MixWorld {
  /** One session cookie per member. */
  members: string[];
  /** Question ids run from 1 to this. */
  maxId: number;
  /** The newest questions (the home page's first page and a little more): where much of the activity is. */
  recentIds: number[];
  tagNames: string[];
  /** Paths of second and later list pages, by cursor (the web app's infinite scroll). */
  nextPages: string[];
  /** Questions the members asked: edits and accepts are made by their askers. */
  owned: OwnedQuestion[];
}

/** A small seeded generator, so a run can be repeated. */
export function seededRandom(seed: number): () => number {
  let state = seed % 2_147_483_647 || 1;
  return () => (state = (state * 48_271) % 2_147_483_647) / 2_147_483_647;
}

/**
 * The seed's members (bench_user_1..count) each get a session whose token is derived from
 * the member's name and `salt` (the database's name), stored as the server stores a
 * signed-in session: every run finds the same 1,000 sessions, made once, in one statement,
 * without 1,000 sign-ins through scrypt. Returns the session cookies.
 */
export async function memberSessions(db: Db, salt: string, count = MIX_MEMBERS): Promise<string[]> {
  const usernames = Array.from({ length: count }, (_, i) => `bench_user_${i + 1}`);
  const tokens = usernames.map((name) => createHash('sha256').update(`${salt}:${name}`).digest('base64url'));
  const list = (values: string[]) =>
    sql`array[${sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    )}]::text[]`;
  const [made] = await queryRows<{ n: number }>(
    db,
    sql`with made as (
      insert into sessions (token_hash, account_id, expires_at)
      select t.hash, a.id, now() + interval '30 days'
      from unnest(${list(tokens.map(hashToken))}, ${list(usernames)}) as t(hash, username)
      join accounts a on a.username = t.username
      on conflict (token_hash) do update set expires_at = excluded.expires_at
      returning 1)
    select count(*)::int as n from made`,
  );
  if (made?.n !== count) throw new Error(`the mix needs ${count} seeded members (bench_user_1..), found ${made?.n}`);
  return tokens.map((token) => `${SESSION_COOKIE}=${token}`);
}

/**
 * `count` requests of the mix (`shares` per cent by kind), each from a random member. A
 * question page or a write is on one of the recent questions a quarter of the time (where
 * a community's attention is), otherwise on any question: with 1,000 members, nearly every
 * question view is a first view.
 */
export function mixRequests(
  world: MixWorld,
  shares: Partial<Record<MixKind, number>>,
  count: number,
  seed: number,
): MixRequest[] {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const kinds = Object.entries(shares) as Array<[MixKind, number]>;
  const total = kinds.reduce((sum, [, share]) => sum + share, 0);
  const kindAt = (point: number): MixKind => {
    for (const [kind, share] of kinds) if ((point -= share) < 0) return kind;
    return kinds[kinds.length - 1]![0];
  };
  const anyQuestion = () => (random() < 0.25 ? pick(world.recentIds) : 1 + Math.floor(random() * world.maxId));
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  /** A fifth of comments and answers name a member (each has a socket open in the socket rows). */
  const mention = () => (random() < 0.2 ? ` @bench_user_${1 + Math.floor(random() * world.members.length)}` : '');
  const json = (value: unknown) => JSON.stringify(value);
  const answered = world.owned.filter((question) => question.aid !== null);
  if (world.owned.length === 0 || answered.length === 0) throw new Error('the mix needs questions its members asked');
  /** The asker's own request. */
  const asAsker = (question: OwnedQuestion) => ({ cookie: world.members[question.member]! });
  const make = (kind: MixKind): Omit<MixRequest, 'kind' | 'headers'> & { headers?: MixRequest['headers'] } => {
    switch (kind) {
      case 'list': {
        const order = pick(ORDERS);
        const point = random();
        // Most list views are a first page; some filter by a tag; some scroll on.
        if (point < 0.7)
          return { method: 'GET', path: `/api/getQuestion?order=${order}&limit=${LIMITS.pageSizeDefault}` };
        if (point < 0.9) {
          return {
            method: 'GET',
            path: `/api/getQuestion?order=${order}&tag=${encodeURIComponent(pick(world.tagNames))}&limit=${LIMITS.pageSizeDefault}`,
          };
        }
        // A member's 'My tags' list (their followed tags: issue 34), then further pages.
        if (point < 0.94)
          return { method: 'GET', path: `/api/getQuestion?order=${order}&myTags=true&limit=${LIMITS.pageSizeDefault}` };
        return { method: 'GET', path: pick(world.nextPages) };
      }
      case 'question':
        return { method: 'GET', path: `/api/getQuestionById/${anyQuestion()}` };
      case 'search':
        return {
          method: 'GET',
          path: `/api/getQuestion?search=${encodeURIComponent(random() < 0.2 ? `[${pick(world.tagNames)}] ${words(1)}` : words(2))}&limit=${LIMITS.pageSizeDefault}`,
        };
      case 'tags':
        return { method: 'GET', path: '/api/tag/getTagsWithQuestionNumber' };
      case 'vote':
        return {
          method: 'POST',
          path: random() < 0.85 ? '/api/upvoteQuestion' : '/api/downvoteQuestion',
          body: json({ qid: String(anyQuestion()) }),
        };
      case 'comment':
        return {
          method: 'POST',
          path: '/api/comment/addComment',
          body: json({
            id: String(anyQuestion()),
            type: 'question',
            comment: { text: `Have you tried ${words(3)}?${mention()}` },
          }),
        };
      case 'answer':
        return {
          method: 'POST',
          path: '/api/answer/addAnswer',
          body: json({
            qid: String(anyQuestion()),
            ans: { text: `You need to ${words(4)} before you ${words(2)} it.${mention()}` },
          }),
        };
      case 'ask':
        return {
          method: 'POST',
          path: '/api/addQuestion',
          body: json({
            title: `How do I ${words(4)}?`,
            text: `I am working with ${words(6)} and I get an error. What am I missing?`,
            tags: [{ name: pick(world.tagNames) }, { name: pick(world.tagNames) }],
          }),
        };
      case 'edit': {
        const question = pick(world.owned);
        return {
          method: 'PUT',
          path: `/api/question/${question.qid}`,
          body: json({
            title: `How do I ${words(4)}?`,
            text: `I am working with ${words(6)} and I get an error. What am I missing? (Edited: ${words(3)}.)`,
            tags: question.tags.map((name) => ({ name })),
            reason: 'more details',
          }),
          headers: asAsker(question),
        };
      }
      case 'inbox': {
        // The bell's count on most page loads; the list, and marking it all read, now and then.
        const point = random();
        if (point < 0.6) return { method: 'GET', path: '/api/notifications/unreadCount' };
        if (point < 0.9) return { method: 'GET', path: `/api/notifications?limit=${LIMITS.notificationsPageDefault}` };
        return { method: 'POST', path: '/api/notifications/markRead', body: json({ all: true }) };
      }
      case 'follow':
        // Mostly a question (its page's toggle), now and then a tag (the tags page's).
        return random() < 0.8
          ? { method: 'POST', path: `/api/question/${anyQuestion()}/follow`, body: '{}' }
          : { method: 'POST', path: `/api/tag/${encodeURIComponent(pick(world.tagNames))}/follow`, body: '{}' };
      case 'accept': {
        const question = pick(answered);
        return {
          method: 'POST',
          path: '/api/answer/acceptAnswer',
          body: json({ qid: String(question.qid), aid: String(question.aid) }),
          headers: asAsker(question),
        };
      }
    }
  };
  return Array.from({ length: count }, () => {
    const kind = kindAt(random() * total);
    const { headers, ...request } = make(kind);
    return { kind, ...request, headers: headers ?? { cookie: pick(world.members) } };
  });
}

/**
 * What each of the 1,000 sockets shows, as a browser tab would: half a list's first page
 * (its 50 ids), the rest one question page (chosen as the mix chooses them).
 */
export function socketPages(world: MixWorld, firstPages: number[][], seed: number): number[][] {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  return world.members.map(() =>
    random() < 0.5
      ? pick(firstPages)
      : [random() < 0.25 ? pick(world.recentIds) : 1 + Math.floor(random() * world.maxId)],
  );
}
