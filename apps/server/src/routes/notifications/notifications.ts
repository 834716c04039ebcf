import type { FastifyInstance } from 'fastify';
import {
  markNotificationsRead,
  toggleQuestionFollow,
  toggleTagFollow,
  unsubscribeDigest,
} from '../../commands/notifications.ts';
import { route } from '../../http/contract-routes.ts';
import { badRequest, notFound } from '../../http/http-error.ts';
import { bodyLimitFor } from '../../http/request-bodies.ts';
import { MESSAGES } from '@porpoise/core';
import { presentNotifications } from '../../presenters/notification.ts';
import { followsQuestion, listNotifications, unreadCount } from '../../queries/notifications.ts';
import { visibleQuestion } from '../../queries/visible-posts.ts';

/**
 * The inbox, following, and the digest's unsubscribe link (docs/product.md section 11).
 * Notifications themselves are written by the event processor (events/notifications.ts).
 */
export async function notificationRoutes(app: FastifyInstance) {
  route(app, 'notifications', {}, async ({ actor, query: { limit, before } }) => {
    const rows = await listNotifications(app.db, actor.id, limit, before === undefined ? null : Number(before));
    return presentNotifications(rows);
  });

  route(app, 'unreadNotifications', {}, async ({ actor }) => ({ count: await unreadCount(app.db, actor.id) }));

  // At most a page of ids (each at most 16 digits and its quotes), or {all: true}.
  const markReadOptions = { bodyLimit: bodyLimitFor(20 * 60) };
  route(app, 'markNotificationsRead', markReadOptions, async ({ actor, body }) => {
    const ids = body.all ? 'all' : (body.ids ?? []).map(Number);
    return { count: await app.events.settle(markNotificationsRead(app.db, actor.id, ids)) };
  });

  // Toggles, counted like votes.
  const toggle = { bodyLimit: bodyLimitFor(0), limit: 'vote' } as const;
  route(app, 'followQuestion', toggle, async ({ actor, params: { id } }) => {
    await visibleQuestion(app.db, actor, Number(id));
    return { following: await toggleQuestionFollow(app.db, actor.id, Number(id)) };
  });

  route(app, 'questionFollowing', {}, async ({ actor, params: { id } }) => {
    await visibleQuestion(app.db, actor, Number(id));
    return { following: await followsQuestion(app.db, actor.id, Number(id)) };
  });

  route(app, 'followTag', toggle, async ({ actor, params: { name } }) => {
    const following = await toggleTagFollow(app.db, actor.id, name);
    if (following === null) throw notFound(`Tag not found: ${name}`);
    return { following };
  });

  /**
   * The digest's unsubscribe link (RFC 8058): the page's 'Unsubscribe' button posts here, and
   * so does a mail client's one-click unsubscribe, whose form body
   * (`List-Unsubscribe=One-Click`) says nothing the address does not: it is read and ignored.
   * The token alone decides, so no session is needed.
   */
  await app.register(async (unsubscribe) => {
    unsubscribe.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 256 },
      (_request, _body, done) => done(null, undefined),
    );
    route(unsubscribe, 'unsubscribeDigest', { bodyLimit: 256 }, async ({ query: { token } }) => {
      if (!(await unsubscribeDigest(app.db, token))) throw badRequest(MESSAGES.unsubscribeInvalid);
      return { ok: true } as const;
    });
  });
}
