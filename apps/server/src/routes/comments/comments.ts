import { LIMITS } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/contract-routes.ts';
import { addComment } from '../../commands/add-comment.ts';
import { presentComment } from '../../presenters/question.ts';
import { setCommentDeleted } from '../../commands/delete-post.ts';
import { notFound } from '../../lib/http-error.ts';
import type { Actor } from '../../policies/actor.ts';
import { authorize, refuseHidden } from '../../policies/authorize.ts';
import { getCommentOwnership } from '../../queries/questions.ts';
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

  // Its author or a moderator deletes a comment, and undeletes it (docs/product.md section 9).
  const deleting = { bodyLimit: bodyLimitFor(0), limit: 'vote' } as const;
  const setDeleted =
    (deleted: boolean) =>
    async ({ actor, params: { id } }: { actor: Actor; params: { id: string } }) => {
      const comment = await getCommentOwnership(app.db, Number(id));
      if (!comment) throw notFound('Comment not found');
      // Under a deleted question or answer, it is not there for whoever may not see that.
      refuseHidden(actor, { type: 'question', askerId: comment.question.authorId }, comment.question.deleted);
      if (comment.answer) {
        refuseHidden(actor, { type: 'answer', authorId: comment.answer.authorId }, comment.answer.deleted);
      }
      const { authorId, deletedBy, held } = comment;
      const resource = { type: 'comment', authorId, deletedBy, held } as const;
      refuseHidden(actor, resource, comment.deleted);
      authorize(actor, deleted ? 'delete' : 'undelete', resource);
      const result = await app.events.settle(setCommentDeleted(app.db, actor, Number(id), deleted, authorId));
      return { _id: id, deleted: result.deleted };
    };
  route(app, 'deleteComment', deleting, setDeleted(true));
  route(app, 'undeleteComment', deleting, setDeleted(false));
}
