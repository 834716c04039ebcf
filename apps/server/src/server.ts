import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from './config.ts';
import { runCluster } from './cluster.ts';
import { openConfiguredDatabase } from './db/client.ts';
import type { PgliteThreadEvent } from './db/pglite-thread.ts';
import { buildApp } from './app.ts';
import { answerMetricsOverIpc } from './metrics/process-metrics.ts';

// Time allowed for requests in flight to finish after SIGTERM before the process gives up.
const SHUTDOWN_TIMEOUT_MS = 10_000;

async function main() {
  // `--cluster` (npm run start:cluster): one server process per core unless WORKERS says otherwise.
  const clusterDefault = process.argv.includes('--cluster') ? String(availableParallelism()) : undefined;
  const config = loadConfig({ WORKERS: clusterDefault, ...process.env });
  if (config.workers > 1 && cluster.isPrimary) {
    runCluster(config);
    return;
  }
  // The embedded database's thread, if it stops, is restarted; if it cannot be, the
  // process exits so that a supervisor restarts it, rather than answer 500 for ever.
  let log: Pick<FastifyBaseLogger, 'error' | 'warn'> = console;
  const onThreadEvent = (event: PgliteThreadEvent) => {
    if (event.type === 'stopped') log.error(`${event.error.message}: restarting it`);
    else if (event.type === 'restarted') log.warn('the embedded database thread restarted');
    else {
      log.error(`${event.error.message}, and cannot be restarted: exiting`);
      process.exit(1);
    }
  };
  const database = await openConfiguredDatabase(config, onThreadEvent);
  const app = await buildApp({ config, database });
  log = app.log;

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  answerMetricsOverIpc();
  app.log.info(
    `Porpoise is serving http://localhost:${config.port} (${database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
