import { z } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/http-error.ts';
import { parse } from '../../lib/parse.ts';
import { requireActor } from '../../policies/actor.ts';
import { listAnswersBy, listQuestionsBy } from '../../queries/questions.ts';

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
}
