import { LIMITS } from '@porpoise/core';
import { answerInput } from '@porpoise/core/schemas';
import type { FastifyInstance } from 'fastify';
import { addAnswer } from '../../commands/add-answer.ts';
import { parse } from '../../lib/parse.ts';
import { assertNamesSelf, refuseAnonymous, requireActor } from '../../policies/actor.ts';
import { presentAnswer } from '../../presenters/question.ts';
import { postingHits, refuseKnownOverLimit, remembering429 } from '../../lib/posting-limits.ts';
import { bodyLimitFor } from '../../lib/request-bodies.ts';

export async function answerRoutes(app: FastifyInstance) {
  // The text, and the spec's ansBy.
  const bodyLimit = bodyLimitFor(LIMITS.answerTextMax + LIMITS.usernameMax);
  app.post('/answer/addAnswer', { onRequest: refuseAnonymous, bodyLimit }, async (request) => {
    const actor = requireActor(request.actor);
    // The limits are counted in the answer's own statement (one round trip per answer), so
    // the text is checked first; an account already past them is refused before that.
    refuseKnownOverLimit(app, actor, 'answer');
    const input = parse(answerInput, request.body);
    assertNamesSelf(actor, input.ans.ansBy);
    const hits = postingHits(app, actor, 'answer');
    const { result: row, events } = await remembering429(app, actor, 'answer', () =>
      addAnswer(app.db, actor, Number(input.qid), input.ans.text, hits),
    );
    await app.events.apply(events);
    const answer = presentAnswer(
      { id: row.id, text: row.text, ansBy: actor.username, ansDateTime: row.ansDateTime },
      [],
    );
    return answer;
  });
}
