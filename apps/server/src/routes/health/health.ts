import type { FastifyInstance } from 'fastify';
import { route } from '../../http/contract-routes.ts';
import { forbidden } from '../../http/http-error.ts';

/** Liveness (the process answers) and readiness (the database answers). */
export async function healthRoutes(app: FastifyInstance) {
  route(app, 'healthz', {}, async () => ({ status: 'ok' }));
  // For operations: from the loopback address, or with the METRICS_TOKEN bearer; 403 otherwise.
  route(app, 'metrics', {}, async (_input, request, reply) => {
    if (!app.metrics.allows(request)) throw forbidden();
    return reply.type(app.metrics.contentType).send(await app.metrics.render());
  });
  route(app, 'readyz', {}, async (_input, _request, reply) => {
    try {
      await app.database.ping();
      return { status: 'ready', database: app.database.kind } as const;
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: app.database.kind });
    }
  });
}
