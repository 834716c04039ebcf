import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/contract-routes.ts';

/** Liveness (the process answers) and readiness (the database answers). */
export async function healthRoutes(app: FastifyInstance) {
  route(app, 'healthz', {}, async () => ({ status: 'ok' }));
  route(app, 'readyz', {}, async (_input, _request, reply) => {
    try {
      await app.database.ping();
      return { status: 'ready', database: app.database.kind } as const;
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: app.database.kind });
    }
  });
}
