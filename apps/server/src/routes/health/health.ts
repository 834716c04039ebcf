import type { FastifyInstance } from 'fastify';

/** Liveness (the process answers) and readiness (the database answers). */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await app.database.ping();
      return { status: 'ready', database: app.database.kind };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: app.database.kind });
    }
  });
}
