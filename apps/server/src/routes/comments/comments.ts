import { LIMITS } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/contract-routes.ts';
import { addComment } from '../../commands/add-comment.ts';
import { presentComment } from '../../presenters/question.ts';
import { bodyLimitFor } from '../../lib/request-bodies.ts';

export async function commentRoutes(app: FastifyInstance) {
  const bodyLimit = bodyLimitFor(LIMITS.commentMax + LIMITS.usernameMax);
  /**
   * Answers the new comment; commentUpdate carries `{result: {qid, parentId, comment}, type}`
   * so the list and the question page can put it under the right question or answer.
   */
  const options = {
    bodyLimit,
    limit: 'comment',
    namesActor: ({ body }: { body: { comment: { commentBy?: string } } }) => body.comment.commentBy,
  } as const;
  route(app, 'addComment', options, async ({ actor, body: input }) => {
    const { comment: row } = await app.events.settle(
      addComment(app.db, actor, input.type, Number(input.id), input.comment.text),
    );
    const comment = presentComment({
      id: row.id,
      text: row.text,
      commentBy: actor.username,
      commentDateTime: row.commentDateTime,
    });
    return comment;
  });
}
