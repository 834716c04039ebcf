import { z } from '@porpoise/core/schemas';
import type { FastifyInstance } from 'fastify';
import { JsonBody } from '../../lib/json-body.ts';
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

  // Each tag keeps its question count (commands/add-question.ts), so the page is one read of
  // the tags table (counting question_tags took 119 ms at 100k questions); kept until a new
  // question changes the counts.
  app.get('/tag/getTagsWithQuestionNumber', async (request, reply) => {
    requireActor(request.actor);
    const body = await app.contentCache.tags.get('all', async () =>
      JsonBody.of((await listTagsWithCounts(app.db)).map(presentTagWithCount)),
    );
    return body.send(request, reply);
  });
}
