import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export type WorkerRequest =
  | {
      id: number;
      op: 'query';
      sql: string;
      params: unknown[];
      rowMode: 'array' | 'object';
      keepDatesAsText: boolean;
      tx?: number;
    }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close' };

export interface QueryResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

export type WorkerReply =
  | { id: number; ok: true; result: QueryResult | null }
  | { id: number; ok: false; error: Record<string, unknown> & { message: string } };

interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
}

/** The part of PGlite's client that drizzle-orm/pglite uses: query and transaction. */
export interface PgliteLikeClient {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult>;
  transaction<T>(fn: (tx: Omit<PgliteLikeClient, 'transaction' | 'close'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The worker: built next to server.js; in development and tests, the TypeScript source,
 * loaded through tsx's loader (registered inside the worker, which starts without it).
 */
function startWorker(dataDir: string | undefined): Worker {
  const built = path.join(here, 'pglite-worker.js');
  if (existsSync(built)) return new Worker(built, { workerData: { dataDir } });
  const source = pathToFileURL(path.join(here, 'pglite-worker.ts')).href;
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(bootstrap, { eval: true, workerData: { dataDir } });
}

/**
 * PGlite on its own thread (pglite-worker.ts), behind the interface drizzle expects of a
 * PGlite client. The server's event loop only posts messages: while a slow query runs,
 * it goes on answering everything that does not need that database.
 */
export async function startPgliteThread(dataDir: string | undefined): Promise<PgliteLikeClient> {
  const worker = startWorker(dataDir);
  let nextId = 1;
  const pending = new Map<number, { resolve: (result: QueryResult | null) => void; reject: (error: Error) => void }>();
  let failed: Error | null = null;

  worker.on('message', (reply: WorkerReply) => {
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (reply.ok) waiter.resolve(reply.result);
    else waiter.reject(Object.assign(new Error(reply.error.message), reply.error));
  });
  const fail = (error: Error) => {
    failed = error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the embedded database thread stopped (code ${code})`)));

  function send(request: WorkerRequest): Promise<QueryResult | null> {
    if (failed) return Promise.reject(failed);
    return new Promise((resolve, reject) => {
      pending.set(request.id, { resolve, reject });
      worker.postMessage(request);
    });
  }

  const query =
    (tx?: number) =>
    async (sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<QueryResult> => {
      const result = await send({
        id: nextId++,
        op: 'query',
        sql,
        params,
        rowMode: options.rowMode ?? 'object',
        keepDatesAsText: options.parsers !== undefined,
        ...(tx === undefined ? {} : { tx }),
      });
      return result as QueryResult;
    };

  // The thread is ready once it answers a first query (PGlite opened its files).
  await query()('select 1');

  return {
    query: query(),
    async transaction(fn) {
      const tx = nextId++;
      await send({ id: tx, op: 'begin' });
      let result;
      try {
        result = await fn({ query: query(tx) });
      } catch (error) {
        await send({ id: nextId++, op: 'end', tx, commit: false }).catch(() => undefined);
        throw error;
      }
      await send({ id: nextId++, op: 'end', tx, commit: true });
      return result;
    },
    async close() {
      if (!failed) await send({ id: nextId++, op: 'close' });
      await worker.terminate();
    },
  };
}
