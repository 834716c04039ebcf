import { LIMITS, type VoteDirection } from '@porpoise/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { route, type ContractInput } from '../../http/contract-routes.ts';
import { accepted, addAnswer } from '../../commands/add-answer.ts';
import { toggleAcceptedAnswer } from '../../commands/accept-answer.ts';
import { toggleAnswerVote } from '../../commands/vote.ts';
import { postNotFound } from '../../http/http-error.ts';
import { requireActor, type Actor } from '../../policies/actor.ts';
import { getStanding } from '../../queries/privileges.ts';
import { authorize, hiddenPostsSeenBy } from '../../policies/authorize.ts';
import { setAnswerDeleted } from '../../commands/delete-post.ts';
import { editAnswer } from '../../commands/edit-post.ts';
import { presentAnswer, presentRevision, presentUserAnswer } from '../../presenters/question.ts';
import { getAnswerRow, getAnswerWithQuestion } from '../../queries/answers.ts';
import { listRevisions } from '../../queries/revisions.ts';
import { getAnswerVoters } from '../../queries/votes.ts';
import { visibleAnswer, visibleQuestion } from '../../queries/visible-posts.ts';
import { postingHits, refuseKnownOverLimit, remembering429 } from '../../limits/posting-limits.ts';
import { bodyLimitFor } from '../../http/request-bodies.ts';
import { awaitsApproval, editAwaitsApproval } from '../../policies/post-queue.ts';

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
    const row = await remembering429(app, actor, 'answer', async () =>
      accepted(await app.events.write((tx) => addAnswer(tx, actor, Number(input.qid), input.ans.text, hits, held))),
    );
    return presentAnswer(
      {
        id: row.id,
        text: row.text,
        images: row.images,
        ansBy: actor.username,
        ansByReputation: row.ansByReputation,
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
      const { questionId } = await app.events.write((tx) => toggleAnswerVote(tx, actor, answerId, direction));
      return { qid: String(questionId), aid: String(answerId), ...(await getAnswerVoters(app.db, answerId)) };
    };
  const voteOptions = {
    bodyLimit: bodyLimitFor(LIMITS.usernameMax),
    limit: 'vote',
    namesActor: ({ body }: { body: { username?: string } }) => body.username,
  } as const;
  route(app, 'upvoteAnswer', voteOptions, vote('up'));
  route(app, 'downvoteAnswer', voteOptions, vote('down'));

  route(app, 'getAnswer', {}, async ({ actor, params: { id } }) => {
    await visibleAnswer(app.db, actor, Number(id));
    const answer = await getAnswerWithQuestion(app.db, Number(id));
    if (!answer) throw postNotFound('answer');
    return presentUserAnswer(answer);
  });

  // The author, or a moderator, edits (docs/product.md section 9), with answering's rules and limits.
  const editing = { bodyLimit: bodyLimitFor(LIMITS.answerTextMax + LIMITS.editReasonMax), limit: 'answer' } as const;
  route(app, 'editAnswer', editing, async ({ actor, params: { id }, body }) => {
    const answerId = Number(id);
    const answer = await visibleAnswer(app.db, actor, answerId);
    // Another's answer: 'Edit any post' may allow it (docs/product.md section 13).
    authorize(actor, 'edit', answer, actor.id === answer.authorId ? undefined : await getStanding(app.db, actor.id));
    const held = await editAwaitsApproval(app, actor, answer.authorId);
    await app.events.write((tx) => editAnswer(tx, actor, answerId, body.text, body.reason, held));
    const row = await getAnswerRow(app.db, answerId, hiddenPostsSeenBy(actor));
    if (!row) throw postNotFound('answer');
    return presentAnswer(row, []);
  });

  route(app, 'answerRevisions', {}, async ({ actor, params: { id } }) => {
    await visibleAnswer(app.db, actor, Number(id));
    const revisions = await listRevisions(app.db, { answerId: Number(id) });
    if (!revisions) throw postNotFound('answer');
    return revisions.map((row) => presentRevision(row, 'answer'));
  });

  // Only the asker accepts; accepting the accepted answer takes the mark back.
  const acceptOptions = { bodyLimit: bodyLimitFor(0), limit: 'decide' } as const;
  route(app, 'acceptAnswer', acceptOptions, async ({ actor, body: input }) => {
    const questionId = Number(input.qid);
    authorize(actor, 'accept', await visibleQuestion(app.db, actor, questionId));
    const { acceptedAnswerId } = await app.events.write((tx) =>
      toggleAcceptedAnswer(tx, questionId, Number(input.aid)),
    );
    return { qid: input.qid, acceptedAnswer: acceptedAnswerId === null ? null : String(acceptedAnswerId) };
  });

  // Its author or a moderator deletes an answer, and undeletes it (docs/product.md section 9).
  const deleting = { bodyLimit: bodyLimitFor(0), limit: 'delete' } as const;
  const setDeleted =
    (deleted: boolean) =>
    async ({ actor, params: { id } }: { actor: Actor; params: { id: string } }) => {
      const resource = await visibleAnswer(app.db, actor, Number(id));
      authorize(actor, deleted ? 'delete' : 'undelete', resource);
      const result = await app.events.write((tx) =>
        setAnswerDeleted(tx, actor, Number(id), deleted, resource.authorId),
      );
      return { _id: id, deleted: result.deleted };
    };
  route(app, 'deleteAnswer', deleting, setDeleted(true));
  route(app, 'undeleteAnswer', deleting, setDeleted(false));
}
