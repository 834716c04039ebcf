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
  /** Requests cycled per connection; each connection starts at a different offset. */
  requests?: Array<{ method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> }>;
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
}

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
  return autocannon({
    url: options.url,
    connections: options.connections,
    duration: seconds,
    headers,
    ...(options.requests
      ? {
          requests: options.requests,
          setupClient: (client: autocannon.Client) => {
            const length = options.requests!.length;
            const offset = (Math.floor((connection++ * length) / options.connections) + skip) % length;
            client.setRequests([...options.requests!.slice(offset), ...options.requests!.slice(0, offset)]);
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
  }));
}

function paced(rate: number, seconds: number): Promise<LoadResult> {
  const url = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const requests: NonNullable<LoadOptions['requests']> = options.requests ?? [
    { method: 'GET', path: url.pathname + url.search },
  ];
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let done = 0;
  const start = performance.now();
  return new Promise((resolve) => {
    const finish = () => {
      if (++done < total) return;
      agent.destroy();
      latencies.sort((a, b) => a - b);
      const at = (p: number) =>
        Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0);
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
            latencies.push(performance.now() - scheduled);
            if (response.statusCode! >= 200 && response.statusCode! < 300) ok++;
            else non2xx++;
            finish();
          });
        },
      );
      outgoing.on('error', () => {
        errors++;
        finish();
      });
      outgoing.end(request.body);
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + (sent * 1000) / rate <= now) {
        send(start + (sent * 1000) / rate, requests[sent % requests.length]!);
        sent++;
      }
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
}

const run = (seconds: number, skip = 0) =>
  options.rate ? paced(options.rate, seconds) : asFastAsAnswered(seconds, skip);
const warmup = options.warmupSeconds > 0 ? await run(options.warmupSeconds) : null;
// Past what the warm-up sent on the busiest connection (a fifth more than the average).
const result = await run(options.seconds, Math.ceil((1.2 * (warmup?.total ?? 0)) / options.connections));
// `ok` counts every 2xx answer of the warm-up and the measured run (writes check their effect).
process.stdout.write(JSON.stringify({ ...result, ok: result.ok + (warmup?.ok ?? 0) }));
