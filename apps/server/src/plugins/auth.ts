import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { sweepDeadLinks } from '../commands/account-security.ts';
import { isApiRequest } from '../http/api-request.ts';
import { SESSION_TTL_MS } from '../config.ts';
import { SESSION_COOKIE, SessionStore } from '../auth/sessions.ts';

// Health probes must answer even when the database does not.
const PROBES = new Set(['/api/healthz', '/api/readyz']);

/**
 * Reads the session cookie on every API request and sets `request.session` and
 * `request.actor`. Routes take the acting user from here and nowhere else.
 */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(cookie);
    app.decorateRequest('session', null);
    app.decorateRequest('actor', null);
    app.decorate('sessions', new SessionStore(app.db, app.signals, app.config.sessionTtlMs));
    // Expired sessions are deleted a batch at a time; one run at once.
    let sweeping = false;
    const sweep = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      app.sessions
        .sweepExpired()
        .then(
          (deleted) => deleted > 0 && app.log.info({ deleted }, 'expired sessions deleted'),
          (error: unknown) => app.log.warn({ err: error }, 'expired sessions could not be deleted'),
        )
        // Mailed links that can no longer work go with them (commands/account-security.ts).
        .then(() => sweepDeadLinks(app.db))
        .then(
          (deleted) => deleted > 0 && app.log.info({ deleted }, 'dead mailed links deleted'),
          (error: unknown) => app.log.warn({ err: error }, 'dead mailed links could not be deleted'),
        )
        .finally(() => (sweeping = false));
    }, app.config.sessionSweepMs).unref();
    app.addHook('onClose', async () => clearInterval(sweep));
    app.addHook('onRequest', async (request) => {
      if (!isApiRequest(request) || PROBES.has(request.routeOptions.url ?? '')) return;
      const session = await app.sessions.find(request.cookies[SESSION_COOKIE]);
      request.session = session;
      request.actor = session ? { id: session.accountId, username: session.username, role: session.role } : null;
    });
  },
  { name: 'auth', dependencies: ['database', 'signals'] },
);

/** HttpOnly, SameSite=Lax, Path=/, and Secure when the request came over HTTPS. */
export function setSessionCookie(reply: FastifyReply, token: string): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: reply.request.protocol === 'https',
    maxAge: SESSION_TTL_MS / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/' });
}
