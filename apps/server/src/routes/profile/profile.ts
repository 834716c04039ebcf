import { eq, sql } from 'drizzle-orm';
import { updateBio } from '../../commands/account-settings.ts';
import { accounts, profiles } from '../../db/schema.ts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/contract-routes.ts';
import { notFound } from '../../lib/http-error.ts';
import { assertNamesSelf } from '../../policies/actor.ts';
import { listAnswersBy, listQuestionsBy } from '../../queries/questions.ts';
import { LIMITS } from '@porpoise/core';
import { bodyLimitFor } from '../../lib/request-bodies.ts';

/** Any signed-in user may see anyone's questions and answers; an unknown user is a 404. */
export async function profileRoutes(app: FastifyInstance) {
  route(app, 'getUserQuestions', {}, async ({ query: { username } }) => {
    const questions = await listQuestionsBy(app.db, username);
    if (!questions) throw notFound('User not found');
    return questions;
  });

  route(app, 'getUserAnswers', {}, async ({ query: { username } }) => {
    const answers = await listAnswersBy(app.db, username);
    if (!answers) throw notFound('User not found');
    return answers;
  });

  /** The stored bio (empty for a new account: each screen shows its own default text). */
  route(app, 'getBio', {}, async ({ query: { username } }) => {
    const [row] = await app.db
      .select({ username: accounts.username, bio: profiles.bio })
      .from(accounts)
      .leftJoin(profiles, eq(profiles.accountId, accounts.id))
      .where(sql`lower(${accounts.username}) = lower(${username})`);
    if (!row) throw notFound('User not found');
    return { username: row.username, bio: row.bio ?? '' };
  });

  const bodyLimit = bodyLimitFor(LIMITS.bioMax + LIMITS.usernameMax);
  route(app, 'updateBio', { bodyLimit }, async ({ actor, body: input }) => {
    assertNamesSelf(actor, input.username);
    const bio = await updateBio(app.db, actor.id, input.bio);
    return { username: actor.username, bio };
  });
}
