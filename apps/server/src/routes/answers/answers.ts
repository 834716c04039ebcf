import { LIMITS } from '@porpoise/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { route } from '../../lib/contract-routes.ts';
import { addAnswer } from '../../commands/add-answer.ts';
import { requireActor } from '../../policies/actor.ts';
import { presentAnswer } from '../../presenters/question.ts';
import { postingHits, refuseKnownOverLimit, remembering429 } from '../../lib/posting-limits.ts';
import { bodyLimitFor } from '../../lib/request-bodies.ts';

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
    const row = await app.events.settle(
      remembering429(app, actor, 'answer', () => addAnswer(app.db, actor, Number(input.qid), input.ans.text, hits)),
    );
    const answer = presentAnswer(
      { id: row.id, text: row.text, ansBy: actor.username, ansDateTime: row.ansDateTime },
      [],
    );
    return answer;
  });
}
