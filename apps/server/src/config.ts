import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTrustProxy, type TrustProxy } from './auth/client-address.ts';
import { PASSWORD_PARAMS, type ScryptParams } from './auth/password.ts';

/** How long a session lasts unused (kept here, the bottom of the imports, so auth/sessions.ts can read it). */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Requests allowed per window; `RATE_LIMIT_MULTIPLIER` scales every max (tests raise it). */
export interface RateRule {
  max: number;
  windowMs: number;
}

export interface Config {
  port: number;
  host: string;
  /** Server processes sharing the port (WORKERS; 1 = no cluster). */
  workers: number;
  dataDir: string;
  /** Where uploaded images are stored (UPLOADS_DIR; DATA_DIR/uploads by default; docs/product.md section 14). */
  uploadsDir: string;
  /**
   * Images re-encoded at once by this process (UPLOADS_AT_ONCE), and uploads it takes in all
   * while they wait or are read (UPLOADS_IN_FLIGHT); past that, 503. How often images no post
   * uses are looked for (deleted 48 hours after their upload), the first time a minute after
   * the process starts.
   */
  uploads: { atOnce: number; inFlight: number; sweepMs: number; firstSweepMs: number };
  databaseUrl: string | undefined;
  /** Connections each process keeps to PostgreSQL (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /** Restarts a minute of the embedded database's thread before the process exits (PGLITE_RESTARTS). */
  pgliteRestarts: number;
  /**
   * How often each process tells the others it is alive (socket.io's cluster heartbeat,
   * PostgreSQL only); one silent for twice this is taken for gone. Tests shorten it.
   */
  realtimeHeartbeatMs: number;
  /** How often first views are counted into cached pages and announced (they may lag this much). */
  viewCountMs: number;
  /** How long a session lives unused (30 days, sliding). Tests shorten it. */
  sessionTtlMs: number;
  /** How often expired sessions are deleted (a bounded number each time). */
  sessionSweepMs: number;
  /**
   * How often due email digests are sent, and read notifications older than 180 days swept
   * (docs/product.md section 11). Due-ness is read from the database, so a restart loses
   * nothing; the first run is this long after start.
   */
  digestCheckMs: number;
  /** How often sockets whose session may have expired are checked, and closed if it has. */
  socketSessionCheckMs: number;
  /** Which peers are proxies whose X-Forwarded-For entries name the client (TRUST_PROXY). */
  trustProxy: TrustProxy;
  /**
   * The address people reach Porpoise at (PUBLIC_URL, e.g. https://porpoise.example): pages,
   * the API and socket handshakes answer only to its host; unset, only to localhost names.
   */
  publicUrl: string | undefined;
  /** A bearer token that opens GET /api/metrics to other addresses than the loopback (METRICS_TOKEN). */
  metricsToken: string | undefined;
  /**
   * Where the server keeps its own daily backups (BACKUP_DIR; docs/product.md section 15),
   * unset for none. Listed and downloadable at /admin.
   */
  backupDir: string | undefined;
  /**
   * The backup schedule: a backup is due when the newest in BACKUP_DIR is `everyMs` old,
   * looked at every `checkMs` (first `firstCheckMs` after start); the `keep` newest stay.
   */
  backups: { keep: number; everyMs: number; checkMs: number; firstCheckMs: number };
  /** Where pg_dump and psql are (PG_BIN_DIR), when not on PATH. */
  pgBinDir: string | undefined;
  /** Live socket.io clients per client address and per process (SOCKETS_PER_ADDRESS, SOCKETS_TOTAL). */
  sockets: { perAddress: number; total: number };
  /**
   * The read caches' memory (READ_CACHE_MB, a quarter for list pages and the rest for
   * question pages) and the largest page they keep (READ_CACHE_ENTRY_KB); larger pages are
   * answered but not kept.
   */
  readCache: { maxBytes: number; maxEntryBytes: number };
  logLevel: string;
  /** Timeouts and connection caps, so slow or numerous connections cannot hold the server. */
  connections: ConnectionLimits;
  /** scrypt's cost for new password hashes: OWASP's minimum (tests use cheaper ones). */
  passwordHashing: ScryptParams;
  webDistDir: string;
  migrationsDir: string;
  /**
   * Mail (docs/product.md section 10): SMTP_URL (smtp://user:pass@host:port) and MAIL_FROM;
   * without SMTP_URL each mail's recipient and subject are logged and, with MAIL_DIR, the
   * whole mail is written there as a .eml file.
   */
  mail: { smtpUrl: string | undefined; from: string; dir: string | undefined; retryDelaysMs: number[] };
  /** Where links in mail point: PUBLIC_URL, else http://localhost:PORT. */
  linkBase: string;
  /**
   * NEW_ACCOUNT_APPROVAL=true (docs/product.md section 10): a member's questions and answers
   * wait for a moderator's approval until LIMITS.firstPostsApproved of them were let through.
   */
  newAccountApproval: boolean;
  rateLimits: {
    /** Password reset requests from one client address. */
    resetRequestsPerAddress: RateRule;
    /** Password reset requests for one email, from anywhere: its owner's inbox is not flooded. */
    resetRequestsPerEmail: RateRule;
    /** Wrong current passwords (changing a password or an email) per account. */
    currentPasswordFailuresPerAccount: RateRule;
    /** New-email confirmation mails per account. */
    emailChangesPerAccount: RateRule;
    /** Wrong passwords from one client address, for any usernames. */
    loginFailuresPerAddress: RateRule;
    /** Wrong passwords for one username from one client address: other addresses never lock its owner out. */
    loginFailuresPerUsernameAndAddress: RateRule;
    registerPerIp: RateRule;
    /** PorpChat posts per client (an account, else an address): about 10 per 10 s. */
    porpchatPerClient: RateRule;
    /** PorpChat posts a day from one client address, members' and visitors' alike. */
    porpchatPerAddressPerDay: RateRule;
    /** PorpChat name checks when joining: they tell whether a username exists, so as few as registrations. */
    porpchatNameChecksPerAddress: RateRule;
    /** Questions, answers, comments, messages, forums and new threads together: about one every 5 s, burst-tolerant. */
    postsPerAccount: RateRule;
    questionsPerDay: RateRule;
    answersPerDay: RateRule;
    commentsPerDay: RateRule;
    messagesPerDay: RateRule;
    forumsPerDay: RateRule;
    /** New direct threads (conversations started), not messages in them. */
    threadsPerDay: RateRule;
    votesPerAccount: RateRule;
    votesPerDay: RateRule;
    /** Deleting and undeleting posts. */
    deletesPerAccount: RateRule;
    deletesPerDay: RateRule;
    /** Decisions on a question: closing, reopening, accepting an answer. */
    decisionsPerAccount: RateRule;
    decisionsPerDay: RateRule;
    flagsPerAccount: RateRule;
    flagsPerDay: RateRule;
    uploadsPerAccount: RateRule;
    uploadsPerDay: RateRule;
    /** API reads per client address, counted in each process's memory. */
    readsPerClient: RateRule;
  };
}

/**
 * What one HTTP connection may take (docs/product.md section 6). Node checks the header and
 * request timeouts on an interval, so a slow request is dropped within about a second of
 * its timeout; an upgraded socket (socket.io's WebSocket) leaves these timeouts but still
 * counts toward the caps until it closes.
 */
export interface ConnectionLimits {
  /** A request's headers must all arrive within this, or it is answered 408 and closed. */
  headersTimeoutMs: number;
  /** A whole request, headers and body, must arrive within this, or 408 and closed. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveTimeoutMs: number;
  /**
   * A connection on which nothing moves for this long is closed: a client that stops reading
   * its answer. Above engine.io's long-poll wait (25 s), which sends nothing until its ping.
   */
  idleTimeoutMs: number;
  /**
   * Open connections per client address (CONNECTIONS_PER_ADDRESS), counted by the socket's
   * own peer (an IPv6 one by its /64): behind a proxy, by the proxy's address.
   */
  perAddress: number;
  /** Open connections in all (MAX_CONNECTIONS), never above a safe share of the descriptor limit. */
  total: number;
}

/** Connections per address unless CONNECTIONS_PER_ADDRESS says otherwise: a browser needs a handful. */
export const DEFAULT_CONNECTIONS_PER_ADDRESS = 256;

/** The share of the process's open-file limit that connections may take; the rest is for the database and files. */
const CONNECTION_SHARE_OF_FILES = 0.8;

/** Assumed when the open-file limit cannot be read (not Linux): the usual soft limit. */
const FALLBACK_FILE_LIMIT = 1024;

/** This process's open-file limit (`ulimit -n`; Node raises its soft limit to the hard one at start). */
export function openFileLimit(): number {
  try {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('Max open files'));
    const soft = Number(line?.slice('Max open files'.length).trim().split(/\s+/)[0]);
    return Number.isSafeInteger(soft) && soft > 0 ? soft : FALLBACK_FILE_LIMIT;
  } catch {
    return FALLBACK_FILE_LIMIT;
  }
}

/** A positive whole number from the environment, or the default when unset or not one. */
const positive = (raw: string | undefined, fallback: number) =>
  Math.max(1, Math.floor(Number(raw ?? fallback)) || fallback);

function connectionLimits(env: NodeJS.ProcessEnv, fileLimit: number): ConnectionLimits {
  const safeTotal = Math.max(1, Math.floor(fileLimit * CONNECTION_SHARE_OF_FILES));
  return {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: positive(env.KEEP_ALIVE_TIMEOUT_MS, 10_000),
    idleTimeoutMs: 60_000,
    perAddress: positive(env.CONNECTIONS_PER_ADDRESS, DEFAULT_CONNECTIONS_PER_ADDRESS),
    total: Math.min(safeTotal, positive(env.MAX_CONNECTIONS, safeTotal)),
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Connections per process to PostgreSQL. Few: on a 2-core machine, 64 clients writing
 * answers over 8 connections against 20 (bench probe, 1M questions, alternated runs):
 * flat out 889-1,484 -> 1,623-1,653 a second; offered 1,000 a second, p99 109-270 -> 50-70 ms.
 * More connections than cores only add PostgreSQL backends taking turns on them.
 */
export const DEFAULT_POOL_SIZE = 8;

const here = path.dirname(fileURLToPath(import.meta.url));
// src/ in development and tests, dist/ once bundled: both sit directly in apps/server.
const serverRoot = path.resolve(here, '..');

/** A whole number >= 0 from the environment, or the default when unset or not one. */
function nonNegativeInteger(value: string | undefined, otherwise: number): number {
  const number = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(number) && number >= 0 ? number : otherwise;
}

/** PUBLIC_URL as given, once it is an http(s) address with a host; unset or empty gives undefined. */
export function parsePublicUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`PUBLIC_URL must be an http or https address, such as https://porpoise.example (got ${raw})`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new Error(`PUBLIC_URL must be an http or https address, such as https://porpoise.example (got ${raw})`);
  }
  return url.origin;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, fileLimit = openFileLimit()): Config {
  const multiplier = Number(env.RATE_LIMIT_MULTIPLIER ?? '1') || 1;
  const rule = (max: number, windowMs: number): RateRule => ({ max: Math.ceil(max * multiplier), windowMs });
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    workers: Math.max(1, Math.floor(Number(env.WORKERS ?? '1')) || 1),
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    uploadsDir: path.resolve(env.UPLOADS_DIR ?? path.join(env.DATA_DIR ?? './data', 'uploads')),
    uploads: {
      atOnce: positive(env.UPLOADS_AT_ONCE, 1),
      inFlight: positive(env.UPLOADS_IN_FLIGHT, 8),
      sweepMs: 60 * 60_000,
      firstSweepMs: 60_000,
    },
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: Math.max(1, Math.floor(Number(env.DATABASE_POOL_SIZE ?? DEFAULT_POOL_SIZE)) || DEFAULT_POOL_SIZE),
    pgliteRestarts: nonNegativeInteger(env.PGLITE_RESTARTS, 3),
    realtimeHeartbeatMs: 5_000,
    viewCountMs: 1_000,
    sessionTtlMs: SESSION_TTL_MS,
    sessionSweepMs: 10 * 60_000,
    digestCheckMs: positive(env.DIGEST_CHECK_MINUTES, 15) * 60_000,
    socketSessionCheckMs: 60_000,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    publicUrl: parsePublicUrl(env.PUBLIC_URL),
    metricsToken: env.METRICS_TOKEN || undefined,
    backupDir: env.BACKUP_DIR ? path.resolve(env.BACKUP_DIR) : undefined,
    backups: { keep: 7, everyMs: 24 * 60 * 60_000, checkMs: 10 * 60_000, firstCheckMs: 5 * 60_000 },
    pgBinDir: env.PG_BIN_DIR || undefined,
    sockets: { perAddress: positive(env.SOCKETS_PER_ADDRESS, 50), total: positive(env.SOCKETS_TOTAL, 20_000) },
    readCache: {
      maxBytes: positive(env.READ_CACHE_MB, 64) * 2 ** 20,
      maxEntryBytes: positive(env.READ_CACHE_ENTRY_KB, 2_048) * 2 ** 10,
    },
    logLevel: env.LOG_LEVEL ?? 'info',
    connections: connectionLimits(env, fileLimit),
    passwordHashing: PASSWORD_PARAMS,
    webDistDir: path.resolve(serverRoot, '../web/dist'),
    migrationsDir: path.resolve(serverRoot, 'drizzle'),
    mail: {
      smtpUrl: env.SMTP_URL || undefined,
      from: env.MAIL_FROM || 'Porpoise <no-reply@localhost>',
      dir: env.MAIL_DIR ? path.resolve(env.MAIL_DIR) : undefined,
      // A failed send is tried again after each of these (tests shorten them).
      retryDelaysMs: [2_000, 10_000, 60_000, 300_000],
    },
    linkBase: parsePublicUrl(env.PUBLIC_URL) ?? `http://localhost:${Number(env.PORT ?? 3000)}`,
    newAccountApproval: env.NEW_ACCOUNT_APPROVAL === 'true',
    rateLimits: {
      resetRequestsPerAddress: rule(10, 60 * 60_000),
      resetRequestsPerEmail: rule(3, 60 * 60_000),
      currentPasswordFailuresPerAccount: rule(10, 10 * 60_000),
      emailChangesPerAccount: rule(5, 60 * 60_000),
      loginFailuresPerAddress: rule(20, 10 * 60_000),
      loginFailuresPerUsernameAndAddress: rule(10, 10 * 60_000),
      registerPerIp: rule(10, 60 * 60_000),
      porpchatPerClient: rule(10, 10_000),
      porpchatPerAddressPerDay: rule(500, DAY_MS),
      porpchatNameChecksPerAddress: rule(10, 60 * 60_000),
      postsPerAccount: rule(12, 60_000),
      questionsPerDay: rule(50, DAY_MS),
      answersPerDay: rule(200, DAY_MS),
      commentsPerDay: rule(500, DAY_MS),
      messagesPerDay: rule(1_000, DAY_MS),
      forumsPerDay: rule(10, DAY_MS),
      threadsPerDay: rule(100, DAY_MS),
      votesPerAccount: rule(60, 60_000),
      votesPerDay: rule(1_000, DAY_MS),
      deletesPerAccount: rule(60, 60_000),
      deletesPerDay: rule(1_000, DAY_MS),
      decisionsPerAccount: rule(60, 60_000),
      decisionsPerDay: rule(1_000, DAY_MS),
      // docs/product.md section 6: flags 20 an hour per account.
      flagsPerAccount: rule(20, 60 * 60_000),
      flagsPerDay: rule(1_000, DAY_MS),
      // docs/product.md section 14: 20 uploads an hour per member.
      uploadsPerAccount: rule(20, 60 * 60_000),
      uploadsPerDay: rule(200, DAY_MS),
      readsPerClient: rule(1_200, 60_000),
    },
  };
}
