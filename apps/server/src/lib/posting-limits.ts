import type { FastifyInstance } from 'fastify';
import type { Actor } from '../policies/actor.ts';
import type { RateHit } from './rate-counters.ts';

export type PostKind = 'question' | 'answer' | 'comment' | 'message' | 'forum' | 'thread' | 'vote';

/**
 * Per-account limits on writing, like Discourse's: a burst-tolerant rate (about one post
 * every 5 s) and a daily cap per kind. Past either, the request gets 429 with Retry-After.
 */
export async function limitPosting(app: FastifyInstance, actor: Actor, kind: PostKind): Promise<void> {
  await app.rateLimiter.hitEach(postingHits(app, actor, kind));
}

/** The counters one post of `kind` bumps (for a command that counts them in its own statement). */
export function postingHits(app: FastifyInstance, actor: Actor, kind: PostKind): RateHit[] {
  const limits = app.config.rateLimits;
  const daily = {
    question: limits.questionsPerDay,
    answer: limits.answersPerDay,
    comment: limits.commentsPerDay,
    message: limits.messagesPerDay,
    forum: limits.forumsPerDay,
    thread: limits.threadsPerDay,
    vote: limits.votesPerDay,
  }[kind];
  const burst =
    kind === 'vote'
      ? { key: `vote:account:${actor.id}`, rule: limits.votesPerAccount }
      : { key: `post:account:${actor.id}`, rule: limits.postsPerAccount };
  return [burst, { key: `${kind}:day:account:${actor.id}`, rule: daily }];
}
