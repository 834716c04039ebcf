import { createAdapter } from '@socket.io/postgres-adapter';
import { CLIENT_SOCKET_LIMITS, type Role, type SocketEventName } from '@porpoise/core';
import type { SocketPayloads } from '@porpoise/core/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import pg from 'pg';
import { Server, type DefaultEventsMap, type Socket } from 'socket.io';
import type { IncomingMessage } from 'node:http';
import { allowedHostnames, namesAllowedHost, requestHost } from '../http/allowed-hosts.ts';
import { addressKey, clientAddress, clientProtocol, trustFunction } from '../auth/client-address.ts';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import { getAccount } from '../queries/accounts.ts';
import { hearsModeration, type Audience } from '../policies/audience.ts';
import { isCrossSite } from '../plugins/security.ts';
import { acceptClientEvents } from './client-events.ts';
import { ClientLimits } from './client-limits.ts';
import { rooms } from './rooms.ts';

export interface SocketData {
  accountId: number | null;
  username: string | null;
  role: Role | null;
  tokenHash: string | null;
  /** When the session ends unless used (ms since the epoch); it is checked again then. */
  expiresAt: number | null;
}

/** One payload of an event sent to many audiences at once, and who hears it. */
export interface Addressed {
  audience: Audience;
  payload: unknown;
}

/**
 * Payloads per frame, at most, when one socket hears several of an `emitEach` (a list
 * showing 50 questions whose view counts changed in the same second gets one frame).
 */
const PAYLOADS_PER_FRAME = 25;

/** The only code that emits. Routes call these after a command commits and a policy allowed it. */
export interface Realtime {
  io: Server<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;
  /** Sends an event to its audience, on every process (only the event processor calls this). */
  emit<E extends SocketEventName>(audience: Audience, event: E, payload: SocketPayloads[E]): void;
  /**
   * Sends one event with many payloads, each to its own audience, on every process: a
   * socket in several of the audiences gets its payloads together, as the arguments of one
   * frame (at most PAYLOADS_PER_FRAME each), not one frame per payload.
   */
  emitEach(event: SocketEventName, items: Addressed[]): void;
  /** Disconnects the sockets of a session that has just ended (sign-out), on every process. */
  endSession(tokenHash: string): void;
  /** An account's role changed: its sockets join or leave the moderators' room, on every process. */
  seatRole(accountId: number, role: Role): void;
  /** Live engine.io clients of this process, and how many addresses they come from. */
  clientCounts(): { total: number; addresses: number };
}

type AppSocket = Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type AdapterFactory = ReturnType<typeof createAdapter>;

/**
 * How long the adapter has been listening. Its LISTEN connection is internal to
 * @socket.io/postgres-adapter: set once the LISTEN has run, unset while it reconnects. A
 * new connection (after PostgreSQL was lost) starts the count again. Were the field ever
 * gone, the process would never count itself alone: slower broadcasts, none lost.
 */
class Listening {
  private client: object | undefined;
  private since = Infinity;

  /** Milliseconds since the adapter's current LISTEN connection began, or -Infinity. */
  check(adapter: object): number {
    const client = (adapter as { client?: { client?: object } }).client?.client;
    if (client !== this.client) {
      this.client = client;
      this.since = client ? performance.now() : Infinity;
    }
    return performance.now() - this.since;
  }
}

/**
 * The adapter publishes every broadcast through PostgreSQL (a NOTIFY, and its echo back to
 * this process) and reaches this process's own sockets only once that NOTIFY has returned,
 * even when no other process exists. Its heartbeats count the other processes: every live
 * process publishes something (at least a heartbeat) each heartbeat interval, and one
 * silent for the heartbeat timeout (twice the interval) is taken for gone. So a process
 * that has listened for a whole heartbeat timeout and heard nobody is alone, and keeps its
 * broadcasts local. Before that (just after it started or reconnected) it publishes them
 * all: another process may exist that it has not heard yet, whose sockets must not miss
 * them. A starting process announces itself, and the others hear it (and answer) at once.
 */
function localWhileAlone(make: AdapterFactory, listening: Listening, heartbeatTimeoutMs: number): AdapterFactory {
  // A function, not an arrow: socket.io calls it with `new` (it returns the adapter).
  return function (nsp) {
    const adapter = make(nsp);
    const alone = async () => listening.check(adapter) > heartbeatTimeoutMs && (await adapter.serverCount()) === 1;
    const broadcast = adapter.broadcast.bind(adapter);
    // A published broadcast reaches this process's sockets only once its NOTIFY returned, a
    // local one at once. Two published together run on two of the pool's connections and
    // may return (and commit) in either order; a local one could overtake one still being
    // published (when the process finds itself alone, its heartbeat timeout passing). So
    // each broadcast begins only once the one before it has reached the sockets here (and
    // its NOTIFY committed): a socket hears one process's events in the order they were
    // emitted (a deleteUpdate, then the answerUpdate after it), here and on the others.
    let previous: Promise<unknown> = Promise.resolve();
    adapter.broadcast = (packet, options) => {
      const sent = previous.then(async () =>
        broadcast(packet, (await alone()) ? { ...options, flags: { ...options.flags, local: true } } : options),
      );
      previous = sent.catch(() => undefined);
      return sent;
    };
    // Messages between processes (emitEach's): none to publish when no other process exists.
    const serverSideEmit = adapter.serverSideEmit.bind(adapter);
    adapter.serverSideEmit = async (packet) => {
      if (!(await alone())) await serverSideEmit(packet);
    };
    return adapter;
  };
}

/** The other processes' name for an emitEach: a message between servers, not to sockets. */
const EACH_MESSAGE = 'porpoise:emitEach';

/**
 * Events cross processes through PostgreSQL LISTEN/NOTIFY. The adapter gets its own small
 * pool; we wait until it listens, because an adapter closed before then would take its
 * connection afterwards and never give it back.
 */
async function usePostgresAdapter(app: FastifyInstance, io: Server, url: string): Promise<void> {
  // keepAlive: a LISTEN connection that died without a word would leave this process deaf.
  const pool = new pg.Pool({ connectionString: url, max: 3, keepAlive: true });
  pool.on('error', (error) => app.log.warn({ err: error }, 'socket.io adapter connection lost'));
  // The adapter keeps its LISTEN connection checked out; without a listener, that connection
  // failing (a PostgreSQL restart) would be an unhandled 'error' event and end the process.
  pool.on('connect', (client) =>
    client.on('error', (error) => app.log.warn({ err: error }, 'socket.io adapter connection lost')),
  );
  const heartbeatInterval = app.config.realtimeHeartbeatMs;
  const heartbeatTimeout = 2 * heartbeatInterval;
  const listening = new Listening();
  io.adapter(
    localWhileAlone(
      createAdapter(pool, {
        heartbeatInterval,
        heartbeatTimeout,
        errorHandler: (error) => app.log.warn({ err: error }, 'socket.io adapter'),
      }),
      listening,
      heartbeatTimeout,
    ),
  );
  const adapter = io.of('/').adapter;
  for (let waited = 0; listening.check(adapter) === -Infinity && waited < 5_000; waited += 10) await sleep(10);
  // The first announcement went out before this process was listening, so it may have
  // missed the others' answers: announce again, now that it hears them.
  await adapter.init();
  app.addHook('onClose', async () => {
    await adapter.close();
    // A reconnection racing the close (after a PostgreSQL restart) can keep one connection
    // checked out for good; shutdown does not wait for it.
    await Promise.race([pool.end(), sleep(2_000)]);
  });
}

/** The parts of an engine.io client (one handshake, before socket.io's connection) used here. */
interface EngineClient {
  request: IncomingMessage;
  once(event: 'close', listener: () => void): void;
  close(discard: boolean): void;
}

// A handshake whose client has not joined within this is dropped (socket.io's default is 45 s,
// long enough for a flood of unused handshakes to fill the heap), as is an upgrade left half-way.
const UNUSED_HANDSHAKE_MS = 5_000;

/**
 * socket.io on the app's HTTP server. The handshake checks Origin and reads the session
 * cookie: a signed-in socket joins its user's, its session's and the signed-in rooms;
 * anonymous sockets (PorpChat visitors) only the public room. With PostgreSQL, events
 * cross processes through @socket.io/postgres-adapter.
 */
export const realtimePlugin = fp(
  async (app: FastifyInstance) => {
    const trust = trustFunction(app.config.trustProxy);
    const limits = new ClientLimits(app.config.sockets);
    const hostnames = allowedHostnames(app.config.publicUrl);
    const keyOf = (req: IncomingMessage) => addressKey(clientAddress(req, trust));
    const io = new Server<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>(app.server, {
      serveClient: false,
      // A larger frame closes only the socket that sent it.
      maxHttpBufferSize: CLIENT_SOCKET_LIMITS.frameBytesMax,
      // A backstop: our own timer (below) discards an unused client first. socket.io's would
      // only ask it to close, which a polling client with no request pending does 30 s later.
      connectTimeout: UNUSED_HANDSHAKE_MS + 1_000,
      upgradeTimeout: UNUSED_HANDSHAKE_MS,
      // Called for new handshakes only; a refusal is a 403 before engine.io allocates anything.
      allowRequest: (req, callback) => {
        if (!namesAllowedHost(req, trust, hostnames)) return callback('Unknown host', false);
        if (isCrossSite(req.headers, clientProtocol(req, trust), requestHost(req, trust)))
          return callback('Forbidden', false);
        const admitted = limits.admits(keyOf(req));
        callback(admitted ? null : 'Too many connections', admitted);
      },
    });
    // Engine clients whose socket.io connection (after the session lookup) has begun.
    const joined = new WeakSet<object>();
    io.engine.on('connection', (client: EngineClient) => {
      const key = keyOf(client.request);
      limits.opened(key);
      const unused = setTimeout(() => {
        if (!joined.has(client)) client.close(true);
      }, UNUSED_HANDSHAKE_MS);
      client.once('close', () => {
        clearTimeout(unused);
        limits.closed(key);
      });
    });

    if (app.database.url) await usePostgresAdapter(app, io, app.database.url);

    io.use((socket, next) => {
      const cookies = app.parseCookie(socket.request.headers.cookie ?? '');
      app.sessions
        .find(cookies[SESSION_COOKIE])
        .then((session) => {
          socket.data = {
            accountId: session?.accountId ?? null,
            username: session?.username ?? null,
            role: session?.role ?? null,
            tokenHash: session?.tokenHash ?? null,
            expiresAt: session?.expiresAt ?? null,
          };
          next();
        })
        .catch((error: unknown) => next(error instanceof Error ? error : new Error('handshake failed')));
    });

    io.on('connection', (socket) => {
      joined.add(socket.conn);
      acceptClientEvents(socket);
      const { accountId, tokenHash } = socket.data;
      void socket.join(rooms.porpchat);
      if (accountId !== null && tokenHash !== null) {
        void socket.join([rooms.user(accountId), rooms.session(tokenHash), rooms.signedIn]);
        if (socket.data.role !== null && hearsModeration(socket.data.role)) void socket.join(rooms.moderators);
        // A sign-out that ran between the session lookup and this join disconnected the
        // session's room without this socket: look again, now that a sign-out finds it.
        void closeUnlessLive([socket]);
        // So did a demotion: it seated the account's sockets without this one.
        void leaveUnlessModerating(socket, accountId);
      }
    });

    /**
     * Reads the account's role again once the socket is in its user's room (where a role
     * change finds it) and leaves the moderators' room if the role no longer hears it.
     * Only leaves: a stale read never seats a socket a later demotion has just unseated.
     */
    async function leaveUnlessModerating(socket: AppSocket, accountId: number): Promise<void> {
      if (!socket.rooms.has(rooms.moderators)) return;
      try {
        const role = (await getAccount(app.db, accountId))?.role as Role | undefined;
        if (role !== undefined && hearsModeration(role)) return;
        socket.data.role = role ?? null;
        void socket.leave(rooms.moderators);
      } catch (error) {
        // Unread: the socket may hear what it may no longer see, so it goes.
        app.log.warn({ err: error }, 'could not check the role of a socket');
        socket.disconnect(true);
      }
    }

    /** Closes the sockets whose session has ended; the others learn their session's new end. */
    async function closeUnlessLive(sockets: AppSocket[]): Promise<void> {
      const hashes = [...new Set(sockets.map((socket) => socket.data.tokenHash ?? ''))];
      try {
        const live = await app.sessions.liveUntil(hashes);
        for (const socket of sockets) {
          const until = live.get(socket.data.tokenHash ?? '');
          if (until === undefined) socket.disconnect(true);
          else socket.data.expiresAt = until;
        }
      } catch (error) {
        app.log.warn({ err: error }, 'could not check the sessions of sockets');
      }
    }

    // A socket does not outlive its session: once past the end its session had when last
    // seen, it is checked (the session may have been used since) and closed if it ended.
    let checking = false;
    const sessionCheck = setInterval(() => {
      if (checking) return;
      const now = Date.now();
      const due = [...io.sockets.sockets.values()].filter(
        (socket) => socket.data.expiresAt !== null && socket.data.expiresAt <= now,
      );
      if (due.length === 0) return;
      checking = true;
      void closeUnlessLive(due).finally(() => (checking = false));
    }, app.config.socketSessionCheckMs).unref();
    app.addHook('onClose', async () => clearInterval(sessionCheck));

    /** An emitEach on this process's sockets: each socket's payloads gathered into frames. */
    const deliverEach = (event: SocketEventName, items: Addressed[]) => {
      const roomsHere = io.of('/').adapter.rooms;
      const perSocket = new Map<string, unknown[]>();
      for (const { audience, payload } of items) {
        const names = rooms.of(audience);
        const ids = new Set<string>();
        for (const room of typeof names === 'string' ? [names] : names) {
          for (const id of roomsHere.get(room) ?? []) ids.add(id);
        }
        for (const id of ids) {
          const payloads = perSocket.get(id);
          if (payloads) payloads.push(payload);
          else perSocket.set(id, [payload]);
        }
      }
      for (const [id, payloads] of perSocket) {
        const socket = io.sockets.sockets.get(id);
        if (!socket) continue;
        for (let start = 0; start < payloads.length; start += PAYLOADS_PER_FRAME) {
          socket.emit(event, ...payloads.slice(start, start + PAYLOADS_PER_FRAME));
        }
      }
    };
    // Another process's emitEach, for the sockets here.
    io.on(EACH_MESSAGE, (event: SocketEventName, items: Addressed[]) => deliverEach(event, items));

    const realtime: Realtime = {
      io,
      emit: (audience, event, payload) => void io.to(rooms.of(audience)).emit(event, payload),
      emitEach: (event, items) => {
        if (items.length === 0) return;
        deliverEach(event, items);
        // The in-memory adapter (one process, the embedded database) has no other process to tell.
        if (app.database.url) io.serverSideEmit(EACH_MESSAGE, event, items);
      },
      endSession: (tokenHash) => io.in(rooms.session(tokenHash)).disconnectSockets(true),
      seatRole: (accountId, role) => {
        const sockets = io.in(rooms.user(accountId));
        if (hearsModeration(role)) sockets.socketsJoin(rooms.moderators);
        else sockets.socketsLeave(rooms.moderators);
      },
      clientCounts: () => limits.counts(),
    };
    app.decorate('realtime', realtime);

    // Close sockets before the HTTP server waits for its connections to end.
    app.addHook('preClose', async () => {
      io.local.disconnectSockets(true);
      io.engine.close();
    });
  },
  { name: 'realtime', dependencies: ['database', 'auth'] },
);
