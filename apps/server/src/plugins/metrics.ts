import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { forwardedByProxy } from '../auth/client-address.ts';

/** What a read cache counts (cache/read-cache.ts). */
interface CacheCounts {
  hits: number;
  loads: number;
  bytes: number;
}

/** What /api/metrics answers (Prometheus's text format), made by `render`. */
export interface Metrics {
  contentType: string;
  render(): Promise<string>;
  /** Whether this request may read them: from the loopback address with no proxy set or in between, or with the METRICS_TOKEN bearer. */
  allows(request: FastifyRequest): boolean;
}

/** Whether a connection's own address is this machine's loopback. */
export const isLoopback = (address: string) =>
  address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');

/** Whether the request carries `Authorization: Bearer <token>` (compared in constant time). */
export function bearerMatches(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Operations' view of a running process (issue 17 item 5): request counts and durations
 * by route (the route's pattern, never the raw URL: a bounded set of series), open
 * sockets, the read caches' hits and misses, PostgreSQL's pool, and the Node defaults
 * (event loop delay, memory, handles). Each process counts its own.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
    const requests = new Histogram({
      name: 'porpoise_http_request_duration_seconds',
      help: 'HTTP requests by method, route and status, and how long they took',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });
    app.addHook('onResponse', (request, reply, done) => {
      // A request no route matched counts under one label, whatever its URL.
      const route = request.routeOptions.url ?? 'unmatched';
      requests.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
      done();
    });
    new Gauge({
      name: 'porpoise_sockets_open',
      help: 'Live socket.io clients of this process',
      registers: [registry],
      collect() {
        this.set(app.realtime.clientCounts().total);
      },
    });
    const caches: Array<[string, CacheCounts]> = [
      ['lists', app.contentCache.lists],
      ['questions', app.contentCache.questions],
      ['tags', app.contentCache.tags],
    ];
    // The caches keep running totals; each scrape reports them as they stand.
    const counted = (name: string, help: string, of: (cache: CacheCounts) => number) =>
      new Counter({
        name,
        help,
        labelNames: ['cache'] as const,
        registers: [registry],
        collect() {
          this.reset();
          for (const [label, cache] of caches) this.inc({ cache: label }, of(cache));
        },
      });
    counted('porpoise_read_cache_hits_total', 'Reads answered from a read cache', (cache) => cache.hits);
    counted('porpoise_read_cache_misses_total', 'Reads that loaded from the database', (cache) => cache.loads);
    new Gauge({
      name: 'porpoise_read_cache_bytes',
      help: 'Bytes held by each read cache',
      labelNames: ['cache'] as const,
      registers: [registry],
      collect() {
        for (const [label, cache] of caches) this.set({ cache: label }, cache.bytes);
      },
    });
    const pool = app.database.pool;
    if (pool) {
      new Gauge({
        name: 'porpoise_db_pool_connections',
        help: 'PostgreSQL pool connections by state (open, idle) and queries waiting for one',
        labelNames: ['state'] as const,
        registers: [registry],
        collect() {
          const { total, idle, waiting } = pool();
          this.set({ state: 'open' }, total);
          this.set({ state: 'idle' }, idle);
          this.set({ state: 'waiting' }, waiting);
        },
      });
    }
    const flushCounts = app.database.flushCounts;
    if (flushCounts) {
      // Grouped commits (db/pglite-worker.ts): writes per flush is what grouping saves.
      new Counter({
        name: 'porpoise_embedded_wal_flushes_total',
        help: "The embedded database's WAL flushes (one fsync each), each answering the writes committed before it",
        registers: [registry],
        collect() {
          this.reset();
          this.inc(flushCounts().flushes);
        },
      });
      new Counter({
        name: 'porpoise_embedded_flushed_writes_total',
        help: 'Writes (commits and lone writing statements) the embedded database acknowledged after a WAL flush',
        registers: [registry],
        collect() {
          this.reset();
          this.inc(flushCounts().writes);
        },
      });
    }
    // What the other processes told this one (and what it published itself): a process that
    // stops counting while others write has stopped hearing them.
    const signals = new Counter({
      name: 'porpoise_signals_handled_total',
      help: 'Signals handled: cache invalidations (touched), view counts (viewed), whole-cache drops, sessions ended',
      labelNames: ['kind'] as const,
      registers: [registry],
    });
    const contentKind = (payload: string) =>
      payload.startsWith('{"touched"') ? 'touched' : payload.startsWith('{"viewed"') ? 'viewed' : 'dropAll';
    for (const kind of ['touched', 'viewed', 'dropAll', 'session']) signals.inc({ kind }, 0);
    app.signals.subscribe('porpoise_content', (payload) => {
      if (payload !== null) signals.inc({ kind: contentKind(payload) });
    });
    app.signals.subscribe('porpoise_session', (payload) => {
      if (payload !== null) signals.inc({ kind: 'session' });
    });
    const token = app.config.metricsToken;
    // Behind a proxy (TRUST_PROXY or PUBLIC_URL set) the proxy's connections come from the
    // loopback too, and a proxy may forward with no header we know: only the token opens.
    const proxied = app.config.trustProxy !== false || app.config.publicUrl !== undefined;
    const metrics: Metrics = {
      contentType: registry.contentType,
      render: () => registry.metrics(),
      // Loopback is the connection's own address with no proxy in between: a request a
      // proxy forwarded (any proxy header) needs the token, whatever address it names.
      allows: (request) =>
        (!proxied && isLoopback(request.raw.socket.remoteAddress ?? '') && !forwardedByProxy(request.headers)) ||
        (token !== undefined && bearerMatches(request, token)),
    };
    app.decorate('metrics', metrics);
  },
  { name: 'metrics', dependencies: ['read-cache', 'realtime', 'database', 'signals'] },
);
