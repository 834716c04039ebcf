import { bioInput, z } from '@porpoise/core/schemas';
import { eq, sql } from 'drizzle-orm';
import { updateBio } from '../../commands/account-settings.ts';
import { accounts, profiles } from '../../db/schema.ts';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/http-error.ts';
import { parse } from '../../lib/parse.ts';
import { assertNamesSelf, refuseAnonymous, requireActor } from '../../policies/actor.ts';
import { listAnswersBy, listQuestionsBy } from '../../queries/questions.ts';
import { LIMITS } from '@porpoise/core';
import { bodyLimitFor } from '../../lib/request-bodies.ts';

const byUsername = z.object({ username: z.string({ error: 'username is required' }).min(1).max(100) });

/** Any signed-in user may see anyone's questions and answers; an unknown user is a 404. */
export async function profileRoutes(app: FastifyInstance) {
  app.get('/profile/getQuestions', async (request) => {
    requireActor(request.actor);
    const { username } = parse(byUsername, request.query);
    const questions = await listQuestionsBy(app.db, username);
    if (!questions) throw notFound('User not found');
    return questions;
  });

  app.get('/profile/getAnswers', async (request) => {
    requireActor(request.actor);
    const { username } = parse(byUsername, request.query);
    const answers = await listAnswersBy(app.db, username);
    if (!answers) throw notFound('User not found');
    return answers;
  });

  /** The stored bio (empty for a new account: each screen shows its own default text). */
  app.get('/profile/getBio', async (request) => {
    requireActor(request.actor);
    const { username } = parse(byUsername, request.query);
    const [row] = await app.db
      .select({ username: accounts.username, bio: profiles.bio })
      .from(accounts)
      .leftJoin(profiles, eq(profiles.accountId, accounts.id))
      .where(sql`lower(${accounts.username}) = lower(${username})`);
    if (!row) throw notFound('User not found');
    return { username: row.username, bio: row.bio ?? '' };
  });

  const bodyLimit = bodyLimitFor(LIMITS.bioMax + LIMITS.usernameMax);
  app.put('/profile/updateBio', { onRequest: refuseAnonymous, bodyLimit }, async (request) => {
    const actor = requireActor(request.actor);
    const input = parse(bioInput, request.body);
    assertNamesSelf(actor, input.username);
    const bio = await updateBio(app.db, actor.id, input.bio);
    return { username: actor.username, bio };
  });
}
