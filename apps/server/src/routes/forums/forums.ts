import { SOCKET_EVENTS } from '@porpoise/core';
import { forumInput, z } from '@porpoise/core/schemas';
import type { FastifyInstance } from 'fastify';
import { createForum } from '../../commands/threads.ts';
import { parse } from '../../lib/parse.ts';
import { assertNamesSelf, requireActor } from '../../policies/actor.ts';
import { presentForum } from '../../presenters/thread.ts';
import { listForums } from '../../queries/threads.ts';

const usernameQuery = z.object({ username: z.string().optional() });

/** Forums are public to signed-in users; creating one creates its discussion thread. */
export async function forumRoutes(app: FastifyInstance) {
  app.get('/forum/getForums', async (request) => {
    const actor = requireActor(request.actor);
    assertNamesSelf(actor, parse(usernameQuery, request.query).username);
    return (await listForums(app.db)).map(presentForum);
  });

  app.post('/forum/addForum', async (request) => {
    const actor = requireActor(request.actor);
    const input = parse(forumInput, request.body);
    const row = await createForum(app.db, actor, input.name, input.description);
    const forum = presentForum(row);
    app.realtime.toSignedIn(SOCKET_EVENTS.forumUpdate, forum);
    return forum;
  });
}
