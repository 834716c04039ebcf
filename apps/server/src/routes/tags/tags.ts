import { ENDPOINTS } from '@porpoise/core/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/contract-routes.ts';
import { JsonBody } from '../../http/json-body.ts';
import { notFound } from '../../http/http-error.ts';
import { presentTag, presentTagWithCount } from '../../presenters/question.ts';
import { getTag, listTagsWithCounts } from '../../queries/tags.ts';
import { suggestTags } from '../../queries/suggestions.ts';

export async function tagRoutes(app: FastifyInstance) {
  route(app, 'getTagByName', {}, async ({ params: { name } }) => {
    const tag = await getTag(app.db, name);
    if (!tag) throw notFound(`Tag not found: ${name}`);
    return presentTag(tag);
  });

  // Each tag keeps its question count (commands/add-question.ts), so the page is one read of
  // the tags table (counting question_tags took 119 ms at 100k questions); kept until an
  // event changes the counts (events/invalidation.ts: asked, retagged, deleted, held, shown).
  route(app, 'getTagsWithQuestionNumber', {}, async (_input, request, reply) => {
    const body = await app.contentCache.tags.get('all', async () =>
      JsonBody.of(
        ENDPOINTS.getTagsWithQuestionNumber.response,
        (await listTagsWithCounts(app.db)).map(presentTagWithCount),
      ),
    );
    return body.send(request, reply);
  });

  // Suggestions as one types (docs/product.md section 5), kept like the tags page whose counts
  // they show: by prefix, until a write changes the counts (cache/content-cache.ts).
  route(app, 'suggestTags', {}, async ({ query: { prefix } }, request, reply) => {
    const key = prefix.toLowerCase();
    const body = await app.contentCache.tagSuggestions.get(key, async () =>
      JsonBody.of(ENDPOINTS.suggestTags.response, await suggestTags(app.db, key)),
    );
    return body.send(request, reply);
  });
}
