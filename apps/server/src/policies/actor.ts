import type { Role } from '@porpoise/core';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { forbidden, unauthorized } from '../lib/http-error.ts';
import { authorize } from './authorize.ts';

/** Who is acting: the session's account, never a name from the request body. */
export interface Actor {
  id: number;
  username: string;
  /** Read with the session on each request, never taken from the client. */
  role: Role;
}

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
