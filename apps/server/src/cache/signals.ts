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
  /**
   * Runs this process's handlers, tells the others, and resolves once PostgreSQL has handed
   * the signal to every listener (this process's own listener has it back): a sign-out
   * answered after it finds no other process still taking the session.
   */
  publish(channel: SignalChannel, payload: string): Promise<void>;
  /**
   * Tells only the other processes (this one has acted already); resolves once it is sent.
   * They act on it as they hear it, well under a millisecond later on an idle machine: the
   * write path does not wait for that (waiting cost a cluster of 2 half its community-day
   * throughput, each write queued behind its own echo on a busy event loop).
   */
  tellOthers(channel: SignalChannel, payload: string): Promise<void>;
  subscribe(channel: SignalChannel, handler: SignalHandler): void;
  /**
   * Runs this process's handlers with null (forget everything): what this process read may
   * be gone (the embedded database's thread died, losing commits not yet flushed).
   */
  forgetAll(): void;
  /** False while this process might miss another's signal: caches must not answer then. */
  readonly listening: boolean;
  close(): Promise<void>;
}

type Handlers = Map<SignalChannel, SignalHandler[]>;

function dispatch(handlers: Handlers, channel: SignalChannel, payload: string | null): void {
  for (const handler of handlers.get(channel) ?? []) handler(payload);
}

function forgetAllIn(handlers: Handlers): void {
  for (const channel of CHANNELS) dispatch(handlers, channel, null);
}

function subscribeTo(handlers: Handlers): Signals['subscribe'] {
  return (channel, handler) => handlers.set(channel, [...(handlers.get(channel) ?? []), handler]);
}

/** One process (the embedded database): a signal only ever needs to reach this one. */
export function createLocalSignals(): Signals {
  const handlers: Handlers = new Map();
  return {
    publish: async (channel, payload) => dispatch(handlers, channel, payload),
    tellOthers: async () => undefined,
    subscribe: subscribeTo(handlers),
    forgetAll: () => forgetAllIn(handlers),
    listening: true,
    close: async () => undefined,
  };
}

const RECONNECT_MS = 500;
/** How often the listening connection proves it is alive, and how long the proof may take. */
export const SIGNAL_HEARTBEAT_MS = 2_000;

export interface PostgresSignalsOptions {
  /** Heard when the listening connection is lost: caches are off until it is back. */
  onLost: (error: unknown) => void;
  /** Heard when it listens again after a loss: caches are on again. */
  onBack?: () => void;
  heartbeatMs?: number;
}

/**
 * Several processes on one PostgreSQL: a dedicated connection LISTENs; publishing is
 * `pg_notify` on the shared pool, tagged with this process's id so it skips its own echo.
 * Losing the connection marks the signals as not listening until it is back, and tells
 * every handler to forget (null), on loss and again on return.
 *
 * A link can die without a word (a NAT or firewall dropping it, a host gone): then nothing
 * would ever say so, and this process would serve stale cached pages. So the connection
 * has TCP keepalive, and every heartbeatMs it sends a NOTIFY to itself: an echo that does
 * not come back within heartbeatMs counts as a lost connection (caches off, reconnect).
 */
export async function createPostgresSignals(
  url: string,
  notify: (channel: SignalChannel, message: string) => Promise<void>,
  { onLost, onBack = () => undefined, heartbeatMs = SIGNAL_HEARTBEAT_MS }: PostgresSignalsOptions,
): Promise<Signals> {
  const handlers: Handlers = new Map();
  const self = randomUUID();
  // Only this process listens to its heartbeat: no other process hears it.
  const aliveChannel = `porpoise_alive_${self.replaceAll('-', '')}`;
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let everLost = false;
  let retry: NodeJS.Timeout | undefined;
  /** The next heartbeat, or the deadline of the one awaited (or of connecting). */
  let beat: NodeJS.Timeout | undefined;
  let awaitedEcho = '';

  const lost = (error: unknown, which: pg.Client) => {
    if (closed || which !== client) return;
    const wasListening = listening;
    listening = false;
    everLost = true;
    clearTimeout(beat);
    // A dead connection says nothing more: no late 'end' may undo its successor.
    which.removeAllListeners();
    which.on('error', () => undefined);
    // Ending a connection whose query hangs destroys its socket (pg's end()).
    which.end().catch(() => undefined);
    client = null;
    if (wasListening) forgetAllIn(handlers);
    onLost(error);
    retry = setTimeout(() => {
      retry = undefined;
      void connect().catch(() => undefined);
    }, RECONNECT_MS);
  };

  /** In heartbeatMs, a NOTIFY to itself, whose echo must come back within heartbeatMs. */
  const scheduleBeat = (current: pg.Client) => {
    beat = setTimeout(() => {
      awaitedEcho = randomUUID();
      beat = setTimeout(
        () => lost(new Error(`signal connection silent for ${heartbeatMs} ms`), current),
        heartbeatMs,
      ).unref();
      current.query('select pg_notify($1, $2)', [aliveChannel, awaitedEcho]).catch(() => undefined);
    }, heartbeatMs).unref();
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({
      connectionString: url,
      application_name: 'porpoise-signals',
      keepAlive: true,
      keepAliveInitialDelayMillis: heartbeatMs,
    });
    client = next;
    next.on('error', (error) => lost(error, next));
    next.on('end', () => lost(new Error('signal connection ended'), next));
    next.on('notification', ({ channel, payload }) => {
      if (channel === aliveChannel) {
        if (payload !== awaitedEcho || client !== next) return;
        clearTimeout(beat);
        scheduleBeat(next);
        return;
      }
      // `{process id}:{send number}:{payload}`.
      if (!payload?.startsWith(':', 36)) return;
      if (payload.startsWith(self)) {
        // Its own signal, back: PostgreSQL has handed it to every listener.
        echoes.get(`${channel} ${payload}`)?.();
        return;
      }
      const number = payload.indexOf(':', 37);
      if (number < 0) return;
      dispatch(handlers, channel as SignalChannel, payload.slice(number + 1));
    });
    // Connecting and listening get the same time as an echo (a dead link can hang them too).
    beat = setTimeout(() => lost(new Error('signal connection did not listen in time'), next), 2 * heartbeatMs);
    beat.unref();
    try {
      await next.connect();
      for (const channel of [...CHANNELS, aliveChannel]) await next.query(`listen ${channel}`);
    } catch (error) {
      lost(error, next);
      throw error;
    }
    if (closed || client !== next) {
      await next.end().catch(() => undefined);
      return;
    }
    clearTimeout(beat);
    listening = true;
    // Whatever was published while we were away is unknown: start from nothing.
    forgetAllIn(handlers);
    if (everLost) onBack();
    scheduleBeat(next);
  }

  try {
    await connect();
  } catch (error) {
    closed = true;
    clearTimeout(retry);
    clearTimeout(beat);
    throw error;
  }
  // Many writers at once share NOTIFYs: a publish waits for the next NOTIFY that starts
  // after it (one in flight per channel and payload), instead of sending its own. A NOTIFY
  // is not folded into the write's own statement: PostgreSQL holds one lock for every
  // notifying transaction through its commit, so those commits queue one behind another
  // (tried with the answer statement at 1M: 1,017-1,477 -> 753-846 answers a second).
  /** Sends waiting for their echo, by channel and message (each message is numbered: one wait each). */
  const echoes = new Map<string, () => void>();
  let sent = 0;
  /**
   * NOTIFYs `payload` and, `untilHeard`, waits until this process's own listener hears it
   * back: PostgreSQL queues a notification for every listener at once, at the commit, so the
   * others have it then too. Not listening (or silent past a heartbeat), it waits no longer:
   * the caches of a process that cannot hear are off anyway.
   */
  async function notifyHeard(channel: SignalChannel, payload: string, untilHeard: boolean): Promise<void> {
    const message = `${self}:${(sent++).toString(36)}:${payload}`;
    if (!untilHeard || !listening) return notify(channel, message);
    const key = `${channel} ${message}`;
    let timer: NodeJS.Timeout | undefined;
    const echo = new Promise<void>((resolve) => {
      echoes.set(key, resolve);
      timer = setTimeout(resolve, heartbeatMs).unref();
    });
    try {
      await notify(channel, message);
      await echo;
    } finally {
      clearTimeout(timer);
      echoes.delete(key);
    }
  }
  const inFlight = new Map<string, Promise<void>>();
  const queued = new Map<string, Promise<void>>();
  function send(channel: SignalChannel, payload: string, untilHeard: boolean): Promise<void> {
    const key = `${channel}:${untilHeard}:${payload}`;
    const waiting = queued.get(key);
    if (waiting) return waiting;
    const running = inFlight.get(key);
    const next = (running ? running.catch(() => undefined) : Promise.resolve()).then(async () => {
      queued.delete(key);
      inFlight.set(key, next);
      try {
        await notifyHeard(channel, payload, untilHeard);
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
      await send(channel, payload, true);
    },
    tellOthers: (channel, payload) => send(channel, payload, false),
    subscribe: subscribeTo(handlers),
    forgetAll: () => forgetAllIn(handlers),
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearTimeout(beat);
      const current = client;
      client = null;
      listening = false;
      // A silently dead link never answers the goodbye: wait for it no longer than an echo.
      await Promise.race([
        current?.end().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, heartbeatMs).unref()),
      ]);
    },
  };
}
