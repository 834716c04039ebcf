import { MESSAGES } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import type { Actor } from '../policies/actor.ts';
import { HttpError } from '../http/http-error.ts';
import type { RateHit } from './rate-counters.ts';

/**
 * What a per-account limit counts: posts of a kind (which share one burst rate), or one of
 * the other writes, each with its own counters: votes, deletions (and undeletions),
 * decisions on a question (closing, reopening, accepting an answer), flags and image uploads.
 */
export type LimitKind =
  'question' | 'answer' | 'comment' | 'message' | 'forum' | 'thread' | 'vote' | 'delete' | 'decide' | 'flag' | 'upload';

/**
 * Per-account limits on writing, like Discourse's: a burst-tolerant rate (about one post
 * every 5 s) and a daily cap per kind. Past either, the request gets 429 with Retry-After.
 * Routes call it before they read the post's text, so text past a limit costs no checking.
 */
export async function limitPosting(app: FastifyInstance, actor: Actor, kind: LimitKind): Promise<void> {
  refuseKnownOverLimit(app, actor, kind);
  await remembering429(app, actor, kind, () => app.rateLimiter.hitEach(postingHits(app, actor, kind)));
}

/**
 * PorpChat's limits (docs/product.md section 4): about 10 posts per 10 s per client (an account,
 * else an address) and 500 a day per address, whoever posts from it. A member's PorpChat
 * posts are messages too, held to their account's caps first (12 posts a minute, 1,000
 * messages a day), so a typed name is no way around them. `address` is the addressKey.
 */
export async function limitPorpchat(app: FastifyInstance, actor: Actor | null, address: string): Promise<void> {
  if (actor) await limitPosting(app, actor, 'message');
  const limits = app.config.rateLimits;
  await app.rateLimiter.hitEach([
    { key: `porpchat:${actor ? `user:${actor.id}` : `ip:${address}`}`, rule: limits.porpchatPerClient },
    { key: `porpchat:day:ip:${address}`, rule: limits.porpchatPerAddressPerDay },
  ]);
}

/** The counters one post of `kind` bumps (for a command that counts them in its own statement). */
export function postingHits(app: FastifyInstance, actor: Actor, kind: LimitKind): RateHit[] {
  const limits = app.config.rateLimits;
  const daily = {
    question: limits.questionsPerDay,
    answer: limits.answersPerDay,
    comment: limits.commentsPerDay,
    message: limits.messagesPerDay,
    forum: limits.forumsPerDay,
    thread: limits.threadsPerDay,
    vote: limits.votesPerDay,
    delete: limits.deletesPerDay,
    decide: limits.decisionsPerDay,
    flag: limits.flagsPerDay,
    upload: limits.uploadsPerDay,
  }[kind];
  const ownBurst = {
    vote: limits.votesPerAccount,
    delete: limits.deletesPerAccount,
    decide: limits.decisionsPerAccount,
    flag: limits.flagsPerAccount,
    upload: limits.uploadsPerAccount,
  };
  const burst =
    kind in ownBurst
      ? { key: `${kind}:account:${actor.id}`, rule: ownBurst[kind as keyof typeof ownBurst] }
      : { key: `post:account:${actor.id}`, rule: limits.postsPerAccount };
  return [burst, { key: `${kind}:day:account:${actor.id}`, rule: daily }];
}

/**
 * When each account's posts of a kind may come again, as the last 429 said: until then a
 * post of that kind is refused at once, before its text is read and without a database
 * round trip. Only a shortcut: the counters in the database decide everything else, and
 * a post refused here would be refused there too (the same kind bumps the same counters,
 * which stay past their max until the window the 429 named is over). At most
 * REFUSALS_KEPT accounts per process; the oldest entry goes first.
 */
const refusals = new WeakMap<FastifyInstance, Map<string, number>>();
const REFUSALS_KEPT = 10_000;

const refusalKey = (actor: Actor, kind: LimitKind) => `${kind}:${actor.id}`;

function refusalsOf(app: FastifyInstance): Map<string, number> {
  let kept = refusals.get(app);
  if (!kept) refusals.set(app, (kept = new Map<string, number>()));
  return kept;
}

/** 429 with the remaining Retry-After when this account's last post of `kind` was refused and its wait is not over. */
export function refuseKnownOverLimit(app: FastifyInstance, actor: Actor, kind: LimitKind): void {
  const kept = refusalsOf(app);
  const key = refusalKey(actor, kind);
  const until = kept.get(key);
  if (until === undefined) return;
  const waitMs = until - Date.now();
  if (waitMs <= 0) {
    kept.delete(key);
    return;
  }
  throw new HttpError(429, MESSAGES.tooManyRequests, { 'Retry-After': String(Math.ceil(waitMs / 1000)) });
}

/** Runs a write that counts the posting limits (see addAnswer); its 429 is remembered for refuseKnownOverLimit. */
export async function remembering429<T>(
  app: FastifyInstance,
  actor: Actor,
  kind: LimitKind,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const retryAfter =
      error instanceof HttpError && error.statusCode === 429 ? Number(error.headers['Retry-After']) : 0;
    if (retryAfter > 0) remember(refusalsOf(app), refusalKey(actor, kind), Date.now() + retryAfter * 1000);
    throw error;
  }
}

function remember(kept: Map<string, number>, key: string, until: number): void {
  kept.delete(key);
  if (kept.size >= REFUSALS_KEPT) {
    const now = Date.now();
    for (const [old, oldUntil] of kept) if (oldUntil <= now) kept.delete(old);
    if (kept.size >= REFUSALS_KEPT) kept.delete(kept.keys().next().value!);
  }
  kept.set(key, until);
}
