import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.ts';

// A worker that dies this soon after starting is not restarted (it would only die again).
const STARTUP_GRACE_MS = 5_000;

/**
 * `WORKERS=N` (or `npm run start:cluster`): this process forks N server processes that
 * share one port (the operating system hands each new connection to one of them) and
 * one PostgreSQL, which carries sessions, data, socket events and cache invalidation
 * between them. Sockets use the WebSocket transport, one connection that stays with
 * its process, so no sticky sessions are needed.
 */
export function runCluster(config: Config): void {
  if (!config.databaseUrl) {
    console.error(
      'Several server processes need PostgreSQL: set DATABASE_URL (the embedded database belongs to one process).',
    );
    process.exit(1);
  }
  let stopping = false;
  let exitCode = 0;
  const startedAt = new Map<Worker, number>();
  const fork = () => startedAt.set(cluster.fork(), Date.now());

  cluster.on('exit', (worker, code, signal) => {
    const started = startedAt.get(worker) ?? 0;
    startedAt.delete(worker);
    if (stopping) {
      if (startedAt.size === 0) process.exit(exitCode);
      return;
    }
    if (Date.now() - started < STARTUP_GRACE_MS) {
      console.error(`a server process failed at start (code ${code ?? signal}); stopping`);
      stopping = true;
      exitCode = 1;
      for (const other of startedAt.keys()) other.process.kill('SIGTERM');
      if (startedAt.size === 0) process.exit(1);
      return;
    }
    console.error(`a server process ended (code ${code ?? signal}); starting another`);
    fork();
  });

  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const worker of startedAt.keys()) worker.process.kill('SIGTERM');
    if (startedAt.size === 0) process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  for (let i = 0; i < config.workers; i++) fork();
  console.log(`Porpoise: ${config.workers} server processes sharing http://localhost:${config.port} (PostgreSQL)`);
}
