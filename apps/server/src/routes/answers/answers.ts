import { LIMITS, type VoteDirection } from '@porpoise/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { route, type ContractInput } from '../../lib/contract-routes.ts';
import { addAnswer } from '../../commands/add-answer.ts';
import { toggleAcceptedAnswer } from '../../commands/accept-answer.ts';
import { toggleAnswerVote } from '../../commands/vote.ts';
import { notFound } from '../../lib/http-error.ts';
import { requireActor, type Actor } from '../../policies/actor.ts';
import { authorize, hiddenPostsSeenBy, refuseHidden } from '../../policies/authorize.ts';
import { setAnswerDeleted } from '../../commands/delete-post.ts';
import { editAnswer } from '../../commands/edit-post.ts';
import { presentAnswer, presentRevision } from '../../presenters/question.ts';
import {
  getAnswerOwnership,
  getAnswerRow,
  getAnswerVoters,
  getAnswerWithQuestion,
  getQuestionOwnership,
  listRevisions,
} from '../../queries/questions.ts';
import { postingHits, refuseKnownOverLimit, remembering429 } from '../../lib/posting-limits.ts';
import { bodyLimitFor } from '../../lib/request-bodies.ts';
import { awaitsApproval, editAwaitsApproval } from '../../lib/post-queue.ts';

/** Answering, answer votes and the accepted answer (spec section 7, docs/product.md section 7). */
export async function answerRoutes(app: FastifyInstance) {
  // The text, and the spec's ansBy.
  const bodyLimit = bodyLimitFor(LIMITS.answerTextMax + LIMITS.usernameMax);
  // The limits are counted in the answer's own statement (one round trip per answer), so
  // the text is checked first; an account already past them is refused before that.
  const refuseOverLimit = async (request: FastifyRequest) =>
    refuseKnownOverLimit(app, requireActor(request.actor), 'answer');
  const options = {
    bodyLimit,
    limit: refuseOverLimit,
    namesActor: ({ body }: { body: { ans: { ansBy?: string } } }) => body.ans.ansBy,
  };
  route(app, 'addAnswer', options, async ({ actor, body: input }) => {
    const hits = postingHits(app, actor, 'answer');
    const held = await awaitsApproval(app, actor);
    const row = await app.events.settle(
      remembering429(app, actor, 'answer', () =>
        addAnswer(app.db, actor, Number(input.qid), input.ans.text, hits, held),
      ),
    );
    return presentAnswer(
      {
        id: row.id,
        text: row.text,
        ansBy: actor.username,
        ansDateTime: row.ansDateTime,
        upVotes: [],
        downVotes: [],
        editedAt: null,
        editedBy: null,
        ...(held ? { deletedAt: row.ansDateTime, heldFor: 'approval' as const } : {}),
      },
      [],
    );
  });

  // Each vote toggles, like a question's (docs/product.md section 7); both endpoints take and answer the same shapes.
  const vote =
    (direction: VoteDirection) =>
    async ({ actor, body: input }: { actor: Actor; body: ContractInput<'upvoteAnswer'>['body'] }) => {
      const answerId = Number(input.aid);
      const { questionId } = await app.events.settle(toggleAnswerVote(app.db, actor, answerId, direction));
      return { qid: String(questionId), aid: String(answerId), ...(await getAnswerVoters(app.db, answerId)) };
    };
  const voteOptions = {
    bodyLimit: bodyLimitFor(LIMITS.usernameMax),
    limit: 'vote',
    namesActor: ({ body }: { body: { username?: string } }) => body.username,
  } as const;
  route(app, 'upvoteAnswer', voteOptions, vote('up'));
  route(app, 'downvoteAnswer', voteOptions, vote('down'));

  /** An answer's author and whether it shows: 404 when it, or its question, is deleted and hidden from the actor. */
  const visibleAnswer = async (actor: Actor, answerId: number) => {
    const answer = await getAnswerOwnership(app.db, answerId);
    if (!answer) throw notFound('Answer not found');
    refuseHidden(actor, { type: 'question', askerId: answer.question.authorId }, answer.question.deleted);
    const resource = {
      type: 'answer',
      authorId: answer.authorId,
      deletedBy: answer.deletedBy,
      held: answer.held,
    } as const;
    refuseHidden(actor, resource, answer.deleted);
    return resource;
  };

  route(app, 'getAnswer', {}, async ({ actor, params: { id } }) => {
    await visibleAnswer(actor, Number(id));
    const answer = await getAnswerWithQuestion(app.db, Number(id));
    if (!answer) throw notFound('Answer not found');
    return answer;
  });

  // The author, or a moderator, edits (docs/product.md section 9), with answering's rules and limits.
  const editing = { bodyLimit: bodyLimitFor(LIMITS.answerTextMax + LIMITS.editReasonMax), limit: 'answer' } as const;
  route(app, 'editAnswer', editing, async ({ actor, params: { id }, body }) => {
    const answerId = Number(id);
    const answer = await visibleAnswer(actor, answerId);
    authorize(actor, 'edit', answer);
    const held = await editAwaitsApproval(app, actor, answer.authorId);
    await app.events.settle(editAnswer(app.db, actor, answerId, body.text, body.reason, held));
    const row = await getAnswerRow(app.db, answerId, hiddenPostsSeenBy(actor));
    if (!row) throw notFound('Answer not found');
    return presentAnswer(row, []);
  });

  route(app, 'answerRevisions', {}, async ({ actor, params: { id } }) => {
    await visibleAnswer(actor, Number(id));
    const revisions = await listRevisions(app.db, { answerId: Number(id) });
    if (!revisions) throw notFound('Answer not found');
    return revisions.map((row) => presentRevision(row, 'answer'));
  });

  // Only the asker accepts; accepting the accepted answer takes the mark back.
  const acceptOptions = { bodyLimit: bodyLimitFor(0), limit: 'vote' } as const;
  route(app, 'acceptAnswer', acceptOptions, async ({ actor, body: input }) => {
    const questionId = Number(input.qid);
    const question = await getQuestionOwnership(app.db, questionId);
    if (!question) throw notFound('Question not found');
    refuseHidden(actor, { type: 'question', askerId: question.askerId }, question.deleted);
    authorize(actor, 'accept', { type: 'question', askerId: question.askerId });
    const { acceptedAnswerId } = await app.events.settle(toggleAcceptedAnswer(app.db, questionId, Number(input.aid)));
    return { qid: input.qid, acceptedAnswer: acceptedAnswerId === null ? null : String(acceptedAnswerId) };
  });

  // Its author or a moderator deletes an answer, and undeletes it (docs/product.md section 9).
  const deleting = { bodyLimit: bodyLimitFor(0), limit: 'vote' } as const;
  const setDeleted =
    (deleted: boolean) =>
    async ({ actor, params: { id } }: { actor: Actor; params: { id: string } }) => {
      const resource = await visibleAnswer(actor, Number(id));
      authorize(actor, deleted ? 'delete' : 'undelete', resource);
      const result = await app.events.settle(setAnswerDeleted(app.db, actor, Number(id), deleted, resource.authorId));
      return { _id: id, deleted: result.deleted };
    };
  route(app, 'deleteAnswer', deleting, setDeleted(true));
  route(app, 'undeleteAnswer', deleting, setDeleted(false));
}
