import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.ts';

/** Shares the opened database with every route; closing the app closes it. */
export const databasePlugin = fp(
  async (app: FastifyInstance, options: { database: Database }) => {
    app.decorate('database', options.database);
    app.decorate('db', options.database.db);
    app.addHook('onClose', async () => options.database.close());
  },
  { name: 'database' },
);
