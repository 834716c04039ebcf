// Runs one autocannon measurement in its own process (so the load generator never shares
// an event loop with what it measures) and prints the result as JSON on stdout.
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
  requests?: Array<{ method: 'GET' | 'POST'; path: string; body?: string }>;
}

const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
let connection = 0;
const run = (seconds: number) =>
  autocannon({
    url: options.url,
    connections: options.connections,
    duration: seconds,
    ...(options.rate ? { overallRate: options.rate } : {}),
    headers: { 'content-type': 'application/json', ...options.headers },
    ...(options.requests
      ? {
          requests: options.requests,
          setupClient: (client: autocannon.Client) => {
            const offset = connection++ % options.requests!.length;
            client.setRequests([...options.requests!.slice(offset), ...options.requests!.slice(0, offset)]);
          },
        }
      : {}),
  });

const warmup = options.warmupSeconds > 0 ? await run(options.warmupSeconds) : null;
const result = await run(options.seconds);
process.stdout.write(
  JSON.stringify({
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    // Every 2xx answer of the warm-up and the measured run (writes check their effect).
    ok: result['2xx'] + (warmup?.['2xx'] ?? 0),
  }),
);
