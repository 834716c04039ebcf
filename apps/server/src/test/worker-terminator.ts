// Loaded into a test's server process (startServerProcess's `imports`): on SIGUSR2 it
// terminates the embedded database's thread, as a crash or an out-of-memory would stop it.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type * as WorkerThreads from 'node:worker_threads';

const workerThreads = createRequire(import.meta.url)('node:worker_threads') as typeof WorkerThreads;
const databaseThreads = new Set<WorkerThreads.Worker>();

class RecordedWorker extends workerThreads.Worker {
  constructor(...args: ConstructorParameters<typeof WorkerThreads.Worker>) {
    super(...args);
    // The database thread is the one started with a dataDir (pglite-thread.ts).
    const data: unknown = args[1]?.workerData;
    if (data && typeof data === 'object' && 'dataDir' in data) {
      databaseThreads.add(this);
      this.once('exit', () => databaseThreads.delete(this));
    }
  }
}

workerThreads.Worker = RecordedWorker;
// `import { Worker } from 'node:worker_threads'` in the server now gets RecordedWorker too.
syncBuiltinESMExports();

process.on('SIGUSR2', () => {
  for (const thread of databaseThreads) void thread.terminate();
});
