import { LIMITS } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import { setRole } from '../../commands/set-role.ts';
import { route } from '../../http/contract-routes.ts';
import { bodyLimitFor } from '../../http/request-bodies.ts';
import { presentPrivileges, presentUserSummary } from '../../presenters/account.ts';
import { adjustReputation, setPrivilegeThresholds } from '../../commands/reputation.ts';
import { getStanding } from '../../queries/privileges.ts';
import { getReputation, reputationOf } from '../../queries/reputation.ts';
import { searchAccounts } from '../../queries/accounts.ts';

/** The admin's user list and roles (docs/product.md section 10), and the digest run; the contract makes them admin-only. */
export async function adminRoutes(app: FastifyInstance) {
  route(app, 'listUsers', {}, async ({ query }) => {
    const rows = await searchAccounts(app.db, query.search?.trim() ?? '');
    return rows.map(presentUserSummary);
  });

  route(app, 'setRole', { bodyLimit: bodyLimitFor(LIMITS.usernameMax) }, async ({ actor, params, body }) => {
    return presentUserSummary(await app.events.settle(setRole(app.db, actor, params.username, body.role)));
  });

  // docs/product.md section 13: an adjustment, in the moderation log.
  const adjusting = { bodyLimit: bodyLimitFor(LIMITS.reputationNoteMax + LIMITS.usernameMax) };
  route(app, 'adjustReputation', adjusting, async ({ actor, params, body }) => {
    const { username } = await app.events.write((tx) =>
      adjustReputation(tx, actor, params.username, body.delta, body.reason),
    );
    const reputation = await getReputation(app.db, username);
    return { username, reputation: reputationOf(reputation?.sum ?? 0) };
  });

  const thresholds = { bodyLimit: bodyLimitFor(100) };
  route(app, 'setPrivileges', thresholds, async ({ actor, body }) => {
    await setPrivilegeThresholds(app.db, body);
    return presentPrivileges(actor, await getStanding(app.db, actor.id));
  });

  // docs/product.md section 11: every due digest now (plugins/digests.ts sends them on a schedule too).
  route(app, 'runDigests', { bodyLimit: bodyLimitFor(0) }, async () => ({ sent: await app.digests.run() }));
}
