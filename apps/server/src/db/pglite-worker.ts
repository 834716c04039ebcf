// Runs the embedded database (PGlite, PostgreSQL compiled to WebAssembly) on its own
// thread, so a slow query keeps this thread busy and never the server's event loop.
// The server talks to it through PgliteThread (pglite-thread.ts).
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { types, type Transaction } from '@electric-sql/pglite';
import { openDurablePglite } from './durable-node-fs.ts';
import type { WorkerReply, WorkerRequest } from './pglite-thread.ts';

// The parsers drizzle asks for: date and time types stay text, as with the pg driver.
const keepText = (value: string) => value;
const TEXT_TYPES = {
  [types.TIMESTAMP]: keepText,
  [types.TIMESTAMPTZ]: keepText,
  [types.INTERVAL]: keepText,
  [types.DATE]: keepText,
  1231: keepText, // numeric[]
  1115: keepText, // timestamp[]
  1185: keepText, // timestamptz[]
  1187: keepText, // interval[]
  1182: keepText, // date[]
};

const port = parentPort;
if (!port) throw new Error('pglite-worker runs as a worker thread');
const { dataDir, startFrom } = workerData as { dataDir: string | undefined; startFrom: string | undefined };
// fsync on, reaching the disk (durable-node-fs.ts).
const db = await openDurablePglite(dataDir, startFrom);
await collectStartupGarbage();

/**
 * Opening leaves garbage that only a full collection returns: for a new data directory,
 * initdb's WebAssembly memory (about 350 MB), which an idle thread may keep for minutes (a
 * fresh server sat at 815 MB RSS, 326 MB when started again on the same directory). Collected
 * once here; each collection frees what the finalizers of the one before let go.
 */
async function collectStartupGarbage(): Promise<void> {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  for (const waitMs of [0, 0, 100]) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

const transactions = new Map<number, Transaction>();
const finishers = new Map<number, (end: { id: number; commit: boolean }) => void>();

const reply = (message: WorkerReply) => port.postMessage(message);

/** Errors cross as plain objects with their fields (code, constraint, detail...) kept. */
function failure(id: number, error: unknown): WorkerReply {
  const fields = error && typeof error === 'object' ? { ...(error as Record<string, unknown>) } : {};
  const message = error instanceof Error ? error.message : String(error);
  // Through JSON: only plain data (no functions or class instances) may cross threads.
  const plain = JSON.parse(JSON.stringify(fields)) as Record<string, unknown>;
  return { id, ok: false, error: { ...plain, message } };
}

port.on('message', (request: WorkerRequest) => {
  void handle(request).catch((error: unknown) => reply(failure(request.id, error)));
});

async function handle(request: WorkerRequest): Promise<void> {
  switch (request.op) {
    case 'query': {
      const target = request.tx === undefined ? db : transactions.get(request.tx);
      if (!target) throw new Error('transaction already ended');
      const result = await target.query(request.sql, request.params, {
        rowMode: request.rowMode,
        ...(request.keepDatesAsText ? { parsers: TEXT_TYPES } : {}),
      });
      reply({
        id: request.id,
        ok: true,
        result: { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows },
      });
      return;
    }
    case 'begin': {
      // PGlite runs one transaction at a time; a second begin waits here for the first to end.
      let endId: number | undefined;
      try {
        await db.transaction(async (tx) => {
          transactions.set(request.id, tx);
          reply({ id: request.id, ok: true, result: null });
          const end = await new Promise<{ id: number; commit: boolean }>((resolve) =>
            finishers.set(request.id, resolve),
          );
          endId = end.id;
          if (!end.commit) await tx.rollback();
        });
        if (endId !== undefined) reply({ id: endId, ok: true, result: null });
      } catch (error) {
        reply(failure(endId ?? request.id, error));
      } finally {
        transactions.delete(request.id);
        finishers.delete(request.id);
      }
      return;
    }
    case 'end': {
      const finish = finishers.get(request.tx);
      if (!finish) throw new Error('no such transaction');
      finish({ id: request.id, commit: request.commit });
      return;
    }
    case 'close':
      await db.close();
      reply({ id: request.id, ok: true, result: null });
      return;
  }
}
