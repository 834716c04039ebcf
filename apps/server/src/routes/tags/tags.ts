import { z } from '@porpoise/core/schemas';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/http-error.ts';
import { parse } from '../../lib/parse.ts';
import { requireActor } from '../../policies/actor.ts';
import { presentTag, presentTagWithCount } from '../../presenters/question.ts';
import { getTag, listTagsWithCounts } from '../../queries/questions.ts';

const byName = z.object({ name: z.string().min(1).max(100) });

export async function tagRoutes(app: FastifyInstance) {
  app.get('/tag/getTagByName/:name', async (request) => {
    requireActor(request.actor);
    const { name } = parse(byName, request.params);
    const tag = await getTag(app.db, name);
    if (!tag) throw notFound(`Tag not found: ${name}`);
    return presentTag(tag);
  });

  app.get('/tag/getTagsWithQuestionNumber', async (request) => {
    requireActor(request.actor);
    return (await listTagsWithCounts(app.db)).map(presentTagWithCount);
  });
}
