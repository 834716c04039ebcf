// `npm run drill [-- --seconds 20] [--attacks 1,7]`: the attack drill. Starts the production server (built) on
// the embedded database, lets its startup memory settle, then runs issue 23's attacks one after
// another from one address (127.0.0.1), each for a bounded time, while a bystander on another
// address (127.0.0.2, its own process) times /api/healthz and a question page. Prints per
// attack whether the server survived, its peak RSS and the bystander's p99, and adds them to
// bench/results/ (bench/results.ts). Everything runs on loopback.
//
// DRILL_DATABASE_URL=postgres://... runs it on PostgreSQL instead.
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  ATTACKER_ADDRESS,
  bigPageVotes,
  nestedBodies,
  pollingHandshakeFlood,
  slowPosts,
  socketFrames,
  type Outcomes,
  uploadAttackImages,
  uploadFlood,
  type Target,
} from './drill-attacks.ts';
import { BYSTANDER_ADDRESS, type BystanderReport } from './drill-bystander.ts';
import { recordRun } from './results.ts';
import { repoRoot, startServer, type BenchServer } from './server-process.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    answers: { type: 'string', default: '200' },
    attacks: { type: 'string', default: '' },
  },
});
const SECONDS = Number(values.seconds);
/** `--attacks 2,7` runs only those items (after the bystander alone); all of them by default. */
const ONLY = new Set(values.attacks.split(',').filter(Boolean));
/** Item 4's page: a member's answers for a whole day (the daily cap), each at the 30,000-character limit. */
const BIG_PAGE_ANSWERS = Number(values.answers);
const PORT = 3906;
const TARGETS = { bystanderP99Ms: 100, rssGrowthMb: 300 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => console.log(line);

/** A JSON request from a chosen local address: its status, body and session cookie. */
function request(
  url: string,
  options: { from: string; method?: string; body?: unknown; cookie?: string },
): Promise<{ status: number; json: unknown; cookie: string | undefined }> {
  const body = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: options.method ?? (body ? 'POST' : 'GET'),
      localAddress: options.from,
      agent: false,
      timeout: 60_000,
      headers: {
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(body ? { 'content-type': 'application/json', 'content-length': body.length } : {}),
      },
    });
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let json: unknown = text;
        try {
          json = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        const cookie = response.headers['set-cookie']?.[0]?.split(';')[0];
        resolve({ status: response.statusCode ?? 0, json, cookie });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${url}: no answer within 60 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function signUp(url: string, from: string, username: string): Promise<string> {
  const response = await request(`${url}/api/account/addAccount`, {
    from,
    body: { username, email: `${username}@drill.example`, password: 'drill-password' },
  });
  if (response.status !== 200 || !response.cookie) throw new Error(`sign-up failed: ${response.status}`);
  return response.cookie;
}

async function ask(url: string, from: string, cookie: string, title: string, text: string): Promise<string> {
  const response = await request(`${url}/api/addQuestion`, {
    from,
    cookie,
    body: { title, text, tags: [{ name: 'drill' }] },
  });
  if (response.status !== 200) throw new Error(`asking failed: ${response.status} ${JSON.stringify(response.json)}`);
  return (response.json as { _id: string })._id;
}

const WORDS = ['socket', 'timeout', 'header', 'buffer', 'stream', 'parser', 'memory', 'query', 'cache', 'event'];
/** 30,000 characters of words in no repeating order (compresses like text, not like one letter). */
function longText(seed: number): string {
  let text = '';
  for (let i = seed; text.length < 30_000; i = (i * 1103515245 + 12345) % 2 ** 31) {
    text += `${WORDS[i % WORDS.length]} `;
  }
  return `${text.slice(0, 29_999).trim()}.`;
}

/** Item 4's setup: a member asks a question and answers it BIG_PAGE_ANSWERS times, each at the text limit. */
async function buildBigPage(url: string, cookie: string): Promise<string> {
  const qid = await ask(url, ATTACKER_ADDRESS, cookie, 'A very big question page', longText(1));
  for (let i = 0; i < BIG_PAGE_ANSWERS; i += 4) {
    await Promise.all(
      Array.from({ length: Math.min(4, BIG_PAGE_ANSWERS - i) }, async (_, j) => {
        const response = await request(`${url}/api/answer/addAnswer`, {
          from: ATTACKER_ADDRESS,
          cookie,
          body: { qid, ans: { text: longText(i + j + 2) } },
        });
        if (response.status !== 200) throw new Error(`answer failed: ${response.status}`);
      }),
    );
  }
  return qid;
}

/** Samples the server's memory and event-loop delay (over IPC) until stopped. */
function sampler(server: BenchServer) {
  let running = true;
  let peakRssMb = 0;
  let lowRssMb = Infinity;
  let loopDelayMaxMs = 0;
  const done = (async () => {
    while (running) {
      const metrics = await server.metrics();
      peakRssMb = Math.max(peakRssMb, metrics.rssMb);
      lowRssMb = Math.min(lowRssMb, metrics.rssMb);
      loopDelayMaxMs = Math.max(loopDelayMaxMs, metrics.eventLoopDelayMaxMs);
      await sleep(250);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      return { peakRssMb, lowRssMb, loopDelayMaxMs };
    },
  };
}

/**
 * Waits until the server's RSS has settled: 20 samples a second apart within 2% (at most 3
 * minutes). The idle figure is their mean; growth under attack is measured from it.
 */
async function settledRss(server: BenchServer): Promise<{ rssMb: number; seconds: number }> {
  const samples: number[] = [];
  const started = performance.now();
  for (;;) {
    samples.push((await server.metrics()).rssMb);
    const last = samples.slice(-20);
    const spread = Math.max(...last) - Math.min(...last);
    const seconds = (performance.now() - started) / 1000;
    if ((last.length === 20 && spread <= 0.02 * Math.min(...last)) || seconds > 180) {
      return { rssMb: last.reduce((a, b) => a + b, 0) / last.length, seconds };
    }
    await sleep(1_000);
  }
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const ms = (value: number) => (Number.isNaN(value) ? '-' : value < 10 ? value.toFixed(1) : value.toFixed(0));
const latencies = (values: number[]) =>
  `${ms(percentile(values, 50))} / ${ms(percentile(values, 99))} / ${ms(Math.max(...values))} (${values.length})`;

/** The bystander's process: measures while a phase runs. */
async function startBystander(url: string, cookie: string, qid: string) {
  const child: ChildProcess = fork(path.join(repoRoot, 'bench/drill-bystander.ts'), [url, cookie, qid], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve) => child.on('message', (m: { type: string }) => m.type === 'ready' && resolve()));
  return {
    start: () => child.send({ type: 'phase' }),
    stop: () =>
      new Promise<BystanderReport>((resolve) => {
        const onMessage = (message: BystanderReport) => {
          if (message.type !== 'latencies') return;
          child.off('message', onMessage);
          resolve(message);
        };
        child.on('message', onMessage);
        child.send({ type: 'stop' });
      }),
    exit: () => child.send({ type: 'exit' }),
  };
}

interface Row {
  attack: string;
  seconds: number;
  attacker: Outcomes;
  survived: boolean;
  peakRssMb: number;
  lowRssMb: number;
  loopDelayMaxMs: number;
  bystander: BystanderReport;
}

const ATTACKS: Array<{ name: string; seconds: number; run: (target: Target, ms: number) => Promise<Outcomes> }> = [
  { name: 'none (the bystander alone)', seconds: 10, run: async (_target, duration) => (await sleep(duration), {}) },
  { name: '1. anonymous polling handshakes, 64 at once', seconds: SECONDS, run: pollingHandshakeFlood },
  // Past the 30 s request timeout, so the server's own timeouts take part.
  { name: '2. slow POSTs, up to 2,000 connections, a byte every 5 s', seconds: Math.max(40, SECONDS), run: slowPosts },
  { name: '3. 1 MB and deeply nested socket frames, 16 sockets at once', seconds: SECONDS, run: socketFrames },
  {
    name: `4. a member votes on and reads a ${BIG_PAGE_ANSWERS}-answer page each second`,
    seconds: SECONDS,
    run: bigPageVotes,
  },
  { name: '6. anonymous 1 MB nested JSON bodies, 8 at once', seconds: SECONDS, run: nestedBodies },
  {
    name: '7. four members upload 5 MB and 40-megapixel images, 16 at once',
    seconds: SECONDS,
    run: uploadFlood(await uploadAttackImages()),
  },
];

const startedAt = new Date();
const loadAtStart = os.loadavg();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-drill-'));
const databaseUrl = process.env.DRILL_DATABASE_URL ?? '';
log(`attack drill: ${databaseUrl ? 'PostgreSQL' : 'embedded database'}, ${SECONDS} s per attack`);
// Production settings, except that posting limits are raised (RATE_LIMIT_MULTIPLIER) so the
// member builds item 4's page in seconds rather than over a day.
const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, RATE_LIMIT_MULTIPLIER: '1000' }, PORT);
const startup = sampler(server);
const rows: Row[] = [];
let settled = { rssMb: NaN, seconds: 0 };
let startupPeakMb = NaN;
try {
  const bystanderCookie = await signUp(server.url, BYSTANDER_ADDRESS, `bystander_${Date.now() % 1e6}`);
  const pageQid = await ask(server.url, BYSTANDER_ADDRESS, bystanderCookie, 'An ordinary question', 'Nothing much.');
  const memberCookie = await signUp(server.url, ATTACKER_ADDRESS, `member_${Date.now() % 1e6}`);
  log(`building item 4's page: ${BIG_PAGE_ANSWERS} answers of 30,000 characters...`);
  const bigQid = await buildBigPage(server.url, memberCookie);
  // Item 7's members: four, each holding at most 2 of the 8 upload places.
  const uploaderCookies: string[] = [];
  for (let i = 0; i < 4; i++)
    uploaderCookies.push(await signUp(server.url, ATTACKER_ADDRESS, `uploader${i}_${Date.now() % 1e6}`));
  const target: Target = { url: server.url, memberCookie, bigQid, uploaderCookies };
  log('waiting for the startup memory to settle...');
  settled = await settledRss(server);
  startupPeakMb = (await startup.stop()).peakRssMb;
  log(`RSS: ${startupPeakMb.toFixed(0)} MB at most while starting, settled at ${settled.rssMb.toFixed(0)} MB`);

  const bystander = await startBystander(server.url, bystanderCookie, pageQid);
  for (const attack of ATTACKS.filter(
    (a) => ONLY.size === 0 || a.name.startsWith('none') || ONLY.has(a.name.split('.')[0]!),
  )) {
    log(`\n${attack.name}: ${attack.seconds} s`);
    const sampling = sampler(server);
    bystander.start();
    const attacker = await attack.run(target, attack.seconds * 1000);
    const report = await bystander.stop();
    const { peakRssMb, lowRssMb, loopDelayMaxMs } = await sampling.stop();
    const health = await request(`${server.url}/api/healthz`, { from: BYSTANDER_ADDRESS }).catch(() => ({ status: 0 }));
    const row = {
      attack: attack.name,
      seconds: attack.seconds,
      attacker,
      survived: server.child.exitCode === null && health.status === 200,
      peakRssMb,
      lowRssMb,
      loopDelayMaxMs,
      bystander: report,
    };
    rows.push(row);
    log(`  attacker saw: ${JSON.stringify(attacker)}`);
    log(
      `  survived: ${row.survived ? 'yes' : 'NO'}; peak RSS ${peakRssMb.toFixed(0)} MB; healthz p50/p99/max ${latencies(report.healthz)}; page ${latencies(report.page)}`,
    );
    // What the attack left (sessions, connections) is let go before the next one.
    await sleep(6_000);
  }
  bystander.exit();
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

writeReport();

function writeReport() {
  const idle = settled.rssMb;
  const verdict = (row: Row) => {
    const p99 = Math.max(percentile(row.bystander.healthz, 99), percentile(row.bystander.page, 99));
    const misses = [
      row.survived ? '' : 'did not survive',
      p99 <= TARGETS.bystanderP99Ms ? '' : `bystander p99 ${ms(p99)} ms`,
      row.peakRssMb - idle <= TARGETS.rssGrowthMb ? '' : `RSS +${(row.peakRssMb - idle).toFixed(0)} MB`,
    ].filter(Boolean);
    return misses.length === 0 ? 'met' : `missed: ${misses.join(', ')}`;
  };
  const outcomes = (attacker: Outcomes) =>
    Object.entries(attacker)
      .sort((a, b) => b[1] - a[1])
      .map(([outcome, count]) => `${outcome}: ${count.toLocaleString('en')}`)
      .join('; ') || '-';
  const errors = (report: BystanderReport) =>
    Object.entries(report.errors)
      .map(([what, count]) => `${what} x${count}`)
      .join(', ') || 'none';
  const table = [
    '| attack (from 127.0.0.1) | s | survived | peak RSS MB (over idle) | loop delay max ms | bystander healthz p50 / p99 / max ms (n) | bystander page p50 / p99 / max ms (n) | bystander errors | targets |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.attack} | ${row.seconds} | ${row.survived ? 'yes' : 'NO'} | ${row.peakRssMb.toFixed(0)} (${row.peakRssMb >= idle ? '+' : ''}${(row.peakRssMb - idle).toFixed(0)}) | ${ms(row.loopDelayMaxMs)} | ${latencies(row.bystander.healthz)} | ${latencies(row.bystander.page)} | ${errors(row.bystander)} | ${verdict(row)} |`,
    ),
  ].join('\n');
  const report = `## ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, attack drill (${databaseUrl ? 'PostgreSQL' : 'embedded database'})

Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, load average ${loadAtStart.map((l) => l.toFixed(1)).join(' ')} at the start (the machine is shared).
\`npm run drill\`: the built server with production settings (posting limits raised so that item 4's member builds the page at once); attacks from 127.0.0.1, one after another; a bystander on 127.0.0.2, in its own process, asks for /api/healthz every 50 ms and an ordinary question page every 250 ms, one request at a time each. Targets: the server survives every attack, the bystander's p99 at most ${TARGETS.bystanderP99Ms} ms, RSS at most ${TARGETS.rssGrowthMb} MB over the idle server. Startup: RSS at most ${startupPeakMb.toFixed(0)} MB while starting and building item 4's page, settled at ${idle.toFixed(0)} MB after ${settled.seconds.toFixed(0)} s (the idle figure); the lowest seen during the attacks ${Math.min(...rows.map((row) => row.lowRssMb)).toFixed(0)} MB.

${table}

What the attacker saw:

${rows.map((row) => `- ${row.attack}: ${outcomes(row.attacker)}`).join('\n')}
`;
  log(`\n${report}`);
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).stdout.trim();
  recordRun(repoRoot, {
    run: `npm run drill, ${databaseUrl ? 'PostgreSQL' : 'embedded database'}`,
    date: startedAt,
    commit,
    figures: [
      { row: 'idle server RSS (settled after startup)', figure: idle.toFixed(0), unit: 'MB' },
      ...rows.flatMap((row) => [
        { row: row.attack, figure: row.survived ? 'yes' : 'NO', unit: 'survived' },
        { row: row.attack, figure: (row.peakRssMb - idle).toFixed(0), unit: 'peak RSS over idle MB' },
        { row: row.attack, figure: ms(row.loopDelayMaxMs), unit: 'loop delay max ms' },
        { row: row.attack, figure: ms(percentile(row.bystander.healthz, 99)), unit: 'bystander healthz p99 ms' },
        { row: row.attack, figure: ms(percentile(row.bystander.page, 99)), unit: 'bystander page p99 ms' },
      ]),
    ],
  });
}
