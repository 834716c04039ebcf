import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** What one process tells the others: content changed (drop read caches), a session ended. */
export type SignalChannel = 'porpoise_content' | 'porpoise_session';
const CHANNELS: SignalChannel[] = ['porpoise_content', 'porpoise_session'];

/**
 * A handler gets the payload, or null when signals may have been missed (the listening
 * connection dropped or came back): then it must forget everything it cached.
 */
export type SignalHandler = (payload: string | null) => void;

/**
 * Tells every server process about changes that in-memory caches depend on. The
 * publishing process runs its handlers at once; the others hear it through PostgreSQL
 * LISTEN/NOTIFY. With the embedded database there is only one process.
 */
export interface Signals {
  publish(channel: SignalChannel, payload: string): Promise<void>;
  subscribe(channel: SignalChannel, handler: SignalHandler): void;
  /** False while this process might miss another's signal: caches must not answer then. */
  readonly listening: boolean;
  close(): Promise<void>;
}

type Handlers = Map<SignalChannel, SignalHandler[]>;

function dispatch(handlers: Handlers, channel: SignalChannel, payload: string | null): void {
  for (const handler of handlers.get(channel) ?? []) handler(payload);
}

function subscribeTo(handlers: Handlers): Signals['subscribe'] {
  return (channel, handler) => handlers.set(channel, [...(handlers.get(channel) ?? []), handler]);
}

/** One process (the embedded database): a signal only ever needs to reach this one. */
export function createLocalSignals(): Signals {
  const handlers: Handlers = new Map();
  return {
    publish: async (channel, payload) => dispatch(handlers, channel, payload),
    subscribe: subscribeTo(handlers),
    listening: true,
    close: async () => undefined,
  };
}

const RECONNECT_MS = 500;

/**
 * Several processes on one PostgreSQL: a dedicated connection LISTENs; publishing is
 * `pg_notify` on the shared pool, tagged with this process's id so it skips its own echo.
 * Losing the connection marks the signals as not listening until it is back, and tells
 * every handler to forget (null), on loss and again on return.
 */
export async function createPostgresSignals(
  url: string,
  notify: (channel: SignalChannel, message: string) => Promise<void>,
  onError: (error: unknown) => void,
): Promise<Signals> {
  const handlers: Handlers = new Map();
  const self = randomUUID();
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const lost = (error: unknown) => {
    if (closed || retry) return;
    const wasListening = listening;
    listening = false;
    if (client) {
      // A dead connection says nothing more: no late 'end' may undo its successor.
      client.removeAllListeners();
      client.on('error', () => undefined);
      client = null;
    }
    if (wasListening) for (const channel of CHANNELS) dispatch(handlers, channel, null);
    onError(error);
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch(lost);
    }, RECONNECT_MS);
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url });
    client = next;
    next.on('error', lost);
    next.on('end', () => lost(new Error('signal connection ended')));
    next.on('notification', ({ channel, payload }) => {
      if (!payload?.startsWith(':', 36) || payload.startsWith(self)) return;
      dispatch(handlers, channel as SignalChannel, payload.slice(37));
    });
    await next.connect();
    for (const channel of CHANNELS) await next.query(`listen ${channel}`);
    if (closed) {
      await next.end();
      return;
    }
    listening = true;
    // Whatever was published while we were away is unknown: start from nothing.
    for (const channel of CHANNELS) dispatch(handlers, channel, null);
  }

  try {
    await connect();
  } catch (error) {
    closed = true;
    clearTimeout(retry);
    // connect() set it before failing; the compiler cannot see through the closure.
    await (client as pg.Client | null)?.end().catch(() => undefined);
    throw error;
  }
  // Many writers at once share NOTIFYs: a publish waits for the next NOTIFY that starts
  // after it (one in flight per channel and payload), instead of sending its own. A NOTIFY
  // is not folded into the write's own statement: PostgreSQL holds one lock for every
  // notifying transaction through its commit, so those commits queue one behind another
  // (tried with the answer statement at 1M: 1,017-1,477 -> 753-846 answers a second).
  const inFlight = new Map<string, Promise<void>>();
  const queued = new Map<string, Promise<void>>();
  function send(channel: SignalChannel, payload: string): Promise<void> {
    const key = `${channel}:${payload}`;
    const waiting = queued.get(key);
    if (waiting) return waiting;
    const running = inFlight.get(key);
    const next = (running ? running.catch(() => undefined) : Promise.resolve()).then(async () => {
      queued.delete(key);
      inFlight.set(key, next);
      try {
        await notify(channel, `${self}:${payload}`);
      } finally {
        if (inFlight.get(key) === next) inFlight.delete(key);
      }
    });
    queued.set(key, next);
    return next;
  }

  return {
    async publish(channel, payload) {
      dispatch(handlers, channel, payload);
      await send(channel, payload);
    },
    subscribe: subscribeTo(handlers),
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = null;
      listening = false;
      await current?.end().catch(() => undefined);
    },
  };
}
