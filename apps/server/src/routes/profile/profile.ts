import { getProfileDetail } from '../../queries/profiles.ts';
import { suggestUsernames } from '../../queries/suggestions.ts';
import { presentPrivileges, presentProfile, presentReputationEvent } from '../../presenters/account.ts';
import { getStanding } from '../../queries/privileges.ts';
import { getReputation, reputationOf } from '../../queries/reputation.ts';
import { updateBio } from '../../commands/account-settings.ts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/contract-routes.ts';
import { notFound } from '../../http/http-error.ts';
import { presentSummary, presentUserAnswer } from '../../presenters/question.ts';
import { listAnswersBy } from '../../queries/answers.ts';
import { listQuestionsBy } from '../../queries/question-lists.ts';
import { LIMITS, MESSAGES } from '@porpoise/core';
import { bodyLimitFor } from '../../http/request-bodies.ts';

/** Any signed-in user may see anyone's questions and answers; an unknown user is a 404. */
export async function profileRoutes(app: FastifyInstance) {
  route(app, 'getUserQuestions', {}, async ({ query: { username } }) => {
    const questions = await listQuestionsBy(app.db, username);
    if (!questions) throw notFound('User not found');
    return questions.map(presentSummary);
  });

  route(app, 'getUserAnswers', {}, async ({ query: { username } }) => {
    const answers = await listAnswersBy(app.db, username);
    if (!answers) throw notFound('User not found');
    return answers.map(presentUserAnswer);
  });

  /**
   * The stored bio (empty for a new account: each screen shows its own default text), when
   * the member joined, their shown posts' numbers and the caller's thread with them (its
   * 'Message' button, docs/product.md section 5).
   */
  route(app, 'getBio', {}, async ({ actor, query: { username } }) => {
    const profile = await getProfileDetail(app.db, username, actor.id);
    if (!profile) throw notFound('User not found');
    return presentProfile(profile);
  });

  // docs/product.md section 13: anyone signed in sees anyone's reputation and its newest events.
  route(app, 'userReputation', {}, async ({ params: { username } }) => {
    const reputation = await getReputation(app.db, username);
    if (!reputation) throw notFound(MESSAGES.userNotFound);
    return {
      username: reputation.username,
      reputation: reputationOf(reputation.sum),
      history: reputation.history.map(presentReputationEvent),
    };
  });

  route(app, 'privileges', {}, async ({ actor }) => presentPrivileges(actor, await getStanding(app.db, actor.id)));

  // Thread Recipient's suggestions (docs/product.md section 5): members only, like every profile
  // read; never the caller (no thread with oneself) nor a suspended member.
  route(app, 'suggestUsers', {}, async ({ actor, query: { prefix } }) => suggestUsernames(app.db, prefix, actor.id));

  const bodyLimit = bodyLimitFor(LIMITS.bioMax + LIMITS.usernameMax);
  const namesActor = ({ body }: { body: { username: string } }) => body.username;
  route(app, 'updateBio', { bodyLimit, namesActor }, async ({ actor, body: input }) => {
    const bio = await updateBio(app.db, actor.id, input.bio);
    return { username: actor.username, bio };
  });
}
