import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { forbidden, unauthorized } from '../http/http-error.ts';
import { authorize, type Actor } from './authorize.ts';

// Actor lives in authorize.ts, which decides on it (so authorize.ts imports nothing from here).
export type { Actor };

/** Signed-in only: a visitor without a session gets 401. */
export function requireActor(actor: Actor | null): Actor {
  if (!actor) throw unauthorized();
  return actor;
}

/**
 * A signed-in-only route's onRequest hook (it runs after the session is read): a visitor
 * gets 401 before a byte of the body is read or parsed, and the connection closes rather
 * than take in the rest of a body nobody will read.
 */
export function refuseAnonymous(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.actor) return done();
  if (request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined) {
    void reply.header('connection', 'close');
  }
  done(unauthorized());
}

/**
 * A payload may name its actor (askedBy, ansBy, commentBy, sender, username, accounts[0]);
 * when it does, it must be the session's own account, or the request is refused with 403.
 */
export function assertNamesSelf(actor: Actor, claimed: unknown): void {
  if (claimed === undefined || claimed === null) return;
  if (typeof claimed !== 'string') throw forbidden();
  authorize(actor, 'actAs', { type: 'account', username: claimed });
}
