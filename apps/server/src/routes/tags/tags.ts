import { ENDPOINTS } from '@porpoise/core/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/contract-routes.ts';
import { JsonBody } from '../../lib/json-body.ts';
import { notFound } from '../../lib/http-error.ts';
import { presentTag, presentTagWithCount } from '../../presenters/question.ts';
import { getTag, listTagsWithCounts } from '../../queries/questions.ts';

export async function tagRoutes(app: FastifyInstance) {
  route(app, 'getTagByName', {}, async ({ params: { name } }) => {
    const tag = await getTag(app.db, name);
    if (!tag) throw notFound(`Tag not found: ${name}`);
    return presentTag(tag);
  });

  // Each tag keeps its question count (commands/add-question.ts), so the page is one read of
  // the tags table (counting question_tags took 119 ms at 100k questions); kept until a new
  // question changes the counts.
  route(app, 'getTagsWithQuestionNumber', {}, async (_input, request, reply) => {
    const body = await app.contentCache.tags.get('all', async () =>
      JsonBody.of(
        ENDPOINTS.getTagsWithQuestionNumber.response,
        (await listTagsWithCounts(app.db)).map(presentTagWithCount),
      ),
    );
    return body.send(request, reply);
  });
}
