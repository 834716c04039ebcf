// A bystander for bench.ts's backup rows, in a process of its own (so the bench's own work, such
// as checking a backup file, never delays it): asks for one URL every `intervalMs`, one request
// at a time, until told to stop, then reports each request's send time and latency. A request
// that waits behind the embedded database's file copy shows as one long latency.
//
// Forked with an IPC channel: `tsx bench/poll-latency.ts URL INTERVAL_MS`; sends
// { type: 'ready' } after its first answer, and { type: 'samples', samples, failed } after
// { type: 'stop' }.
import http from 'node:http';

/** [sent at (ms since the epoch), latency (ms)] of one request. */
export type Sample = [number, number];

const [url, interval = '10'] = process.argv.slice(2);
if (url === undefined || !process.send) throw new Error('usage: fork poll-latency.ts URL INTERVAL_MS (with IPC)');
const intervalMs = Number(interval);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const samples: Sample[] = [];
let failed = 0;
let stopping = false;
const now = () => performance.timeOrigin + performance.now();

function ask(): Promise<boolean> {
  return new Promise((resolve) => {
    http
      .get(url!, { agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode === 200));
      })
      .on('error', () => resolve(false));
  });
}

process.on('message', (message: { type: string }) => {
  if (message.type === 'stop') stopping = true;
});
// The bench gone (it failed): nobody to report to.
process.on('disconnect', () => process.exit(0));

let first = true;
let next = performance.now();
while (!stopping) {
  const sent = now();
  const ok = await ask();
  samples.push([sent, now() - sent]);
  if (!ok) failed++;
  if (first) {
    process.send({ type: 'ready' });
    first = false;
  }
  // Every `intervalMs` from the last send; right away after a request that took longer.
  next = Math.max(next + intervalMs, performance.now());
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
}
agent.destroy();
process.send({ type: 'samples', samples, failed }, () => process.exit(0));
