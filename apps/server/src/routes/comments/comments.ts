import { LIMITS } from '@porpoise/core';
import { commentInput } from '@porpoise/core/schemas';
import type { FastifyInstance } from 'fastify';
import { addComment } from '../../commands/add-comment.ts';
import { parse } from '../../lib/parse.ts';
import { assertNamesSelf, refuseAnonymous, requireActor } from '../../policies/actor.ts';
import { presentComment } from '../../presenters/question.ts';
import { limitPosting } from '../../lib/posting-limits.ts';
import { bodyLimitFor } from '../../lib/request-bodies.ts';

export async function commentRoutes(app: FastifyInstance) {
  const bodyLimit = bodyLimitFor(LIMITS.commentMax + LIMITS.usernameMax);
  /**
   * Answers the new comment; commentUpdate carries `{result: {qid, parentId, comment}, type}`
   * so the list and the question page can put it under the right question or answer.
   */
  app.post('/comment/addComment', { onRequest: refuseAnonymous, bodyLimit }, async (request) => {
    const actor = requireActor(request.actor);
    await limitPosting(app, actor, 'comment');
    const input = parse(commentInput, request.body);
    assertNamesSelf(actor, input.comment.commentBy);
    const {
      result: { comment: row },
      events,
    } = await addComment(app.db, actor, input.type, Number(input.id), input.comment.text);
    await app.events.apply(events);
    const comment = presentComment({
      id: row.id,
      text: row.text,
      commentBy: actor.username,
      commentDateTime: row.commentDateTime,
    });
    return comment;
  });
}
