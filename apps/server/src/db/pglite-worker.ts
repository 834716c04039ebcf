// Runs the embedded database (PGlite, PostgreSQL compiled to WebAssembly) on its own
// thread, so a slow query keeps this thread busy and never the server's event loop.
// The server talks to it through PgliteThread (pglite-thread.ts).
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { types, type Transaction } from '@electric-sql/pglite';
import { serialize } from 'pg-protocol';
import { copyDataDir, openDurablePglite } from './durable-node-fs.ts';
import type { QueryResult, WorkerFlushed, WorkerReply, WorkerRequest } from './pglite-thread.ts';

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
// PostgreSQL's WebAssembly is compiled again by V8's optimizing tier in the background: one task
// at a time instead of one per core leaves 10-15 MB less behind in malloc's arenas, at no cost
// to the queries (issue 39; process-wide, and nothing else here is WebAssembly).
v8.setFlagsFromString('--wasm-num-compilation-tasks=1');
// fsync on, reaching the disk (durable-node-fs.ts).
const db = await openDurablePglite(dataDir, startFrom);
// Grouped commits (below): a commit returns without waiting for its WAL to reach the disk.
await db.exec('SET synchronous_commit = off');
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

/** The parameter types of the statements prepared on this thread's database, by name. */
const statements = new Map<string, number[]>();
/** Statements are named by shape (a few dozen); past this many, a new one runs unnamed. */
const MAX_STATEMENTS = 500;

interface BackendMessage {
  name: string;
  dataTypeIDs?: number[];
  fields?: unknown[];
  text?: string;
}

/**
 * A query as a named prepared statement: parsed (and, once PostgreSQL settles on a generic
 * plan, planned) once for this database instead of on every call. PGlite's own query() always
 * parses and plans its statement unnamed; the hot write statements spend most of their time
 * there (the answer notification statement: 6-7 ms planning, under 1 ms executing). The wire
 * protocol's Parse, Bind, Execute and Sync, as the pg driver sends them, under the locks
 * PGlite's query() takes: a transaction's own, or the database's for a lone query.
 */
async function queryNamed(
  request: Extract<WorkerRequest, { op: 'query' }>,
  name: string,
  inTransaction: boolean,
): Promise<QueryResult> {
  const run = () =>
    db.runExclusive(async () => {
      let paramTypes = statements.get(name);
      if (paramTypes === undefined) {
        const described = (await db.execProtocolStream(
          Buffer.concat([
            serialize.parse({ name: name, text: request.sql, types: [] }),
            serialize.describe({ type: 'S', name: name }),
            serialize.sync(),
          ]),
          { syncToFs: false },
        )) as BackendMessage[];
        paramTypes = described.find((message) => message.name === 'parameterDescription')?.dataTypeIDs ?? [];
        statements.set(name, paramTypes);
      }
      const values = request.params.map((value, index) => {
        if (value === null || value === undefined) return null;
        const serializer = db.serializers[paramTypes[index]!];
        // As PGlite's query() does: its serializer for the type, else the value's own text.
        return serializer ? serializer(value) : (value as { toString(): string }).toString();
      });
      const messages = (await db.execProtocolStream(
        Buffer.concat([
          serialize.bind({ statement: name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs: !inTransaction },
      )) as BackendMessage[];
      return resultOf(messages, request);
    });
  return inTransaction ? run() : db._runExclusiveTransaction(run);
}

const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/** Rows (objects or arrays) from a statement's messages, parsed as PGlite's query() parses them. */
function resultOf(messages: BackendMessage[], request: { rowMode: 'array' | 'object'; keepDatesAsText: boolean }) {
  const parsers = request.keepDatesAsText ? { ...db.parsers, ...TEXT_TYPES } : db.parsers;
  let fields: QueryResult['fields'] = [];
  const rows: unknown[] = [];
  let affectedRows = 0;
  for (const message of messages) {
    if (message.name === 'rowDescription') {
      fields = (message.fields as { name: string; dataTypeID: number }[]).map(({ name, dataTypeID }) => ({
        name,
        dataTypeID,
      }));
    } else if (message.name === 'dataRow') {
      const values = (message.fields as (string | null)[]).map(
        (value, index): unknown => types.parseType(value, fields[index]!.dataTypeID, parsers) as unknown,
      );
      if (request.rowMode === 'array') rows.push(values);
      else rows.push(Object.fromEntries(fields.map((field, index) => [field.name, values[index]])));
    } else if (message.name === 'commandComplete') {
      const words = message.text?.split(' ') ?? [];
      const count = Number(words.at(-1));
      if (WRITES.has(words[0]!) && Number.isInteger(count)) affectedRows += count;
    }
  }
  return { rows, fields, affectedRows };
}

const transactions = new Map<number, Transaction>();
const finishers = new Map<number, (end: { id: number; commit: boolean }) => void>();
/** The open transactions that ran a statement which may write (mayWrite). */
const writing = new Set<number>();

const reply = (message: WorkerReply) => port.postMessage(message);
const tell = (message: WorkerFlushed) => port.postMessage(message);

/**
 * Whether a statement may write: anything but a plain read (SELECT, WITH, SHOW) naming none of
 * the writing words, as a word (a column named update_at is no write, an UPDATE in a CTE is).
 * Errs towards yes: a read taken for a write only waits for the next flush.
 */
const WRITING_WORDS = /\b(?:insert|update|delete|merge|nextval|setval|rebuild_reputation)\b/i;
const READ_START = /^\s*(?:select|with|show|explain)\b/i;
const mayWrite = (text: string) => !READ_START.test(text) || WRITING_WORDS.test(text);

/**
 * Grouped commits (issue 39): commits run with synchronous_commit off, so a commit costs no
 * fsync of its own; the replies of writes wait here instead, and one flush of the WAL (one
 * fsync, carrying every commit before it) answers all the writes that committed before it.
 * Nothing is acknowledged before it is on the disk: a kill -9 loses only writes nobody was
 * told of. Reads never wait.
 */
let awaitingFlush: WorkerReply[] = [];
let flushQueued = false;
/**
 * Set when 'close' arrives: no transaction or lone statement starts after it, and the close
 * flushes and answers the writes waiting (`closeFlush`: what its flush came to).
 */
let closing = false;
type FlushOutcome = 'flushed' | { error: unknown };
let closeFlush: FlushOutcome | 'pending' = 'pending';

/** Answers the replies of writes whose flush came to `outcome`: as they were, or failed. */
function settle(messages: WorkerReply[], outcome: FlushOutcome): void {
  if (messages.length === 0) return;
  if (outcome !== 'flushed') {
    for (const message of messages) reply(failure(message.id, outcome.error));
    return;
  }
  // Counted before the replies arrive (messages keep their order).
  tell({ flushed: messages.length });
  for (const message of messages) reply(message);
}

/** The replies waiting for a flush, taken (none wait after). */
function takeWaiting(): WorkerReply[] {
  const taken = awaitingFlush;
  awaitingFlush = [];
  return taken;
}

function replyWhenFlushed(message: WorkerReply): void {
  awaitingFlush.push(message);
  // A commit made before the close's flush whose reply comes after it: settled as it was.
  if (closeFlush !== 'pending') return settle(takeWaiting(), closeFlush);
  if (flushQueued || closing) return;
  flushQueued = true;
  // A statement runs to its end within the turn of the event loop its message arrived in
  // (PGlite's work is synchronous WebAssembly behind promises), and the statements waiting
  // behind it follow at once: setImmediate runs once the thread has nothing left to run, or
  // only a transaction waiting for its client's next statement.
  setImmediate(() => void flushWal());
}

/**
 * Flushes the WAL for the replies waiting. It takes only the statement lock, so it never
 * waits for an open transaction to end: it may run between two of its statements (a message
 * outside any transaction, which a rollback does not undo). In a transaction that a failed
 * statement aborted (its client is about to roll back) it cannot run: then it runs again once
 * that transaction ends.
 */
async function flushWal(): Promise<void> {
  const { flushed, failed } = await db.runExclusive(async () => {
    // The close answers them instead.
    if (closing) return { flushed: [], failed: false };
    // Taken now, inside the lock: every reply here belongs to a commit before this flush.
    const taken = takeWaiting();
    flushQueued = false;
    try {
      await flushNow();
      return { flushed: taken, failed: false };
    } catch {
      return { flushed: taken, failed: true };
    }
  });
  try {
    if (failed) {
      const closedMeanwhile = await db._runExclusiveTransaction(() =>
        db.runExclusive(async () => {
          if (closing) return true;
          await flushNow();
          return false;
        }),
      );
      if (closedMeanwhile) {
        for (const message of flushed) replyWhenFlushed(message);
        return;
      }
    }
    settle(flushed, 'flushed');
  } catch (error) {
    settle(flushed, { error });
  }
}

/**
 * Flushes the WAL written so far (its last argument): a 56-byte message no one decodes. (A
 * synchronous commit would flush only if its transaction wrote more than an id.)
 */
const FLUSH_WAL = "SELECT pg_logical_emit_message(false, 'porpoise', 'flush', true)";

/** Runs FLUSH_WAL; the caller holds the statement lock. */
const flushNow = () => db.execProtocolStream(serialize.query(FLUSH_WAL), { syncToFs: false });

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
      if (closing && request.tx === undefined) throw new Error('the database is closing');
      const target = request.tx === undefined ? db : transactions.get(request.tx);
      if (!target) throw new Error('transaction already ended');
      const writes = mayWrite(request.sql);
      if (writes && request.tx !== undefined) writing.add(request.tx);
      // A lone write's reply waits for its commit to reach the disk; in a transaction, the
      // commit's does.
      const answer = writes && request.tx === undefined ? replyWhenFlushed : reply;
      const name = request.name;
      if (name !== undefined && (statements.has(name) || statements.size < MAX_STATEMENTS)) {
        answer({ id: request.id, ok: true, result: await queryNamed(request, name, request.tx !== undefined) });
        return;
      }
      const result = await target.query(request.sql, request.params, {
        rowMode: request.rowMode,
        ...(request.keepDatesAsText ? { parsers: TEXT_TYPES } : {}),
      });
      answer({
        id: request.id,
        ok: true,
        result: { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows },
      });
      return;
    }
    case 'begin': {
      if (closing) throw new Error('the database is closing');
      // PGlite runs one transaction at a time; a second begin waits here for the first to end.
      let endId: number | undefined;
      let committed = false;
      try {
        await db.transaction(async (tx) => {
          transactions.set(request.id, tx);
          reply({ id: request.id, ok: true, result: null });
          const end = await new Promise<{ id: number; commit: boolean }>((resolve) =>
            finishers.set(request.id, resolve),
          );
          endId = end.id;
          committed = end.commit;
          if (!end.commit) await tx.rollback();
        });
        if (endId !== undefined) {
          const ended: WorkerReply = { id: endId, ok: true, result: null };
          if (committed && writing.has(request.id)) replyWhenFlushed(ended);
          else reply(ended);
        }
      } catch (error) {
        reply(failure(endId ?? request.id, error));
      } finally {
        transactions.delete(request.id);
        finishers.delete(request.id);
        writing.delete(request.id);
      }
      return;
    }
    case 'end': {
      const finish = finishers.get(request.tx);
      if (!finish) throw new Error('no such transaction');
      finish({ id: request.id, commit: request.commit });
      return;
    }
    case 'snapshot': {
      if (closing) throw new Error('the database is closing');
      if (dataDir === undefined) throw new Error('an embedded database in memory has no files to copy');
      // Flushed first, so the copy holds little WAL to replay when opened. Then copied while
      // the database answers (files may change under the copy), then, with no transaction open
      // and no statement running, what changed copied again: the files are then the committed
      // state, as after a crash, which opening the copy recovers. Requests wait only for that.
      // The commits since the last flush (grouped commits) are flushed before the second copy:
      // their writers are told as soon as the next flush runs, so the copy must hold them.
      await db.exec('CHECKPOINT');
      const copied = await copyDataDir(dataDir, request.dir);
      await db._runExclusiveTransaction(() =>
        db.runExclusive(async () => {
          await flushNow();
          await copyDataDir(dataDir, request.dir, copied);
        }),
      );
      reply({ id: request.id, ok: true, result: null });
      return;
    }
    case 'close':
      // Nothing starts after it; what was sent before runs first (a turn later, every
      // statement sent before is in the locks' queues, ahead of the close), and a transaction
      // still open may end. Then every commit made is flushed and its writer answered.
      closing = true;
      await new Promise((resolve) => setImmediate(resolve));
      await db._runExclusiveTransaction(() =>
        db.runExclusive(async () => {
          try {
            await flushNow();
            closeFlush = 'flushed';
          } catch (error) {
            closeFlush = { error };
          }
          settle(takeWaiting(), closeFlush);
        }),
      );
      await db.close();
      reply({ id: request.id, ok: true, result: null });
      return;
  }
}
