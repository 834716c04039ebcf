// Runs one load measurement in its own process (so the load generator never shares an
// event loop with what it measures) and prints the result as JSON on stdout.
//
// As fast as answered: autocannon, each connection sending its next request when the last
// is answered. At a rate: autocannon would send each connection's quota for the second in
// one burst at the start of every second, so paced load is an open loop of our own: request
// i leaves at start + i / rate, spread evenly, and its latency counts from that moment
// (a server falling behind shows as latency, not as fewer requests).
import fs from 'node:fs';
import http from 'node:http';
import autocannon from 'autocannon';

interface LoadOptions {
  url: string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  headers?: Record<string, string>;
  /** Offered load in requests per second over all connections (default: as fast as answered). */
  rate?: number;
  /**
   * As fast as answered, each connection takes its own share of `requests` rather than the
   * whole list from its own offset: no request is sent twice while the list lasts, and a
   * long list is not built once per connection (the mix's 100,000 requests).
   */
  partition?: boolean;
  /**
   * Requests cycled per connection; each connection starts at a different offset. A `kind`
   * (the mix's) makes a paced run report its latencies by kind too.
   */
  requests?: Array<{
    method: 'GET' | 'POST' | 'PUT';
    path: string;
    body?: string;
    headers?: Record<string, string>;
    kind?: string;
  }>;
  /** A paced run reports each request's intended send time and latency too (`timeline`). */
  timeline?: boolean;
  /** Writes `measuring` to stderr when the measured run (after the warm-up) begins. */
  announce?: boolean;
}

/** A kind of request's share of a paced run: how many, p50 and p99 (ms from the intended send time). */
export interface KindLatency {
  count: number;
  p50: number;
  p99: number;
}

/** What one measurement prints (bench.ts reads it back). */
export interface LoadResult {
  rps: number;
  total: number;
  p50: number;
  p90: number;
  p97_5: number;
  p99: number;
  errors: number;
  non2xx: number;
  ok: number;
  /** Answers of the measured run by HTTP status ('error' for connection errors and timeouts). */
  byStatus: Record<string, number>;
  /** Latencies by the requests' `kind` (paced runs of kinded requests only). */
  byKind?: Record<string, KindLatency>;
  /** When the measured run started and ended (ms since the epoch), to match other counts against it. */
  startedAt: number;
  endedAt: number;
  /**
   * With `timeline` (paced runs): each request's intended send time (ms since the epoch),
   * latency (ms) and whether it was answered 2xx, in the order they were answered.
   */
  timeline?: Array<[number, number, boolean]>;
}

const now = () => performance.timeOrigin + performance.now();

/** p (0..1) of sorted values, nearest rank. */
const percentile = (sorted: number[], p: number) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);

// The options as JSON: the argument, or a file named by it after '@' (long request lists).
const argument = process.argv[2] ?? '{}';
const options = JSON.parse(
  argument.startsWith('@') ? fs.readFileSync(argument.slice(1), 'utf8') : argument,
) as LoadOptions;
const headers = { 'content-type': 'application/json', ...options.headers };

/**
 * Each connection starts its turn through the requests at its own share of the list, and
 * after `skip` requests of it (those the warm-up sent): with a list of different searches,
 * no two connections, and not the warm-up and the measured run, send the same one at
 * about the same time.
 */
function asFastAsAnswered(seconds: number, skip = 0): Promise<LoadResult> {
  let connection = 0;
  const startedAt = now();
  return autocannon({
    url: options.url,
    connections: options.connections,
    duration: seconds,
    headers,
    ...(options.requests
      ? {
          // Each connection builds every request of this list before setupClient gives it its
          // own: a partitioned list starts it with one.
          requests: options.partition ? options.requests.slice(0, 1) : options.requests,
          setupClient: (client: autocannon.Client) => {
            const all = options.requests!;
            const start = Math.floor((connection * all.length) / options.connections);
            const end = Math.floor((++connection * all.length) / options.connections);
            const list = options.partition ? all.slice(start, end) : all;
            const offset = ((options.partition ? 0 : start) + skip) % list.length;
            client.setRequests(
              [...list.slice(offset), ...list.slice(0, offset)].map(({ kind: _kind, ...request }) => request),
            );
          },
        }
      : {}),
  }).then((result) => ({
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ok: result['2xx'],
    byStatus: {
      ...Object.fromEntries(
        Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count ?? 0]),
      ),
      ...(result.errors + result.timeouts > 0 ? { error: result.errors + result.timeouts } : {}),
    },
    startedAt,
    endedAt: now(),
  }));
}

function paced(rate: number, seconds: number, skip = 0): Promise<LoadResult> {
  const url = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const requests: NonNullable<LoadOptions['requests']> = options.requests ?? [
    { method: 'GET', path: url.pathname + url.search },
  ];
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  const kindLatencies = new Map<string, number[]>();
  const timeline: Array<[number, number, boolean]> = [];
  const byStatus: Record<string, number> = {};
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let done = 0;
  const start = performance.now();
  const startedAt = now();
  return new Promise((resolve) => {
    const finish = (status: string) => {
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      if (++done < total) return;
      agent.destroy();
      latencies.sort((a, b) => a - b);
      const at = (p: number) => percentile(latencies, p);
      const byKind = Object.fromEntries(
        [...kindLatencies].map(([kind, values]) => {
          values.sort((a, b) => a - b);
          return [kind, { count: values.length, p50: percentile(values, 0.5), p99: percentile(values, 0.99) }];
        }),
      );
      resolve({
        rps: ok / ((performance.now() - start) / 1000),
        total,
        p50: at(0.5),
        p90: at(0.9),
        p97_5: at(0.975),
        p99: at(0.99),
        errors,
        non2xx,
        ok,
        byStatus,
        ...(kindLatencies.size > 0 ? { byKind } : {}),
        ...(options.timeline ? { timeline } : {}),
        startedAt,
        endedAt: now(),
      });
    };
    const send = (scheduled: number, request: (typeof requests)[number]) => {
      const outgoing = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: request.path,
          method: request.method,
          // A length, as autocannon sends: without it every body would go out chunked.
          headers: {
            ...headers,
            ...request.headers,
            ...(request.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(request.body)) }),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            const latency = performance.now() - scheduled;
            latencies.push(latency);
            if (request.kind !== undefined) {
              const list = kindLatencies.get(request.kind) ?? [];
              list.push(latency);
              kindLatencies.set(request.kind, list);
            }
            const answered = response.statusCode! >= 200 && response.statusCode! < 300;
            if (answered) ok++;
            else non2xx++;
            if (options.timeline) timeline.push([performance.timeOrigin + scheduled, latency, answered]);
            finish(String(response.statusCode));
          });
        },
      );
      outgoing.on('error', (error) => {
        // What went wrong, once (bench.ts prints it beside a row whose requests failed).
        if (errors === 0) process.stderr.write(`the first request that failed: ${error.message}\n`);
        errors++;
        if (options.timeline) timeline.push([performance.timeOrigin + scheduled, performance.now() - scheduled, false]);
        finish('error');
      });
      outgoing.end(request.body);
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + (sent * 1000) / rate <= now) {
        send(start + (sent * 1000) / rate, requests[(skip + sent) % requests.length]!);
        sent++;
      }
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
}

const warmup =
  options.warmupSeconds === 0
    ? null
    : options.rate
      ? await paced(options.rate, options.warmupSeconds)
      : await asFastAsAnswered(options.warmupSeconds);
if (options.announce) process.stderr.write('measuring\n');
// Past what the warm-up sent: paced, exactly; as fast as answered, past what it sent on the
// busiest connection (a fifth more than the average).
const result = options.rate
  ? await paced(options.rate, options.seconds, warmup?.total ?? 0)
  : await asFastAsAnswered(options.seconds, Math.ceil((1.2 * (warmup?.total ?? 0)) / options.connections));
// `ok` counts every 2xx answer of the warm-up and the measured run (writes check their effect).
process.stdout.write(JSON.stringify({ ...result, ok: result.ok + (warmup?.ok ?? 0) }));
