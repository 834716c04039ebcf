import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createLocalSignals, createPostgresSignals } from '../cache/signals.ts';

/** `app.signals`: changes every process's caches must hear of (see cache/signals.ts). */
export const signalsPlugin = fp(
  async (app: FastifyInstance) => {
    const url = app.database.url;
    const signals = url
      ? await createPostgresSignals(
          url,
          async (channel, message) => {
            await app.db.execute(sql`select pg_notify(${channel}, ${message})`);
          },
          {
            onLost: (error) => app.log.warn({ err: error }, 'signal connection lost; caches off until it is back'),
            onBack: () => app.log.info('signal connection back; caches on'),
          },
        )
      : createLocalSignals();
    app.decorate('signals', signals);
    // Every cache kept from reads forgets them (read caches, remembered sessions).
    app.database.onThreadLost?.(() => signals.forgetAll());
    app.addHook('onClose', async () => signals.close());
  },
  { name: 'signals', dependencies: ['database'] },
);
