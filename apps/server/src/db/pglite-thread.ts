import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { preparedName } from './statement-names.ts';

export type WorkerRequest =
  | {
      id: number;
      op: 'query';
      sql: string;
      params: unknown[];
      rowMode: 'array' | 'object';
      keepDatesAsText: boolean;
      tx?: number;
      /** Run as this named prepared statement (queryPrepared's statements, statement-names.ts). */
      name?: string;
    }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  /** Copies the data directory into `dir` while no statement runs (a backup's snapshot). */
  | { id: number; op: 'snapshot'; dir: string }
  | { id: number; op: 'close' };

export interface QueryResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

export type WorkerReply =
  | { id: number; ok: true; result: QueryResult | null }
  | { id: number; ok: false; error: Record<string, unknown> & { message: string } };

/** Told after each flush of grouped commits (pglite-worker.ts): how many writes it answered. */
export interface WorkerFlushed {
  flushed: number;
}

/** Grouped commits so far: WAL flushes, and the writes they acknowledged (for metrics). */
export interface FlushCounts {
  flushes: number;
  writes: number;
}

interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
}

/** The part of PGlite's client that drizzle-orm/pglite uses: query and transaction. */
export interface PgliteLikeClient {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult>;
  transaction<T>(
    fn: (tx: Omit<PgliteLikeClient, 'transaction' | 'close' | 'snapshot' | 'flushCounts'>) => Promise<T>,
  ): Promise<T>;
  /** Copies the database's files, as of the last commit, into `dir` (pglite-worker.ts). */
  snapshot(dir: string): Promise<void>;
  /** The grouped commits' flushes so far, over every thread this client started. */
  flushCounts(): FlushCounts;
  close(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * A worker thread running the module `name` (without extension) of the directory `here`:
 * built next to server.js, or in development and tests the TypeScript source, loaded through
 * tsx's loader (registered inside the worker, which starts without it).
 */
export function startModuleWorker(
  here: string,
  name: string,
  workerData: unknown,
  options: Pick<WorkerOptions, 'resourceLimits'> = {},
): Worker {
  const built = path.join(here, `${name}.js`);
  if (fs.existsSync(built)) return new Worker(built, { ...options, workerData });
  const source = pathToFileURL(path.join(here, `${name}.ts`)).href;
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(bootstrap, { ...options, eval: true, workerData });
}

/**
 * The PGlite thread's young generation: V8's default (two 16 MB semi-spaces) sat resident
 * at 32 MB under the community-day mix; 24 MB (8 MB semi-spaces) keeps 16 MB of it, for
 * about 1% more of the thread's time in scavenges (issue 39). The old generation is V8's.
 */
const PGLITE_THREAD_LIMITS = { resourceLimits: { maxYoungGenerationSizeMb: 24 } };

const startWorker = (dataDir: string | undefined, startFrom: string | undefined): Worker =>
  startModuleWorker(here, 'pglite-worker', { dataDir, startFrom }, PGLITE_THREAD_LIMITS);

/** What happens to the thread after it started: reported so the server can log it, or exit. */
export type PgliteThreadEvent =
  | { type: 'stopped'; error: Error }
  | { type: 'restarted' }
  /** Not restarted (in memory, or stopped too often): every query fails from now on. */
  | { type: 'failed'; error: Error };

/** A thread that stops is restarted up to `restartsPerMinute` times within this window. */
const RESTART_WINDOW_MS = 60_000;

/**
 * A stopped thread's files stay open (Node closes no descriptor a worker opened with
 * fs.openSync): close the ones in the data directory before the next thread opens it.
 * Linux only (/proc); elsewhere they stay open until the process exits.
 */
function closeFilesLeftOpenIn(dataDir: string): void {
  let fds: string[];
  let dir: string;
  try {
    fds = fs.readdirSync('/proc/self/fd');
    dir = fs.realpathSync(dataDir);
  } catch {
    return;
  }
  for (const fd of fds) {
    try {
      const target = fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (target === dir || target.startsWith(dir + path.sep)) fs.closeSync(Number(fd));
    } catch {
      // closed meanwhile (readdir's own descriptor): nothing to do
    }
  }
}

/**
 * PGlite on its own thread (pglite-worker.ts), behind the interface drizzle expects of a
 * PGlite client. The server's event loop only posts messages: while a slow query runs,
 * it goes on answering everything that does not need that database.
 *
 * If the thread stops (a crash, an out-of-memory), the queries it held fail and a new
 * thread opens the data directory again (PostgreSQL recovers from its WAL); queries sent
 * meanwhile wait for it. In memory there is nothing to reopen: the thread is not restarted.
 */
export async function startPgliteThread(
  dataDir: string | undefined,
  {
    restartsPerMinute = 3,
    onEvent = () => undefined,
    startFrom,
  }: {
    restartsPerMinute?: number;
    onEvent?: (event: PgliteThreadEvent) => void;
    /** In memory: a dump (PGlite's dumpDataDir tarball) to start from instead of a new cluster. */
    startFrom?: string;
  } = {},
): Promise<PgliteLikeClient> {
  let nextId = 1;
  const pending = new Map<number, { resolve: (result: QueryResult | null) => void; reject: (error: Error) => void }>();
  let failed: Error | null = null;
  let started = false;
  let closing = false;
  /** Set while a new thread is starting; queries wait for it. */
  let restarting: Promise<void> | null = null;
  const restarts: number[] = [];
  const flushCounts: FlushCounts = { flushes: 0, writes: 0 };

  function post(request: WorkerRequest): Promise<QueryResult | null> {
    return new Promise((resolve, reject) => {
      pending.set(request.id, { resolve, reject });
      worker.postMessage(request);
    });
  }

  const firstQuery = (): WorkerRequest => ({
    id: nextId++,
    op: 'query',
    sql: 'select 1',
    params: [],
    rowMode: 'object',
    keepDatesAsText: false,
  });

  function spawn(): Worker {
    const thread = startWorker(dataDir, startFrom);
    let crash: Error | undefined;
    thread.on('message', (reply: WorkerReply | WorkerFlushed) => {
      if ('flushed' in reply) {
        flushCounts.flushes += 1;
        flushCounts.writes += reply.flushed;
        return;
      }
      const waiter = pending.get(reply.id);
      if (!waiter) return;
      pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(Object.assign(new Error(reply.error.message), reply.error));
    });
    thread.on('error', (error) => (crash = error));
    thread.on('exit', (code) => {
      if (closing || thread !== worker) return;
      const error = new Error(
        `the embedded database thread stopped (code ${code})${crash ? `: ${crash.message}` : ''}`,
      );
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
      if (!started) {
        failed = error;
        return;
      }
      onEvent({ type: 'stopped', error });
      const now = Date.now();
      while (restarts.length > 0 && now - restarts[0]! > RESTART_WINDOW_MS) restarts.shift();
      if (dataDir === undefined || restarts.length >= restartsPerMinute) {
        failed = error;
        restarting = null;
        onEvent({ type: 'failed', error });
        return;
      }
      restarts.push(now);
      closeFilesLeftOpenIn(dataDir);
      const next = spawn();
      worker = next;
      // Ready once it answers a first query. If it stops first, its own exit decides again;
      // if it answers with an error, it is stopped, which does the same.
      const ready: Promise<void> = post(firstQuery()).then(
        () => {
          if (restarting === ready) restarting = null;
          onEvent({ type: 'restarted' });
        },
        (failure: Error) => {
          void next.terminate();
          throw failure;
        },
      );
      ready.catch(() => undefined);
      restarting = ready;
    });
    return thread;
  }

  let worker = spawn();

  async function send(request: WorkerRequest): Promise<QueryResult | null> {
    if (restarting) await restarting;
    if (failed) throw failed;
    return post(request);
  }

  const query =
    (tx?: number) =>
    async (sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<QueryResult> => {
      const name = preparedName(sql);
      const result = await send({
        id: nextId++,
        op: 'query',
        sql,
        params,
        rowMode: options.rowMode ?? 'object',
        keepDatesAsText: options.parsers !== undefined,
        ...(tx === undefined ? {} : { tx }),
        ...(name === undefined ? {} : { name }),
      });
      return result as QueryResult;
    };

  // The thread is ready once it answers a first query (PGlite opened its files).
  await post(firstQuery());
  started = true;

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
    async snapshot(dir) {
      await send({ id: nextId++, op: 'snapshot', dir });
    },
    flushCounts: () => ({ ...flushCounts }),
    async close() {
      if (!failed) await send({ id: nextId++, op: 'close' }).catch(() => undefined);
      closing = true;
      await worker.terminate();
      // Nothing is answered from now on: what waits, or comes later, fails.
      failed ??= new Error('the embedded database is closed');
      for (const waiter of pending.values()) waiter.reject(failed);
      pending.clear();
    },
  };
}
