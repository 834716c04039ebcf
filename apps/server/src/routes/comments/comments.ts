import { LIMITS } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/contract-routes.ts';
import { addComment } from '../../commands/add-comment.ts';
import { presentComment } from '../../presenters/question.ts';
import { setCommentDeleted } from '../../commands/delete-post.ts';
import type { Actor } from '../../policies/actor.ts';
import { authorize } from '../../policies/authorize.ts';
import { visibleComment } from '../../queries/visible-posts.ts';
import { bodyLimitFor } from '../../http/request-bodies.ts';

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
    const { comment: row } = await app.events.write((tx) =>
      addComment(tx, actor, input.type, Number(input.id), input.comment.text),
    );
    const comment = presentComment({
      id: row.id,
      text: row.text,
      commentBy: actor.username,
      commentDateTime: row.commentDateTime,
    });
    return comment;
  });

  // Its author or a moderator deletes a comment, and undeletes it (docs/product.md section 9).
  const deleting = { bodyLimit: bodyLimitFor(0), limit: 'delete' } as const;
  const setDeleted =
    (deleted: boolean) =>
    async ({ actor, params: { id } }: { actor: Actor; params: { id: string } }) => {
      const resource = await visibleComment(app.db, actor, Number(id));
      authorize(actor, deleted ? 'delete' : 'undelete', resource);
      const result = await app.events.settle(setCommentDeleted(app.db, actor, Number(id), deleted, resource.authorId));
      return { _id: id, deleted: result.deleted };
    };
  route(app, 'deleteComment', deleting, setDeleted(true));
  route(app, 'undeleteComment', deleting, setDeleted(false));
}
