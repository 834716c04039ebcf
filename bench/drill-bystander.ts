// The attack drill's bystander: another client, on another address (127.0.0.2), in its own
// process (an attacker's work never delays its clock). It asks for /api/healthz and a question
// page, one request at a time each, until the drill says stop; then it reports every latency.
//
// Arguments: url, session cookie, question id. Messages: {type: 'phase'} starts a new
// measurement and {type: 'stop'} ends it; the answer is {type: 'latencies', healthz, page, errors}.
import http from 'node:http';

export const BYSTANDER_ADDRESS = '127.0.0.2';

/** What the bystander reports for one phase. */
export interface BystanderReport {
  type: 'latencies';
  healthz: number[];
  page: number[];
  /** Requests that failed or did not answer 200, by what happened. */
  errors: Record<string, number>;
}

const [url = '', cookie = '', qid = ''] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 2, localAddress: BYSTANDER_ADDRESS });

// Spaced so the bystander stays far inside the read limit (1,200 a minute per address).
const HEALTHZ_EVERY_MS = 50;
const PAGE_EVERY_MS = 250;
// A request that takes longer than this counts as failed (and its latency as this).
const GIVE_UP_MS = 10_000;

let report: BystanderReport = { type: 'latencies', healthz: [], page: [], errors: {} };
let running = false;

function get(path: string): Promise<{ ms: number; outcome: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.get(
      `${url}${path}`,
      { agent, headers: { cookie, 'accept-encoding': 'gzip' }, timeout: GIVE_UP_MS },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({
            ms: performance.now() - started,
            outcome: response.statusCode === 200 ? 'ok' : `HTTP ${response.statusCode}`,
          }),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error('no answer within 10 s')));
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ ms: performance.now() - started, outcome: error.code ?? error.message }),
    );
  });
}

/** Requests `path` every `everyMs` (or as soon as the last is answered) while the phase runs. */
async function measure(path: string, everyMs: number, into: number[]): Promise<void> {
  while (running) {
    const { ms, outcome } = await get(path);
    // A request still in flight when the phase ends counts too: a slow one is the point.
    into.push(ms);
    if (outcome !== 'ok') report.errors[`${path}: ${outcome}`] = (report.errors[`${path}: ${outcome}`] ?? 0) + 1;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - ms)));
  }
}

let loops: Array<Promise<void>> = [];

process.on('message', (message: { type?: string }) => {
  if (message.type === 'phase') {
    report = { type: 'latencies', healthz: [], page: [], errors: {} };
    running = true;
    loops = [
      measure('/api/healthz', HEALTHZ_EVERY_MS, report.healthz),
      measure(`/api/getQuestionById/${qid}`, PAGE_EVERY_MS, report.page),
    ];
  } else if (message.type === 'stop') {
    running = false;
    void Promise.all(loops).then(() => process.send?.(report));
  } else if (message.type === 'exit') {
    agent.destroy();
    process.exit(0);
  }
});
process.send?.({ type: 'ready' });
