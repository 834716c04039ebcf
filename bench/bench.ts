// `npm run bench [-- --questions 1000000] [--rows mix,mix-pglite]`: seeds benchmark data on
// PostgreSQL, starts the production server and a bare Fastify hello-world in the same run,
// drives each with autocannon from a separate process, and prints (and writes to
// bench/results/, see bench/results.ts) one table: endpoint, req/s, p50, p99, and req/s as a ratio of
// hello-world. It also measures socket fan-out, server memory, the embedded default
// (PGlite), the web app's initial JavaScript and the community-day mix (bench/mix.ts) on
// PostgreSQL, PGlite and a cluster of two processes; and backups and restores beside it (issue 38).
import { execFile, fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { backupConfigured, restoreConfigured } from '../apps/server/src/backup/run.ts';
import type { BackupHeader } from '../apps/server/src/backup/header.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows, type Db } from '../apps/server/src/db/client.ts';
import { benchSize, seedCommunity, seedTagNames, WORDS } from '../apps/server/src/seed/community.ts';
import { progressPrinter } from '../apps/server/src/seed/progress.ts';
import { describeInitialPage, measureInitialPage, type InitialPage } from './initial-page.ts';
import { FOOTPRINT_TARGETS, footprintRows, IDLE_MS, measureFootprint, memoryOf } from './footprint.ts';
import { lighthouseRows, measureLighthouse } from './lighthouse.ts';
import { markdownAnswer, MARKDOWN_QUESTION_TEXT } from './markdown-posts.ts';
import { LIMITS, ORDERS } from '@porpoise/core';
import type { LoadResult } from './load.ts';
import type { Sample } from './poll-latency.ts';
import { memberSessions, MIX, MIX_MEMBERS, mixRequests, READS_ONLY, socketPages, type MixWorld } from './mix.ts';
import { recordRun, type Figure } from './results.ts';
import { postJson, repoRoot, signUp, startServer, type BenchServer } from './server-process.ts';

const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    questions: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    pairs: { type: 'string', default: '3' },
    /** Row groups to measure, comma-separated (ROW_GROUPS); all of them by default. */
    rows: { type: 'string' },
    'skip-pglite': { type: 'boolean', default: false },
    'pglite-only': { type: 'boolean', default: false },
    'seed-only': { type: 'boolean', default: false },
    /**
     * Another checkout, built (a worktree of an earlier commit): each server block is measured
     * on its build, then on this one's, one after the other in this run; the report pairs the
     * rows. Its rows are labelled `before`, this checkout's `after`.
     */
    against: { type: 'string' },
    /** With --against: this checkout's build first in each block, then DIR's (to see what the order does). */
    'after-first': { type: 'boolean', default: false },
  },
});
/**
 * The bench's row groups: `pg`, each read, fan-out and write measured alone on PostgreSQL;
 * `pglite`, the embedded database's list and writes; `mix`, the community-day mix on
 * PostgreSQL (bench/mix.ts); `mix-pglite`, the mix on the embedded database (100k
 * questions); `mix-cluster`, the mix on PostgreSQL served by `npm run start:cluster`'s 2
 * processes; `mix-scale`, the mix at 100k and 1M questions side by side (issue 39,
 * measureMixScale); `backup`, backups and restores on both databases at --questions, and the mix's
 * p99 with a backup running beside it (issue 38, measureBackups); `lighthouse`, Lighthouse's mobile
 * audit of five pages on the demo community (issue 39, bench/lighthouse.ts); `footprint`, the
 * embedded server's memory on a new data directory and started again (issue 39, bench/footprint.ts).
 */
const ROW_GROUPS = [
  'pg',
  'pglite',
  'mix',
  'mix-pglite',
  'mix-cluster',
  'mix-scale',
  'backup',
  'lighthouse',
  'footprint',
] as const;
type RowGroup = (typeof ROW_GROUPS)[number];
const groups = new Set<RowGroup>(
  values['pglite-only']
    ? ['pglite']
    : values.rows === undefined
      ? ROW_GROUPS
      : values.rows.split(',').map((name) => {
          const group = name.trim() as RowGroup;
          if (!ROW_GROUPS.includes(group)) {
            console.error(`--rows takes a comma-separated list of ${ROW_GROUPS.join(', ')} (got ${name})`);
            process.exit(2);
          }
          return group;
        }),
);
if (values['skip-pglite']) {
  groups.delete('pglite');
  groups.delete('mix-pglite');
}
const QUESTIONS = Number(values.questions);
/** The mix-scale rows' two sizes: 100k, and --questions when larger, else 1M. */
const SCALE_SIZES = [100_000, QUESTIONS > 100_000 ? QUESTIONS : 1_000_000] as const;
const SECONDS = Number(values.seconds);
const PAIRS = Math.max(1, Number(values.pairs));
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const rows: string[][] = [];
/** The run's figures for bench/results/runs.csv, each under a row name that stays from run to run. */
const figures: Figure[] = [];
/** The bare Fastify yardstick (bench/hello-server.ts). */
const HELLO_URL = 'http://127.0.0.1:3901/hello';
/** What Chromium sends, on 64 connections; each mix request carries its member's cookie. */
const LOAD_BASE = {
  connections: 64,
  seconds: SECONDS,
  warmupSeconds: 3,
  headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
};
let mixSeed = Date.now() % 1_000_000_000;

const notes: string[] = [];
/** Correctness checks that failed (the run exits 1 after its report). */
const failedChecks: string[] = [];
/** What /home downloads, as served; measured on the first server the run starts. */
let initialPage: InitialPage | null = null;
/**
 * Every client runs on this machine: 5,000 idle sockets (or 1,000 fan-out or mix sockets)
 * and the load's connections share one address, so the per-address caps (connections and
 * socket.io clients) are raised above them.
 */
const LOOPBACK_CAPS = { CONNECTIONS_PER_ADDRESS: '8000', SOCKETS_PER_ADDRESS: '8000' };
const log = (line: string) => console.log(line);

async function load(options: object): Promise<LoadResult> {
  // Through a file: a list of requests can be longer than one command-line argument may be.
  const file = path.join(os.tmpdir(), `porpoise-bench-load-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(options));
  try {
    const { stdout, stderr } = await run(tsx, [path.join(repoRoot, 'bench/load.ts'), `@${file}`], {
      maxBuffer: 1 << 24,
    });
    const result = JSON.parse(stdout) as LoadResult;
    if (result.errors > 0 && stderr.trim()) log(`  (load: ${stderr.trim()})`);
    return result;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** One query on a short-lived connection (the bench checks what the server stored). */
async function adminQuery<Row extends object = { n: number }>(url: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Every run adds tens of thousands of answers, each rewriting its question's row. Where
 * autovacuum is off (as on this project's machine) nothing would reclaim the dead rows or
 * refresh the statistics between runs, and each run would measure the last one's leftovers:
 * the bench does what autovacuum would, and says so.
 */
async function vacuumWhereAutovacuumIsOff(url: string) {
  const [autovacuum] = await adminQuery<{ autovacuum: string }>(url, 'show autovacuum');
  if (autovacuum?.autovacuum === 'on') return;
  log(`autovacuum is off on this PostgreSQL: VACUUM ANALYZE ${new URL(url).pathname.slice(1)} before measuring...`);
  await adminQuery(url, 'vacuum analyze');
  const note =
    'autovacuum is off on this PostgreSQL server: the bench ran VACUUM ANALYZE on its database before measuring, as autovacuum would have between runs (Porpoise expects autovacuum on, the default).';
  if (!notes.includes(note)) notes.push(note);
}

async function ensureDatabase(name: string, questions: number): Promise<string> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await admin.connect();
  } catch (error) {
    console.error(
      `npm run bench needs PostgreSQL at ${ADMIN_URL} (set BENCH_DATABASE_URL): ${(error as Error).message}`,
    );
    process.exit(2);
  }
  const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
  if (exists.rowCount === 0) await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const config = loadConfig({});
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), migrationsDir: config.migrationsDir });
  const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from questions`);
  if ((row?.n ?? 0) < questions) {
    log(`seeding ${questions} questions into ${name} (once; later runs reuse it)...`);
    const started = performance.now();
    await seedCommunity(database.db, benchSize(questions - (row?.n ?? 0)), {
      prefix: 'bench_user_',
      password: 'bench-password',
      onProgress: progressPrinter(process.stderr),
    });
    log(`  seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  await database.close();
  return url.toString();
}

/**
 * The embedded database's directory with `questions` questions (100k unless the backup rows
 * ask for --questions; seeded once, kept in the temp dir).
 */
async function ensureEmbeddedData(questions = 100_000): Promise<string> {
  const dataDir = path.join(os.tmpdir(), `porpoise-bench-v3-pglite-${questions}`);
  if (!fs.existsSync(path.join(dataDir, 'seeded'))) {
    log(`\nseeding the embedded database with ${questions} questions (once)...`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    const config = loadConfig({});
    const database = await openDatabase({ kind: 'pglite', dataDir, migrationsDir: config.migrationsDir });
    await seedCommunity(database.db, benchSize(questions), {
      prefix: 'bench_user_',
      password: 'bench-password',
      onProgress: progressPrinter(process.stderr),
    });
    await database.close();
    fs.writeFileSync(path.join(dataDir, 'seeded'), 'yes');
  }
  return dataDir;
}

/**
 * The write rows' load: new answers from 64 new members over 200 questions spread across
 * the id range (as in a community: one member answering a thousand times a second would
 * only wait on their own rate-limit counter).
 */
async function answerWrites(server: BenchServer, questions: number) {
  const qids = Array.from({ length: 200 }, (_, i) => String(1 + Math.floor((i * questions) / 200)));
  const writers: string[] = [];
  for (let i = 0; i < 64; i++) writers.push(await signUp(server.url, `bench_w${Date.now()}_${i}`));
  const requests = Array.from({ length: 1600 }, (_, i) => ({
    method: 'POST',
    path: '/api/answer/addAnswer',
    body: JSON.stringify({ qid: qids[i % qids.length], ans: { text: 'bench write' } }),
    headers: { cookie: writers[i % writers.length]! },
  }));
  return { qids, requests };
}

/** A question with 10 answers and 20 comments, for the question-page measurement. */
async function richQuestion(server: BenchServer, cookie: string): Promise<string> {
  const asked = await postJson(`${server.url}/api/addQuestion`, cookie, {
    title: 'Bench question with many answers',
    text: 'Bench text',
    tags: [{ name: 'bench' }],
  });
  const qid = ((await asked.json()) as { _id: string })._id;
  for (let i = 0; i < 10; i++) {
    const answered = await postJson(`${server.url}/api/answer/addAnswer`, cookie, {
      qid,
      ans: { text: `Bench answer ${i}` },
    });
    const aid = ((await answered.json()) as { _id: string })._id;
    await postJson(`${server.url}/api/comment/addComment`, cookie, {
      id: aid,
      type: 'answer',
      comment: { text: 'bench comment' },
    });
    await postJson(`${server.url}/api/comment/addComment`, cookie, {
      id: qid,
      type: 'question',
      comment: { text: 'bench comment' },
    });
  }
  return qid;
}

/** A question with 10 long Markdown answers full of code (bench/markdown-posts.ts). */
async function markdownQuestion(server: BenchServer, cookie: string): Promise<{ qid: string; characters: number }> {
  const asked = await postJson(`${server.url}/api/addQuestion`, cookie, {
    title: 'Bench question with long Markdown answers',
    text: MARKDOWN_QUESTION_TEXT,
    tags: [{ name: 'bench' }],
  });
  const qid = ((await asked.json()) as { _id: string })._id;
  let characters = MARKDOWN_QUESTION_TEXT.length;
  for (let i = 0; i < 10; i++) {
    const text = markdownAnswer(i);
    const answered = await postJson(`${server.url}/api/answer/addAnswer`, cookie, { qid, ans: { text } });
    if (!answered.ok) throw new Error(`Markdown answer ${i}: ${answered.status} ${await answered.text()}`);
    characters += text.length;
  }
  return { qid, characters };
}

/** A load's req/s, p50 and p99 as figures of `row`. */
function loadFigures(row: string, result: LoadResult): Figure[] {
  return [
    { row, figure: result.rps.toFixed(0), unit: 'req/s' },
    { row, figure: result.p50, unit: 'p50 ms' },
    { row, figure: result.p99, unit: 'p99 ms' },
  ];
}

/**
 * A table row; the ratio is against the hello-world measured next to it (given with it).
 * `ratios` lists every side-by-side pair's ratio when the row is the median of several;
 * `shown` is the table's label when it carries figures of its own.
 */
function row(
  label: string,
  result: LoadResult,
  hello: LoadResult,
  target: string,
  ratios: number[] = [],
  failed: number | string = result.non2xx + result.errors,
  shown = label,
) {
  const ratio = result.rps / hello.rps;
  figures.push(...loadFigures(label, result), { row: label, figure: ratio.toFixed(2), unit: 'x hello-world' });
  const pairs = ratios.length > 1 ? ` (median of ${ratios.map((each) => each.toFixed(2)).join(', ')})` : '';
  rows.push([
    shown,
    result.rps.toFixed(0),
    `${result.p50}`,
    `${result.p99}`,
    `${ratio.toFixed(2)}x of ${hello.rps.toFixed(0)}${pairs}`,
    target,
    typeof failed === 'string' ? failed : failed > 0 ? `${failed} failed` : '',
  ]);
  log(
    `  ${shown}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${ratio.toFixed(2)}x hello-world${failed ? `; not 2xx: ${failed}` : ''}`,
  );
}

/** Waits for a socket process (bench/fanout-clients.ts) to have every socket connected; fails if it exits first. */
function socketsReady(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    child.on('message', (m: { type: string }) => m.type === 'ready' && resolve());
    child.once('exit', (code) => reject(new Error(`the socket process exited (${code}) before its sockets connected`)));
  });
}

/**
 * N sockets in another process; the time from the answer request to the slowest client's
 * answerUpdate. `wire`: the clients note each frame as it arrives, before decoding it
 * (bench/fanout-clients.ts says why); otherwise they are socket.io-client instances.
 */
async function fanout(
  server: BenchServer,
  cookie: string,
  qid: string,
  clients: number,
  samples: number,
  clientKind: 'socket.io-client' | 'wire',
) {
  const mode = clientKind === 'wire' ? 'fanout-wire' : 'fanout';
  const child = fork(path.join(repoRoot, 'bench/fanout-clients.ts'), [server.url, String(clients), cookie, mode, qid], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await socketsReady(child);
  const latencies: number[] = [];
  const firsts: number[] = [];
  // Arrivals are noted as they come: the last client can have the event before the
  // answer's HTTP response has been read here.
  const arrived = new Map<string, { first: number; slowest: number }>();
  let onArrival: (() => void) | undefined;
  child.on('message', (m: { type: string; id?: string; first?: number; slowest?: number }) => {
    if (m.type !== 'arrived' || m.id === undefined) return;
    arrived.set(m.id, { first: m.first ?? 0, slowest: m.slowest ?? 0 });
    onArrival?.();
  });
  for (let i = 0; i < samples; i++) {
    const sent = performance.timeOrigin + performance.now();
    const response = await postJson(`${server.url}/api/answer/addAnswer`, cookie, {
      qid,
      ans: { text: `fan-out ${i}` },
    });
    const id = ((await response.json()) as { _id: string })._id;
    while (!arrived.has(id)) await new Promise<void>((resolve) => (onArrival = resolve));
    const { first, slowest } = arrived.get(id)!;
    latencies.push(slowest - sent);
    firsts.push(first - sent);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.send({ type: 'stop' });
  await new Promise((resolve) => child.once('exit', resolve));
  // Nearest rank: p99 of 100 answers is the 99th slowest, not the single worst.
  const at = (values: number[], p: number) =>
    [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(p * values.length) - 1)]!;
  return { p50: at(latencies, 0.5), p99: at(latencies, 0.99), max: Math.max(...latencies), firstP50: at(firsts, 0.5) };
}

async function idleSockets(server: BenchServer, cookie: string, clients: number) {
  const before = await server.metrics();
  const child = fork(path.join(repoRoot, 'bench/fanout-clients.ts'), [server.url, String(clients), cookie, 'idle'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await socketsReady(child);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const after = await server.metrics();
  child.send({ type: 'stop' });
  await new Promise((resolve) => child.once('exit', resolve));
  return { before: before.rssMb, after: after.rssMb };
}

/**
 * The cursor of the home list's page `depth` questions down in newest order (or the
 * deepest there is), reached as the web app reaches it: by following X-Next-Cursor from
 * the first page. Offsets stop at 1,000; a cursor page is never cached, so the row
 * measures the keyset query itself.
 */
async function cursorAt(
  server: BenchServer,
  cookie: string,
  depth: number,
): Promise<{ cursor: string; depth: number }> {
  let cursor = '';
  let reached = 0;
  while (reached < depth) {
    const url = `${server.url}/api/getQuestion?order=newest&limit=100${cursor ? `&cursor=${cursor}` : ''}`;
    const next = (await fetch(url, { headers: { cookie } })).headers.get('x-next-cursor');
    if (next === null) break;
    cursor = next;
    reached += 100;
  }
  return { cursor, depth: reached };
}

async function timeToList(server: BenchServer, cookie: string): Promise<{ first: number; median: number }> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    // Five visits, each in a fresh context (nothing cached): the first in a just-started
    // browser pays for starting its renderer too, so the median is the figure.
    const times: number[] = [];
    for (let visit = 0; visit < 5; visit++) {
      const context = await browser.newContext({ baseURL: server.url });
      const [name, value] = cookie.split('=');
      await context.addCookies([{ name: name!, value: value!, url: server.url }]);
      // The page notes when the first question row is in the document, and the frame
      // that draws it has run: its time since navigation started is the paint time.
      // (Polling from here would add up to half a second: Playwright's waits back off to
      // 500 ms between checks.)
      await context.addInitScript({
        content: `
          const observer = new MutationObserver(() => {
            if (document.querySelector('.q-row') === null) return;
            observer.disconnect();
            requestAnimationFrame(() => setTimeout(() => { window.listPaintedAt = performance.now(); }));
          });
          observer.observe(document, { childList: true, subtree: true });`,
      });
      const page = await context.newPage();
      await page.goto('/home');
      // A function, not a string: the app's CSP forbids evaluating strings.
      const painted = await page.waitForFunction(
        () => (globalThis as unknown as { listPaintedAt?: number }).listPaintedAt,
        undefined,
        { timeout: 30_000 },
      );
      times.push((await painted.jsonValue()) as number);
      await context.close();
    }
    return { first: times[0]!, median: [...times].sort((a, b) => a - b)[2]! };
  } finally {
    await browser.close();
  }
}

/**
 * The builds measured: this checkout's alone, or with --against another's first ('before')
 * and this one's ('after'), each server block on both in turn so that both meet the same
 * hour of this machine (the later one on a database grown by the earlier one's writes).
 */
const sides = values.against
  ? [
      { name: 'before', root: path.resolve(values.against) },
      { name: 'after', root: repoRoot },
    ]
  : [{ name: '', root: repoRoot }];
if (values['after-first']) sides.reverse();
for (const side of sides) {
  if (!fs.existsSync(path.join(side.root, 'apps/server/dist/server.js'))) {
    console.error(`${side.root} has no build: run npm run build there first`);
    process.exit(2);
  }
}

/** Prefixes the rows, figures and notes added since `start` with the build they measured. */
function labelSince(start: { rows: number; figures: number; notes: number }, name: string) {
  for (const each of rows.slice(start.rows)) each[0] = `${name}: ${each[0]}`;
  for (const each of figures.slice(start.figures)) each.row = `${name}: ${each.row}`;
  for (let index = start.notes; index < notes.length; index += 1) notes[index] = `${name}: ${notes[index]}`;
}

/**
 * With --against: each row measured on both builds, side by side: req/s, p99, and req/s as a
 * ratio of the hello-world run beside it (from the table's req/s cells, not its rounded
 * ratios), then after's ratio over before's.
 */
function comparisonTable(): string {
  // The table's ratios, to two decimals, are too coarse for the slower rows: recomputed.
  const exactRatio = (cells: string[]) => {
    const hello = /x of (\d+)/.exec(cells[4] ?? '');
    return hello ? Number(cells[1]) / Number(hello[1]) : undefined;
  };
  const lines = [
    '| row | before req/s | after req/s | before p99 ms | after p99 ms | before / hello-world | after / hello-world | after ÷ before |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const before of rows.filter((each) => each[0]!.startsWith('before: '))) {
    const name = before[0]!.slice('before: '.length);
    const after = rows.find((each) => each[0] === `after: ${name}`);
    if (!after) continue;
    const [was, now] = [exactRatio(before), exactRatio(after)];
    const shown = (ratio: number | undefined) => (ratio === undefined ? '' : ratio.toPrecision(3));
    const change = was && now ? (now / was).toFixed(2) : '';
    lines.push(
      `| ${name} | ${before[1]} | ${after[1]} | ${before[3]} | ${after[3]} | ${shown(was)} | ${shown(now)} | ${change} |`,
    );
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------
const started = new Date();
const usesPostgres = groups.has('pg') || groups.has('mix') || groups.has('mix-cluster') || groups.has('backup');
// v3: the seed draws each question's tags and views per question; a new seed makes a new database.
const databaseName = `porpoise_bench_v3_${QUESTIONS}`;
let databaseUrl = '';
if (usesPostgres) {
  databaseUrl = await ensureDatabase(databaseName, QUESTIONS);
  await vacuumWhereAutovacuumIsOff(databaseUrl);
}
if (values['seed-only']) {
  if (groups.has('mix-scale')) {
    for (const questions of SCALE_SIZES) await ensureDatabase(`porpoise_bench_v3_${questions}`, questions);
  }
  if (groups.has('pglite') || groups.has('mix-pglite')) await ensureEmbeddedData();
  if (groups.has('backup')) await ensureEmbeddedData(QUESTIONS);
  process.exit(0);
}

const hello = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'bench/hello-server.ts')], {
  env: { ...process.env, PORT: '3901' },
  stdio: 'inherit',
});
try {
  for (let waited = 0; waited < 20_000; waited += 200) {
    try {
      if ((await fetch(HELLO_URL)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const postgresEnv = { DATABASE_URL: databaseUrl, RATE_LIMIT_MULTIPLIER: '1000000', ...LOOPBACK_CAPS };
  const blocks: Array<(root: string) => Promise<void>> = [];
  if (groups.has('pg') || groups.has('mix')) {
    blocks.push(async (root) => {
      const server = await startServer(postgresEnv, 3902, [], root);
      try {
        initialPage ??= await measureInitialPage(server.url);
        if (groups.has('pg')) await measurePostgres(server);
        if (groups.has('mix')) {
          await measureMix(`PostgreSQL, ${QUESTIONS.toLocaleString('en-US')} questions`, server, {
            members: await postgresMembers(),
            questions: QUESTIONS,
          });
        }
      } finally {
        await server.stop();
      }
    });
  }
  if (groups.has('mix-cluster')) {
    blocks.push(async (root) => {
      // As `npm run start:cluster` starts it: two processes sharing the port.
      const server = await startServer({ ...postgresEnv, WORKERS: '2' }, 3904, ['--cluster'], root);
      try {
        initialPage ??= await measureInitialPage(server.url);
        await measureMix(`cluster of 2, PostgreSQL, ${QUESTIONS.toLocaleString('en-US')} questions`, server, {
          members: await postgresMembers(),
          questions: QUESTIONS,
        });
      } finally {
        await server.stop();
      }
    });
  }
  if (groups.has('mix-scale')) blocks.push((root) => measureMixScale(root));
  if (groups.has('pglite') || groups.has('mix-pglite')) blocks.push((root) => measureEmbedded(root));
  if (groups.has('backup')) {
    blocks.push(async (root) => {
      // The backup and restore code is this checkout's (imported here), so is the server's.
      if (root !== repoRoot) log(`\nbackup rows: measured on this checkout only, not on ${root}`);
      else await measureBackups(postgresEnv);
    });
  }
  const addRows = (measured: { rows: string[][]; figures: Figure[] }) => {
    rows.push(...measured.rows);
    figures.push(...measured.figures);
  };
  if (groups.has('lighthouse')) {
    blocks.push(async (root) => addRows(lighthouseRows(await measureLighthouse(root, log))));
  }
  if (groups.has('footprint')) {
    blocks.push(async (root) => {
      addRows(footprintRows(await measureFootprint(root, log)));
      await measureFootprintUnderMix(root);
    });
  }
  for (const block of blocks) {
    for (const side of sides) {
      const before = { rows: rows.length, figures: figures.length, notes: notes.length };
      if (side.name !== '') {
        log(`\n[${side.name}: ${side.root}]`);
        initialPage = null;
      }
      await block(side.root);
      if (side.name !== '') {
        if (initialPage) notes.push(describeInitialPage(initialPage));
        initialPage = null;
        labelSince(before, side.name);
      }
    }
  }
} finally {
  hello.kill('SIGTERM');
}
writeReport();
// A check that failed (a restore that lost questions) fails the run; a missed target does not.
process.exit(failedChecks.length > 0 ? 1 : 0);

/** The PostgreSQL rows: each read alone, search, socket fan-out, idle sockets, writes, the first paint. */
async function measurePostgres(server: BenchServer) {
  const cookie = await signUp(server.url, `bench_${Date.now()}`);
  // What Chromium sends: the cached list and question pages go out gzipped to browsers.
  const headers = { cookie, 'accept-encoding': 'gzip, deflate, br, zstd' };
  const base = { connections: 64, seconds: SECONDS, warmupSeconds: 3, headers };
  log(`\nPostgreSQL, ${QUESTIONS} questions, 64 connections, ${SECONDS} s each after a 3 s warm-up`);
  const helloLoad = await load({ ...base, url: HELLO_URL });
  rows.push([
    'hello-world (bare Fastify)',
    helloLoad.rps.toFixed(0),
    `${helloLoad.p50}`,
    `${helloLoad.p99}`,
    `1.00x of ${helloLoad.rps.toFixed(0)}`,
    'yardstick',
    '',
  ]);
  figures.push(...loadFigures('hello-world (bare Fastify)', helloLoad));
  log(`  hello-world: ${helloLoad.rps.toFixed(0)} req/s`);
  const api = (p: string) => `${server.url}${p}`;
  // This machine's speed drifts within a run (the same list measured 24,000 req/s and then
  // 10,000 a minute later, hello-world 42,000 and 58,000 in one run): each measurement
  // comes right after a hello-world of its own, and a row with a ratio target is the
  // median of PAIRS such pairs (the row shows that pair's figures and lists every ratio).
  const besideHello = async (
    label: string,
    options: object,
    target: string,
    pairs = PAIRS,
    shown: (result: LoadResult) => string = () => label,
  ) => {
    const measured: Array<{ hello: LoadResult; result: LoadResult; ratio: number }> = [];
    for (let i = 0; i < pairs; i++) {
      const hello = await load({ ...base, url: HELLO_URL });
      const result = await load(options);
      measured.push({ hello, result, ratio: result.rps / hello.rps });
    }
    const failed = measured.reduce((sum, { result }) => sum + result.non2xx + result.errors, 0);
    const median = [...measured].sort((a, b) => a.ratio - b.ratio)[Math.floor(pairs / 2)]!;
    row(
      label,
      median.result,
      median.hello,
      target,
      measured.map(({ ratio }) => ratio),
      failed,
      shown(median.result),
    );
  };
  for (const order of ['newest', 'unanswered', 'active', 'mostViewed']) {
    await besideHello(
      `home list, ${order}, first page`,
      { ...base, url: api(`/api/getQuestion?order=${order}`) },
      '>= 0.5x, p99 <= 10 ms',
    );
  }
  await besideHello(
    'home list, tag filter',
    { ...base, url: api('/api/getQuestion?tag=javascript') },
    '>= 0.5x, p99 <= 10 ms',
  );
  const deep = await cursorAt(server, cookie, 5_000);
  await besideHello(
    `home list, ${deep.depth.toLocaleString('en-US')} deep by cursor (never cached)`,
    { ...base, url: api(`/api/getQuestion?order=newest&cursor=${deep.cursor}`) },
    '>= 0.1x',
  );
  const qid = await richQuestion(server, cookie);
  await besideHello(
    'question page (10 answers, 20 comments)',
    { ...base, url: api(`/api/getQuestionById/${qid}`) },
    '>= 0.15x, p99 <= 20 ms',
  );
  const markdown = await markdownQuestion(server, cookie);
  await besideHello(
    `question page (10 long Markdown answers, ${markdown.characters.toLocaleString('en-US')} characters, 81 code blocks)`,
    { ...base, url: api(`/api/getQuestionById/${markdown.qid}`) },
    '>= 0.15x, p99 <= 20 ms',
  );
  // Each class is 10,000 different searches, cycled: one search repeated would measure
  // whatever the server keeps from the last time (a page's tags), not the search.
  const searches = (make: (pick: <T>(values: readonly T[]) => T, random: () => number) => string) => {
    let state = 42;
    const random = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
    return Array.from({ length: 10_000 }, () => ({
      method: 'GET' as const,
      path: `/api/getQuestion?search=${encodeURIComponent(make(pick, random))}`,
    }));
  };
  const codes = Math.max(1, Math.round(QUESTIONS / 5));
  const tagNames = seedTagNames(benchSize(QUESTIONS).tags);
  for (const [label, example, requests] of [
    // Two error codes: each in about five questions at any size.
    [
      'search, rare words',
      'E1234 E4321',
      searches((_, random) => `E${Math.floor(random() * codes)} E${Math.floor(random() * codes)}`),
    ],
    // Two of the words every seeded text is made of: 'the' and 'error' are in all of them, the others in about 5%.
    ['search, common words', 'the error', searches((pick) => `${pick(WORDS)} ${pick(WORDS)}`)],
    ['search, [tag] plus a word', '[javascript] cache', searches((pick) => `[${pick(tagNames)}] ${pick(WORDS)}`)],
  ] as const) {
    const name = `${label}, like '${example}' (10,000 different, 8 connections)`;
    await besideHello(
      name,
      { ...base, connections: 8, url: server.url, requests },
      'p95 <= 30 ms',
      1, // a latency target: one measurement
      (result) => {
        figures.push(
          { row: name, figure: result.p90, unit: 'p90 ms' },
          { row: name, figure: result.p97_5, unit: 'p97.5 ms' },
        );
        return `${label}, like '${example}' (10,000 different, 8 connections; p90 ${result.p90}, p97.5 ${result.p97_5} ms)`;
      },
    );
  }
  // Sockets before the writes, like the reads: right after the write load the same
  // fan-out measured p50 48-53 ms, against about 31 ms on a quiet server.
  const FAN_OUT_ANSWERS = 100;
  // Twice: with the clients reading frames as they arrive (the server's delivery), and with
  // socket.io-client instances, which also decode each frame in turn in the one client process.
  for (const clientKind of ['wire', 'socket.io-client'] as const) {
    const fan = await fanout(server, cookie, qid, 1000, FAN_OUT_ANSWERS, clientKind);
    const clientsAre =
      clientKind === 'wire'
        ? 'bare WebSockets speaking the socket.io protocol, noting each frame as it arrives'
        : 'socket.io-client instances, each decoding the frame before its handler runs';
    notes.push(
      `Fan-out, clients as ${clientsAre}: answerUpdate to 1,000 sockets (separate process), slowest client p50 ${fan.p50.toFixed(1)} ms, p99 ${fan.p99.toFixed(1)} ms, worst ${fan.max.toFixed(1)} ms over ${FAN_OUT_ANSWERS} answers (target p99 <= 50 ms); the first client had it after ${fan.firstP50.toFixed(1)} ms (p50): the rest is the server writing 1,000 frames and the one client process reading them in turn.`,
    );
    figures.push({
      row: `fan-out: answerUpdate to 1,000 sockets (${clientKind}), slowest client`,
      figure: fan.p99.toFixed(1),
      unit: 'p99 ms',
    });
    log(
      `  fan-out to 1,000 sockets (${clientKind}): slowest client p50 ${fan.p50.toFixed(1)} ms, p99 ${fan.p99.toFixed(1)} ms`,
    );
  }
  const idle = await idleSockets(server, cookie, 5000);
  notes.push(
    `5,000 idle sockets: server RSS ${idle.before.toFixed(0)} MB -> ${idle.after.toFixed(0)} MB (+${(idle.after - idle.before).toFixed(0)} MB; target <= 150 MB).`,
  );
  figures.push({
    row: '5,000 idle sockets: server RSS growth',
    figure: (idle.after - idle.before).toFixed(0),
    unit: 'MB',
  });
  log(`  5,000 idle sockets: +${(idle.after - idle.before).toFixed(0)} MB`);
  // Writes (answerWrites): first as fast as they are answered, then offered at the target
  // rate of 1,000 a second, evenly spaced (latency at that rate).
  const { qids: writeQids, requests: answers } = await answerWrites(server, QUESTIONS);
  const writeLoad = { ...base, url: server.url, requests: answers };
  const answersNow = async () =>
    Number((await adminQuery(databaseUrl, 'select count(*)::int as n from answers'))[0]?.n ?? 0);
  const answersBefore = await answersNow();
  const writes = await load(writeLoad);
  row('writes: new answers (as fast as answered)', writes, helloLoad, '>= 1,000/s');
  const paced = await load({ ...writeLoad, rate: 1_000 });
  row('writes: new answers offered at 1,000/s', paced, helloLoad, '1,000/s, p99 <= 50 ms');
  const stored = (await answersNow()) - answersBefore;
  const acknowledged = writes.ok + paced.ok;
  // Every stored answer is on its question's page right after the load.
  let pagesAgree = true;
  for (const qid of writeQids) {
    // The page carries its first LIMITS.answerPageSize answers and the count of all of them.
    const page = (await (await fetch(api(`/api/getQuestionById/${qid}`), { headers: { cookie } })).json()) as {
      answers: unknown[];
      answerCount: number;
    };
    const inDatabase = Number(
      (await adminQuery(databaseUrl, `select count(*)::int as n from answers where question_id = ${Number(qid)}`))[0]
        ?.n,
    );
    if (page.answerCount !== inDatabase || page.answers.length !== Math.min(inDatabase, LIMITS.answerPageSize)) {
      pagesAgree = false;
    }
  }
  notes.push(
    // autocannon stops with up to one request per connection in flight (warm-up and run):
    // the server stores those, but nobody counts their answers.
    `Writes: ${acknowledged} answers acknowledged, ${stored} stored (${stored - acknowledged} more: requests in flight when autocannon stopped, at most ${2 * base.connections}); every acknowledged answer stored: ${stored >= acknowledged && stored - acknowledged <= 2 * base.connections ? 'yes' : 'NO'}; every question page counted all its answers and carried the first ${LIMITS.answerPageSize} right after: ${pagesAgree ? 'yes' : 'NO'}.`,
  );
  // A fresh write shows up at once in the list and in search.
  const word = `fresh${Date.now()}`;
  const fresh = await postJson(api('/api/addQuestion'), cookie, {
    title: `Visible ${word}`,
    text: 'x',
    tags: [{ name: 'bench' }],
  });
  const freshId = ((await fresh.json()) as { _id: string })._id;
  const newest = (await (await fetch(api('/api/getQuestion?order=newest&limit=1'), { headers })).json()) as Array<{
    _id: string;
  }>;
  const found = (await (await fetch(api(`/api/getQuestion?search=${word}`), { headers })).json()) as Array<{
    _id: string;
  }>;
  notes.push(
    `A question written right after the load was first in the newest list: ${newest[0]?._id === freshId ? 'yes' : 'NO'}; found by search at once: ${found[0]?._id === freshId ? 'yes' : 'NO'}.`,
  );

  const memory = await server.metrics();
  figures.push({ row: 'server RSS after the PostgreSQL run', figure: memory.rssMb.toFixed(0), unit: 'MB' });
  notes.push(
    `Server memory after the PostgreSQL run: RSS ${memory.rssMb.toFixed(0)} MB, heap ${memory.heapUsedMb.toFixed(0)} MB.`,
  );
  const paint = await timeToList(server, cookie).catch((error: Error) => {
    notes.push(`The /home paint time could not be measured: ${error.message.split('\n')[0]}`);
    return null;
  });
  if (paint) {
    notes.push(
      `The /home list painted ${paint.median.toFixed(0)} ms after navigation started (median of 5 visits with nothing cached; the first, in a just-started Chromium, ${paint.first.toFixed(0)} ms) on localhost (target <= 1,000 ms).`,
    );
    figures.push({ row: '/home list painted (median of 5 visits)', figure: paint.median.toFixed(0), unit: 'ms' });
    log(`  /home list painted after ${paint.median.toFixed(0)} ms (first visit ${paint.first.toFixed(0)} ms)`);
  }
}

/** The embedded default, on 100k questions: the home list, then writes (each commit fsynced). */
async function measureEmbedded(root: string) {
  const dataDir = await ensureEmbeddedData();
  // The members' sessions are written before the server opens the directory (one process at a time).
  const members = groups.has('mix-pglite')
    ? await withDatabase({ kind: 'pglite', dataDir }, (db, salt) => memberSessions(db, salt))
    : [];
  const embedded = await startServer(
    {
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      RATE_LIMIT_MULTIPLIER: '1000000',
      ...LOOPBACK_CAPS,
    },
    3903,
    [],
    root,
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    initialPage ??= await measureInitialPage(embedded.url);
    if (groups.has('pglite')) await measureEmbeddedRows(embedded);
    if (groups.has('mix-pglite'))
      await measureMix('embedded PGlite, 100,000 questions', embedded, { members, questions: 100_000 });
  } finally {
    await embedded.stop();
  }
}

/**
 * Issue 39, target 2: the embedded server's memory under the community-day mix at 10k
 * questions (a small community's size). Started on the seeded directory and left a minute
 * idle (the baseline: its RSS then), then the mix with the members' 1,000 sockets as fast as
 * answered, and the reads alone: the largest RSS sampled every 100 ms during both, over the
 * baseline (target: at most +150 MB).
 */
async function measureFootprintUnderMix(root: string) {
  const questions = 10_000;
  const dataDir = await ensureEmbeddedData(questions);
  const members = await withDatabase({ kind: 'pglite', dataDir }, (db, salt) => memberSessions(db, salt));
  const env = { DATABASE_URL: '', DATA_DIR: dataDir, RATE_LIMIT_MULTIPLIER: '1000000', ...LOOPBACK_CAPS };
  const server = await startServer(env, 3907, [], root);
  const pid = server.child.pid!;
  try {
    log(`\nfootprint under the mix: embedded, ${questions.toLocaleString('en-US')} questions (a minute idle first)...`);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idleMb = memoryOf(pid).rssMb;
    let peakMb = idleMb;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, memoryOf(pid).rssMb)), 100);
    let requests = 0;
    try {
      const { world, firstPages } = await mixWorld(server, members, questions);
      const sockets = await mixSockets(server, world, firstPages);
      try {
        for (const shares of [MIX, READS_ONLY]) requests += (await mixLoad(server, world, shares)).total;
      } finally {
        await sockets.stop();
      }
    } finally {
      clearInterval(sampler);
    }
    const growth = peakMb - idleMb;
    const name = `embedded server's memory under the mix (${questions.toLocaleString('en-US')} questions, 1,000 sockets)`;
    rows.push([
      `${name}: RSS ${idleMb} MB after a minute idle, at most ${peakMb} MB during the mix and the reads alone (${requests.toLocaleString('en-US')} requests): +${growth} MB`,
      '',
      '',
      '',
      '',
      `<= +${FOOTPRINT_TARGETS.underMixMb} MB`,
      growth <= FOOTPRINT_TARGETS.underMixMb ? 'met' : 'missed',
    ]);
    figures.push(
      { row: `${name}: RSS idle before`, figure: idleMb, unit: 'MB' },
      { row: `${name}: largest RSS during`, figure: peakMb, unit: 'MB' },
      { row: `${name}: growth`, figure: growth, unit: 'MB' },
    );
    log(`  idle ${idleMb} MB, at most ${peakMb} MB under the mix: +${growth} MB`);
  } finally {
    await server.stop();
  }
}

/** The embedded database's rows: the home list, then writes. */
async function measureEmbeddedRows(embedded: BenchServer) {
  const cookie = await signUp(embedded.url, `bench_${Date.now()}`);
  const base = { connections: 64, seconds: SECONDS, warmupSeconds: 3, headers: { cookie } };
  log('\nembedded PGlite, 100000 questions');
  const helloLoad = await load({ ...base, url: HELLO_URL });
  const list = await load({ ...base, url: `${embedded.url}/api/getQuestion?order=newest` });
  rows.push([
    'embedded (PGlite): home list, newest',
    list.rps.toFixed(0),
    `${list.p50}`,
    `${list.p99}`,
    `${(list.rps / helloLoad.rps).toFixed(2)}x of ${helloLoad.rps.toFixed(0)}`,
    '>= 1,000 req/s, p99 <= 100 ms',
    '',
  ]);
  figures.push(...loadFigures('embedded (PGlite): home list, newest', list));
  log(`  home list: ${list.rps.toFixed(0)} req/s, p99 ${list.p99} ms`);
  // Writes as on PostgreSQL (64 members, 200 questions); PGlite commits one at a time, each
  // fsynced to disk before it is acknowledged.
  const writeLoad = { ...base, url: embedded.url, requests: (await answerWrites(embedded, 100_000)).requests };
  row('embedded (PGlite): writes, new answers (as fast as answered)', await load(writeLoad), helloLoad, 'measured');
  row(
    'embedded (PGlite): writes, new answers offered at 50/s',
    await load({ ...writeLoad, rate: 50 }),
    helloLoad,
    'measured',
  );
  const memory = await embedded.metrics();
  figures.push({ row: 'embedded (PGlite): server RSS after its run', figure: memory.rssMb.toFixed(0), unit: 'MB' });
  notes.push(
    `Embedded (PGlite, 100k questions) server memory after its run: RSS ${memory.rssMb.toFixed(0)} MB (target <= 400 MB).`,
  );
}

/** Opens a bench database (PostgreSQL by URL, or an embedded directory) for `work`, then closes it. */
async function withDatabase<T>(
  where: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string },
  work: (db: Db, salt: string) => Promise<T>,
): Promise<T> {
  const database = await openDatabase({ ...where, migrationsDir: loadConfig({}).migrationsDir });
  try {
    return await work(database.db, where.kind === 'postgres' ? new URL(where.url).pathname.slice(1) : where.dataDir);
  } finally {
    await database.close();
  }
}

/** The mix's members' session cookies on a PostgreSQL bench database (the run's own by default). */
function postgresMembers(url = databaseUrl): Promise<string[]> {
  return withDatabase({ kind: 'postgres', url }, (db, salt) => memberSessions(db, salt));
}

/** What the mix draws from, read from the running server as a member's browser would. */
async function mixWorld(server: BenchServer, members: string[], questions: number) {
  const headers = { cookie: members[0]! };
  const firstPages: number[][] = [];
  const nextPages: string[] = [];
  for (const order of ORDERS) {
    let listPath = `/api/getQuestion?order=${order}&limit=${LIMITS.pageSizeDefault}`;
    // The first page (what half the sockets show), then two more by cursor, as scrolling loads them.
    for (let page = 0; page < 3; page++) {
      const response = await fetch(`${server.url}${listPath}`, { headers });
      const ids = ((await response.json()) as Array<{ _id: string }>).map((question) => Number(question._id));
      if (page === 0) firstPages.push(ids);
      else nextPages.push(listPath);
      const cursor = response.headers.get('x-next-cursor');
      if (cursor === null) break;
      listPath = `/api/getQuestion?order=${order}&limit=${LIMITS.pageSizeDefault}&cursor=${cursor}`;
    }
  }
  const newest = (await (
    await fetch(`${server.url}/api/getQuestion?order=newest&limit=100`, { headers })
  ).json()) as Array<{ _id: string }>;
  const recentIds = newest.map((question) => Number(question._id));
  // Questions the first 200 members asked (their profiles), with an answer of each answered
  // one: edits and accepts are made by the asker.
  const owned: MixWorld['owned'] = [];
  for (let member = 0; member < Math.min(200, members.length); member++) {
    const own = { cookie: members[member]! };
    const asked = (await (
      await fetch(`${server.url}/api/profile/getQuestions?username=bench_user_${member + 1}`, { headers: own })
    ).json()) as Array<{ _id: string; answerCount: number; tags: Array<{ name: string }> }>;
    for (const question of asked.slice(0, 5)) {
      let aid: number | null = null;
      if (question.answerCount > 0) {
        const answers = (await (
          await fetch(`${server.url}/api/question/${question._id}/answers`, { headers: own })
        ).json()) as Array<{ _id: string }>;
        aid = answers[0] === undefined ? null : Number(answers[0]._id);
      }
      owned.push({ member, qid: Number(question._id), tags: question.tags.map((tag) => tag.name), aid });
    }
  }
  const world: MixWorld = {
    members,
    maxId: Math.max(...recentIds),
    recentIds,
    tagNames: seedTagNames(benchSize(questions).tags),
    nextPages: nextPages.length > 0 ? nextPages : [`/api/getQuestion?order=newest&limit=${LIMITS.pageSizeDefault}`],
    owned,
  };
  return { world, firstPages };
}

/** The members' 1,000 sockets in their own process, each showing a page; counts what arrives. */
async function mixSockets(server: BenchServer, world: MixWorld, firstPages: number[][]) {
  const file = path.join(os.tmpdir(), `porpoise-bench-sockets-${process.pid}.json`);
  const pages = socketPages(world, firstPages, Date.now() % 1_000_000);
  fs.writeFileSync(file, JSON.stringify(world.members.map((cookie, i) => ({ cookie, show: pages[i] }))));
  const child = fork(path.join(repoRoot, 'bench/fanout-clients.ts'), [server.url, String(pages.length), file, 'mix'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await socketsReady(child);
  fs.rmSync(file, { force: true });
  type Notified = { count: number; p50: number | null; p99: number | null };
  const counted = () =>
    new Promise<{ frames: number; bytes: number; closedEarly: number; notifications: Notified }>((resolve, reject) => {
      if (child.exitCode !== null) reject(new Error(`the mix's socket process exited (${child.exitCode})`));
      const onMessage = (m: {
        type: string;
        frames: number;
        bytes: number;
        closedEarly: number;
        notifications: Notified;
      }) => {
        if (m.type !== 'counted') return;
        child.off('message', onMessage);
        resolve(m);
      };
      child.on('message', onMessage);
    });
  return {
    /**
     * Frames and bytes a second that arrived while `during` was measured (and sockets closed
     * by the server so far), and the notifications that reached their recipients' sockets
     * meanwhile: how many, and their delay from being written (createdAt) to arriving.
     */
    async during(during: LoadResult) {
      const answer = counted();
      child.send({ type: 'count', from: during.startedAt, to: during.endedAt });
      const { frames, bytes, closedEarly, notifications } = await answer;
      const seconds = (during.endedAt - during.startedAt) / 1000;
      return { framesPerSecond: frames / seconds, bytesPerSecond: bytes / seconds, closedEarly, notifications };
    },
    async stop() {
      child.send({ type: 'stop' });
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** Answers other than 2xx, by status (429s are listed apart: the rate limits may refuse, nothing else may). */
function unexpectedStatuses(result: LoadResult): string {
  const other = Object.entries(result.byStatus).filter(([status]) => !/^2\d\d$/.test(status) && status !== '429');
  const refused = result.byStatus['429'] ?? 0;
  return [
    ...other.map(([status, count]) => `${count} x ${status}`),
    ...(refused > 0 ? [`(${refused} x 429)`] : []),
  ].join(', ');
}

/**
 * The mix in these shares on a server. A fresh list each time, so a member's question views
 * stay first views: as fast as answered, each connection its own share of 120,000 (sent once
 * each up to about 9,000 req/s); at a rate, exactly what is sent.
 */
function mixLoad(server: BenchServer, world: MixWorld, shares: typeof READS_ONLY, rate?: number) {
  return load({
    ...LOAD_BASE,
    url: server.url,
    ...(rate === undefined ? { partition: true } : { rate }),
    requests: mixRequests(world, shares, rate === undefined ? 120_000 : Math.ceil(rate * (SECONDS + 3)) + 1, mixSeed++),
  });
}

/** The hello-world yardstick, as the mix's load drives it. */
function measureHello() {
  return load({ ...LOAD_BASE, url: HELLO_URL });
}

/**
 * Issue 39, target 3 ("flat with size"): the community-day mix on 100k questions and on 1M
 * (or --questions, when larger), side by side in one run: both servers up, each with its
 * members' 1,000 sockets connected, and PAIRS rounds in which each size is measured once
 * (the order alternating between rounds, so neither size always meets the warmer machine):
 * the whole mix with the sockets, then (sockets closed) without them, and the reads alone.
 * Each figure is the median of its rounds; the rows give the large size's median over the
 * small one's (target: at least 85%).
 */
async function measureMixScale(root: string) {
  const sizes = SCALE_SIZES;
  const named = (questions: number) => `${questions.toLocaleString('en-US')} questions`;
  const sides = [];
  for (const [index, questions] of sizes.entries()) {
    const url = await ensureDatabase(`porpoise_bench_v3_${questions}`, questions);
    await vacuumWhereAutovacuumIsOff(url);
    const env = { DATABASE_URL: url, RATE_LIMIT_MULTIPLIER: '1000000', ...LOOPBACK_CAPS };
    const server = await startServer(env, 3905 + index, [], root);
    const { world, firstPages } = await mixWorld(server, await postgresMembers(url), questions);
    sides.push({ questions, server, world, firstPages });
  }
  const kinds = [
    { name: 'community day, 1,000 sockets', shares: MIX, sockets: true },
    { name: 'community day, no sockets', shares: MIX, sockets: false },
    { name: 'reads only, no sockets', shares: READS_ONLY, sockets: false },
  ];
  const results = new Map<string, Array<{ result: LoadResult; hello: LoadResult }>>();
  try {
    log(`\ncommunity-day mix at ${named(sizes[0])} and ${named(sizes[1])}, side by side (${PAIRS} rounds)`);
    for (const withSockets of [true, false]) {
      const sockets = withSockets
        ? await Promise.all(sides.map((side) => mixSockets(side.server, side.world, side.firstPages)))
        : [];
      try {
        for (let round = 0; round < PAIRS; round++) {
          const order = round % 2 === 0 ? sides : [...sides].reverse();
          for (const side of order) {
            for (const kind of kinds.filter((each) => each.sockets === withSockets)) {
              const hello = await measureHello();
              const result = await mixLoad(side.server, side.world, kind.shares);
              const key = `${kind.name}@${side.questions}`;
              results.set(key, [...(results.get(key) ?? []), { result, hello }]);
              log(`  round ${round + 1}, ${named(side.questions)}, ${kind.name}: ${result.rps.toFixed(0)} req/s`);
            }
          }
        }
      } finally {
        await Promise.all(sockets.map((each) => each.stop()));
      }
    }
  } finally {
    await Promise.all(sides.map((side) => side.server.stop()));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  for (const kind of kinds) {
    const runs = sizes.map((questions) => results.get(`${kind.name}@${questions}`) ?? []);
    for (const [index, questions] of sizes.entries()) {
      const each = runs[index]!;
      // The median round's result, with the hello-world run beside it.
      const middle = [...each].sort((a, b) => a.result.rps - b.result.rps)[Math.floor(each.length / 2)]!;
      row(
        `mix at scale (PostgreSQL, ${named(questions)}): ${kind.name}, 64 connections`,
        middle.result,
        middle.hello,
        'measured',
        each.map(({ result, hello }) => result.rps / hello.rps),
        unexpectedStatuses(middle.result),
      );
    }
    const [small, large] = runs.map((each) => median(each.map(({ result }) => result.rps)));
    const ratio = large! / small!;
    const label = `mix at ${named(sizes[1])} over ${named(sizes[0])}: ${kind.name}`;
    figures.push({ row: label, figure: (ratio * 100).toFixed(0), unit: '%' });
    rows.push([
      label,
      '',
      '',
      '',
      `${(ratio * 100).toFixed(0)}% (median ${Math.round(large!)} / ${Math.round(small!)} req/s)`,
      kind.name.startsWith('community day') ? '>= 85%' : 'measured',
      '',
    ]);
    log(`  ${label}: ${(ratio * 100).toFixed(0)}% (${Math.round(large!)} / ${Math.round(small!)} req/s)`);
  }
}

/**
 * The community-day mix (bench/mix.ts) on a running server, with the members' 1,000
 * sockets connected: as fast as 64 connections are answered, then offered at half that
 * rate; the reads alone the same two ways; then the whole mix again with no sockets.
 */
async function measureMix(
  where: string,
  server: BenchServer,
  { members, questions }: { members: string[]; questions: number },
) {
  log(`\ncommunity-day mix, ${where}`);
  const { world, firstPages } = await mixWorld(server, members, questions);
  const mix = (shares: typeof READS_ONLY, rate?: number) => mixLoad(server, world, shares, rate);
  const label = (what: string) => `mix (${where}): ${what}`;
  const sockets = await mixSockets(server, world, firstPages);
  const framesNote = (what: string, seen: { framesPerSecond: number; bytesPerSecond: number }) =>
    `${what}: ${Math.round(seen.framesPerSecond).toLocaleString('en-US')} socket frames/s, ${(seen.bytesPerSecond / 1024).toFixed(0)} KB/s to the 1,000 sockets`;
  const heard: string[] = [];
  let closedEarly = 0;
  const withSockets = async (name: string, shares: typeof READS_ONLY) => {
    const yardstick = await measureHello();
    const full = await mix(shares);
    const fullSeen = await sockets.during(full);
    const half = await mix(shares, full.rps / 2);
    const halfSeen = await sockets.during(half);
    closedEarly = halfSeen.closedEarly;
    row(
      label(`${name}, 1,000 sockets, 64 connections`),
      full,
      yardstick,
      name === 'community day' ? '>= 0.1x' : 'measured',
      [],
      unexpectedStatuses(full),
    );
    row(
      label(`${name}, 1,000 sockets, offered half the rate`),
      half,
      yardstick,
      name === 'community day' ? (where.startsWith('embedded') ? 'p99 <= 100 ms' : 'p99 <= 25 ms') : 'measured',
      [],
      unexpectedStatuses(half),
      label(`${name}, 1,000 sockets, offered ${Math.round(full.rps / 2).toLocaleString('en-US')}/s (half)`),
    );
    heard.push(framesNote(`${name} as fast as answered`, fullSeen), framesNote(`at half rate`, halfSeen));
    if (name === 'community day') {
      // Issue 34: a notification reaches its recipient's socket with p99 <= 50 ms under the mix.
      for (const [rate, seen] of [
        ['as fast as answered', fullSeen],
        ['at half rate', halfSeen],
      ] as const) {
        const { count, p50, p99 } = seen.notifications;
        const row = label(`notification to its recipient's socket, ${rate}, p99`);
        figures.push({ row, figure: p99 ?? '-', unit: 'ms' });
        notes.push(
          `Mix (${where}), community day ${rate}: ${count} notifications reached their recipients' sockets (mentions in a fifth of comments and answers, answers to the members' questions), from being written to arriving p50 ${p50 ?? '-'} ms, p99 ${p99 ?? '-'} ms${rate === 'at half rate' ? ' (target p99 <= 50 ms)' : ''}.`,
        );
        log(`  notifications ${rate}: ${count}, p50 ${p50} ms, p99 ${p99} ms`);
      }
    }
    if (half.byKind) {
      const kinds = Object.entries(half.byKind).map(
        ([kind, { count, p50, p99 }]) => `${kind} ${p50}/${p99} (${count})`,
      );
      notes.push(`Mix (${where}), ${name} at half rate, p50/p99 ms by kind (requests): ${kinds.join(', ')}.`);
    }
    log(`  ${framesNote('sockets', fullSeen)}`);
    return full;
  };
  const withAll = await withSockets('community day', MIX);
  await withSockets('reads only', READS_ONLY);
  await sockets.stop();
  const yardstick = await measureHello();
  const bare = await mix(MIX);
  row(
    label('community day, no sockets, 64 connections'),
    bare,
    yardstick,
    'sockets cost <= 20%',
    [],
    unexpectedStatuses(bare),
  );
  // Each kind alone, as fast as answered (no sockets): what bounds the mix. Kinds share the
  // same two cores, so the mix can go at most 1 / sum(share / alone) requests a second.
  const alone: Array<[string, number, number]> = [];
  for (const [name, shares] of [
    ['question pages (first views)', { question: MIX.question }],
    ['list pages', { list: MIX.list }],
    ['searches', { search: MIX.search }],
    ['tags pages', { tags: MIX.tags }],
    [
      'writes (votes, comments, answers, questions, edits, accepts)',
      { vote: MIX.vote, comment: MIX.comment, answer: MIX.answer, ask: MIX.ask, edit: MIX.edit, accept: MIX.accept },
    ],
  ] as Array<[string, typeof READS_ONLY]>) {
    const result = await mix(shares);
    const share = Object.values(shares).reduce((sum, value) => sum + (value ?? 0), 0) / 100;
    alone.push([name, share, result.rps]);
  }
  const bound = 1 / alone.reduce((sum, [, share, rps]) => sum + share / rps, 0);
  notes.push(
    `Mix (${where}), each kind alone as fast as answered, no sockets: ${alone
      .map(
        ([name, share, rps]) =>
          `${name} ${Math.round(rps).toLocaleString('en-US')} req/s (${Math.round(share * 100)}% of the mix)`,
      )
      .join(
        ', ',
      )}. So the mix can go at most 1 / sum(share / alone) = ${Math.round(bound).toLocaleString('en-US')} req/s (${(bound / yardstick.rps).toFixed(3)}x of hello-world ${Math.round(yardstick.rps)}); it went ${Math.round(bare.rps)} without sockets (${((bare.rps / bound) * 100).toFixed(0)}% of that bound).`,
  );
  log(`  bound from each kind alone: ${Math.round(bound)} req/s`);
  const cost = 1 - withAll.rps / bare.rps;
  notes.push(
    `Mix (${where}): socket traffic during the mix (payload bytes, the frames' headers aside): ${heard.join('; ')}. The 1,000 sockets cost the mix ${(cost * 100).toFixed(0)}% of its throughput (${withAll.rps.toFixed(0)} req/s with them, ${bare.rps.toFixed(0)} without; target <= 20%)${closedEarly > 0 ? `; ${closedEarly} sockets were closed by the server during the run` : ''}.`,
  );
  log(`  sockets cost ${(cost * 100).toFixed(0)}% of the mix's throughput`);
}

/** What the mix rows measure, for the report. */
function mixDescription(): string {
  return `The community-day mix (bench/mix.ts): of every 100 requests, ${MIX.list} list pages (70% a first page in a random order, 20% of them filtered by one of the seed's 500 tags, 4% the member's 'My tags', 6% a second or third page by cursor), ${MIX.question} question pages, ${MIX.search} searches (two of the seed's words, or a [tag] and a word), ${MIX.tags} tags pages, ${MIX.vote} votes (85% up), ${MIX.comment} comments on questions, ${MIX.answer} answers (a fifth of comments and answers mention a member), ${MIX.ask} new question, ${MIX.edit} edit of a question by its asker (title and text, tags kept) ${MIX.accept} accept (or unaccept) of an answer by the asker (among up to 5 questions each of the first 200 members), ${MIX.inbox} inbox requests (60% the bell's unread count, 30% the list, 10% marking all read) and ${MIX.follow} follow toggle (80% a question, 20% a tag). Each request is from one of ${MIX_MEMBERS.toLocaleString('en-US')} signed-in members (the seed's bench_user_1.., sessions made once per database); a question page or write is on one of the 100 newest questions a quarter of the time, else on any question, and each measurement sends a fresh list, so nearly every question view is a first view. The "reads only" rows send the four reads in the same proportions. During the "1,000 sockets" rows each member also has a socket open (bare WebSockets speaking socket.io, in a process of their own), half showing a list's first page (its 50 ids) and half one question page, as the web app's showQuestions does. As fast as answered: autocannon, 64 connections, each with its own share of the requests, beside one hello-world run. At half rate: an open loop of our own offering half that rate, latency counted from each request's intended send time. Answers other than 2xx are listed by status in the last column (429s in brackets).`;
}

function againstCommit(): string {
  const root = path.resolve(values.against ?? '.');
  return spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
}

/** Prints the table and notes, and records the run's figures (bench/results.ts). */
function writeReport() {
  if (initialPage) {
    notes.push(describeInitialPage(initialPage));
    figures.push({
      row: 'initial JavaScript for /home, as served',
      figure: (initialPage.jsBytes / 1024).toFixed(1),
      unit: 'KB',
    });
  }
  const table = [
    '| endpoint | req/s | p50 ms | p99 ms | vs hello-world | target | |',
    '| --- | ---: | ---: | ---: | ---: | --- | --- |',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
  const size =
    groups.size === 1 && groups.has('pglite')
      ? 'the embedded database only (PGlite, 100,000 questions)'
      : groups.size === 1 && groups.has('lighthouse')
        ? 'the demo community (Lighthouse)'
        : groups.size === 1 && groups.has('footprint')
          ? 'a new embedded database (footprint)'
          : `${QUESTIONS.toLocaleString('en')} questions`;
  const measured = ROW_GROUPS.every((group) => groups.has(group)) ? '' : `, rows ${[...groups].join(', ')}`;
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).stdout.trim();
  const mixed = ['mix', 'mix-pglite', 'mix-cluster', 'mix-scale', 'backup'].some((group) =>
    groups.has(group as RowGroup),
  );
  const report = `## ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${size}${measured}

Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, PostgreSQL at ${new URL(ADMIN_URL).host}; commit ${commit || 'unknown'}.
Load: autocannon in a separate process, 64 connections (8 for search), ${SECONDS} s per row after a 3 s warm-up; each ratio is against a hello-world run right before it (its req/s given with it); a row with a ratio target is the median of ${PAIRS} such pairs, whose ratios it lists.
${mixed ? `\n${mixDescription()}\n` : ''}
${table}
${values.against ? `\nSide by side (before: ${path.resolve(values.against)}, commit ${againstCommit()}; after: this checkout):\n\n${comparisonTable()}\n` : ''}
${notes.map((n) => `- ${n}`).join('\n')}
`;
  console.log(`\n${report}`);
  // A comparison is a one-off: its figures do not enter the history of this checkout's rows.
  if (values.against) return;
  recordRun(repoRoot, { run: `npm run bench, ${size}`, date: started, commit, figures });
}

// ---------------------------------------------------------------------------------------
// Backups and restores (issue 38, docs/product.md section 15): the `backup` row group.

/** A backup taken by the bench: how long it took, when (ms since the epoch), its size and header. */
interface BackupTaken {
  seconds: number;
  from: number;
  to: number;
  bytes: number;
  header: BackupHeader;
}

// Functions, not consts: the run above calls them before this part of the module is evaluated.
function epochNow(): number {
  return performance.timeOrigin + performance.now();
}
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
function megabytes(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(1);
}
/** Nearest rank of p (0..1) in `values`, 0 for none. */
function percentileOf(values: number[], p: number): number {
  return values.length === 0 ? 0 : [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(p * values.length) - 1)]!;
}
function questionsIn(header: BackupHeader): number {
  return header.tables.find((table) => table.name === 'questions')?.rows ?? 0;
}

/**
 * Backs up a database as `npm run backup` does (apps/server/src/backup/run.ts): PostgreSQL
 * with pg_dump; the embedded one through the server running on its DATA_DIR (which copies its
 * files and exports the copy), the CLI asking it once a second whether the backup is ready.
 */
async function takeBackup(
  source: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string },
  out: string,
): Promise<BackupTaken> {
  const scratch = path.join(path.dirname(out), `${path.basename(out)}.config`);
  const config = loadConfig(
    source.kind === 'postgres'
      ? { DATA_DIR: scratch, UPLOADS_DIR: path.join(scratch, 'uploads') }
      : { DATA_DIR: source.dataDir },
  );
  config.databaseUrl = source.kind === 'postgres' ? source.url : undefined;
  const from = epochNow();
  const header = await backupConfigured(config, out, process.env.PG_BIN_DIR || undefined);
  const to = epochNow();
  fs.rmSync(scratch, { recursive: true, force: true });
  return { seconds: (to - from) / 1000, from, to, bytes: fs.statSync(out).size, header };
}

/**
 * Restores `file` into a new empty database of `kind` (a new PostgreSQL database, or a new
 * embedded DATA_DIR under `dir`) as `npm run restore` does, counts its questions, then drops it.
 */
async function timeRestore(
  file: string,
  kind: 'postgres' | 'pglite',
  dir: string,
): Promise<{ seconds: number; questions: number }> {
  const target = fs.mkdtempSync(path.join(dir, `restore-${kind}-`));
  const config = loadConfig({ DATA_DIR: path.join(target, 'data'), UPLOADS_DIR: path.join(target, 'uploads') });
  const name = `porpoise_bench_restore_${process.pid}_${Date.now()}`;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  if (kind === 'postgres') {
    await adminQuery(ADMIN_URL, `create database ${name}`);
    config.databaseUrl = url.toString();
  } else config.databaseUrl = undefined;
  try {
    const started = performance.now();
    await restoreConfigured(config, file, { force: false, pgBinDir: process.env.PG_BIN_DIR || undefined });
    const seconds = (performance.now() - started) / 1000;
    const count = 'select count(*)::int as n from questions';
    const questions =
      kind === 'postgres'
        ? Number((await adminQuery(url.toString(), count))[0]?.n)
        : await withDatabase({ kind: 'pglite', dataDir: config.dataDir }, async (db) =>
            Number((await queryRows<{ n: number }>(db, sql.raw(count)))[0]?.n),
          );
    return { seconds, questions };
  } finally {
    if (kind === 'postgres') await adminQuery(ADMIN_URL, `drop database if exists ${name} with (force)`);
    fs.rmSync(target, { recursive: true, force: true });
  }
}

/** A load (as load()) that starts `beside` once its measured run has begun (after the warm-up). */
async function loadBeside<T>(options: object, beside: () => Promise<T>): Promise<[LoadResult, T]> {
  const file = path.join(os.tmpdir(), `porpoise-bench-load-${process.pid}-beside.json`);
  fs.writeFileSync(file, JSON.stringify({ ...options, announce: true }));
  try {
    const running = run(tsx, [path.join(repoRoot, 'bench/load.ts'), `@${file}`], { maxBuffer: 1 << 26 });
    const begun = new Promise<void>((resolve) => {
      let said = '';
      running.child.stderr!.on('data', (chunk: Buffer | string) => {
        said += String(chunk);
        if (said.includes('measuring')) resolve();
      });
    });
    const [{ stdout, stderr }, value] = await Promise.all([running, begun.then(beside)]);
    const result = JSON.parse(stdout) as LoadResult;
    const said = stderr.replace('measuring\n', '').trim();
    if (result.errors > 0 && said) log(`  (load: ${said})`);
    return [result, value];
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** A bystander asking `url` every 10 ms in its own process (bench/poll-latency.ts) until stopped. */
async function pollLatency(url: string) {
  const child = fork(path.join(repoRoot, 'bench/poll-latency.ts'), [url, '10'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the latency poller exited (${code}) before its first answer`)));
  });
  return {
    stop: () =>
      new Promise<{ samples: Sample[]; failed: number }>((resolve) => {
        child.on('message', (m: { type: string; samples: Sample[]; failed: number }) => {
          if (m.type === 'samples') resolve(m);
        });
        child.send({ type: 'stop' });
      }),
  };
}

/** The latencies of the samples sent within [from, to] (ms since the epoch): how many, p99 and max. */
function inWindow(samples: Sample[], from: number, to: number) {
  const latencies = samples.filter(([sent]) => sent >= from && sent <= to).map(([, latency]) => latency);
  return {
    count: latencies.length,
    p99: percentileOf(latencies, 0.99),
    max: latencies.length ? Math.max(...latencies) : 0,
  };
}

/**
 * Issue 38: on each database at --questions (100k by default), a backup (PostgreSQL: pg_dump,
 * no server running; embedded: through the bench's server running on its DATA_DIR, with a
 * bystander timing /api/readyz every 10 ms to see the file copy's stall), its restore into a
 * new empty database of the other kind (the question count checked against the source's),
 * and the community-day mix offered half its rate with and without a backup running beside it.
 */
async function measureBackups(postgresEnv: NodeJS.ProcessEnv) {
  const size = `${QUESTIONS.toLocaleString('en-US')} questions`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-bench-backup-'));
  try {
    // PostgreSQL: pg_dump's snapshot, no server needed.
    const postgresWhere = `PostgreSQL, ${size}`;
    log(`\nbackup and restore, ${postgresWhere}`);
    const postgresQuestions = Number((await adminQuery(databaseUrl, 'select count(*)::int as n from questions'))[0]?.n);
    const postgresFile = path.join(dir, 'postgres.porpoise-backup');
    const postgresBackup = await takeBackup({ kind: 'postgres', url: databaseUrl }, postgresFile);
    recordBackup(postgresWhere, 'pg_dump, no server running', postgresBackup, postgresQuestions);
    recordRestore(postgresWhere, 'embedded', postgresQuestions, await timeRestore(postgresFile, 'pglite', dir));
    fs.rmSync(postgresFile, { force: true });
    const postgresServer = await startServer(postgresEnv, 3905);
    try {
      await backupBesideMix(postgresWhere, postgresServer, {
        members: await postgresMembers(),
        questions: QUESTIONS,
        idleBackupSeconds: postgresBackup.seconds,
        backup: () =>
          takeBackup({ kind: 'postgres', url: databaseUrl }, path.join(dir, 'postgres-beside.porpoise-backup')),
      });
    } finally {
      await postgresServer.stop();
    }
    fs.rmSync(path.join(dir, 'postgres-beside.porpoise-backup'), { force: true });

    // The embedded database: through the server that owns its DATA_DIR.
    const embeddedWhere = `embedded PGlite, ${size}`;
    log(`\nbackup and restore, ${embeddedWhere}`);
    const dataDir = await ensureEmbeddedData(QUESTIONS);
    // The members' sessions and the count, before the server opens the directory (one process at a time).
    const { members, embeddedQuestions } = await withDatabase({ kind: 'pglite', dataDir }, async (db, salt) => ({
      members: await memberSessions(db, salt),
      embeddedQuestions: Number(
        (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from questions`))[0]?.n,
      ),
    }));
    const embeddedFile = path.join(dir, 'embedded.porpoise-backup');
    const embedded = await startServer(
      { DATABASE_URL: '', DATA_DIR: dataDir, RATE_LIMIT_MULTIPLIER: '1000000', ...LOOPBACK_CAPS },
      3906,
    );
    let embeddedBackup: BackupTaken;
    try {
      await sleep(1_000);
      // The stall: the longest a request waited, polled every 10 ms, 5 s without a backup and then during one.
      const poller = await pollLatency(`${embedded.url}/api/readyz`);
      const quietFrom = epochNow();
      await sleep(5_000);
      const quietTo = epochNow();
      let polled: Awaited<ReturnType<typeof poller.stop>>;
      try {
        embeddedBackup = await takeBackup({ kind: 'pglite', dataDir }, embeddedFile);
      } finally {
        polled = await poller.stop();
      }
      const { samples, failed } = polled;
      recordBackup(embeddedWhere, 'through the running server', embeddedBackup, embeddedQuestions);
      const quiet = inWindow(samples, quietFrom, quietTo);
      const during = inWindow(samples, embeddedBackup.from, embeddedBackup.to);
      const stallRow = `backup (${embeddedWhere}): longest wait of GET /api/readyz, asked every 10 ms`;
      figures.push(
        { row: stallRow, figure: during.max.toFixed(0), unit: 'max ms during the backup' },
        { row: stallRow, figure: quiet.max.toFixed(0), unit: 'max ms in 5 s just before' },
        { row: stallRow, figure: during.p99.toFixed(0), unit: 'p99 ms during the backup' },
      );
      notes.push(
        `Backup (${embeddedWhere}), the write stall: GET /api/readyz (a \`select 1\` on the database's thread) asked every 10 ms from a process of its own waited at most ${during.max.toFixed(0)} ms during the backup (${during.count} requests, p99 ${during.p99.toFixed(0)} ms), against at most ${quiet.max.toFixed(0)} ms (p99 ${quiet.p99.toFixed(0)} ms, ${quiet.count} requests) in the 5 s just before${failed > 0 ? `; ${failed} requests were not answered 200` : ''}. The longest wait is the file copy, during which no statement runs.`,
      );
      log(
        `  readyz every 10 ms: longest wait ${during.max.toFixed(0)} ms during the backup, ${quiet.max.toFixed(0)} ms before`,
      );
      await backupBesideMix(embeddedWhere, embedded, {
        members,
        questions: QUESTIONS,
        idleBackupSeconds: embeddedBackup.seconds,
        backup: () => takeBackup({ kind: 'pglite', dataDir }, path.join(dir, 'embedded-beside.porpoise-backup')),
      });
    } finally {
      await embedded.stop();
    }
    recordRestore(embeddedWhere, 'PostgreSQL', embeddedQuestions, await timeRestore(embeddedFile, 'postgres', dir));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Throws if the server has exited (its requests would all fail, and the rows say nothing). */
function stillRunning(server: BenchServer) {
  const code = server.child.exitCode ?? server.child.signalCode;
  if (code !== null) throw new Error(`the server at ${server.url} exited (${code}) during the backup rows`);
}

/** A backup's figures: time and size, and its questions against the source's. */
function recordBackup(where: string, how: string, taken: BackupTaken, sourceQuestions: number) {
  const name = `backup (${where}): ${how}`;
  const held = questionsIn(taken.header);
  const rowCount = taken.header.tables.reduce((sum, table) => sum + table.rows, 0);
  figures.push(
    { row: name, figure: taken.seconds.toFixed(1), unit: 's' },
    { row: name, figure: megabytes(taken.bytes), unit: 'MB' },
  );
  const whole = held === sourceQuestions;
  if (!whole) failedChecks.push(`${name}: ${held} of ${sourceQuestions} questions`);
  notes.push(
    `Backup (${where}), ${how}: ${taken.seconds.toFixed(1)} s, ${megabytes(taken.bytes)} MB (${rowCount.toLocaleString('en-US')} rows, ${held.toLocaleString('en-US')} questions of the source's ${sourceQuestions.toLocaleString('en-US')}: ${whole ? 'all' : 'NOT ALL'}; ${taken.header.images.count} images).${how.startsWith('through') ? ' The time is what `npm run backup` waits, which asks the server once a second whether its backup is ready (up to 1 s of it is that wait).' : ''}`,
  );
  log(`  backup, ${how}: ${taken.seconds.toFixed(1)} s, ${megabytes(taken.bytes)} MB, ${held} questions`);
}

/** A restore's figures: its time, and whether the restored database holds the source's questions. */
function recordRestore(
  where: string,
  into: 'embedded' | 'PostgreSQL',
  sourceQuestions: number,
  restored: { seconds: number; questions: number },
) {
  const name = `restore of the ${where} backup into a new ${into} database`;
  const equal = restored.questions === sourceQuestions;
  figures.push(
    { row: name, figure: restored.seconds.toFixed(1), unit: 's' },
    { row: name, figure: equal ? 'yes' : 'NO', unit: 'questions equal the source' },
  );
  if (!equal) failedChecks.push(`${name}: ${restored.questions} questions, the source ${sourceQuestions}`);
  notes.push(
    `Restore of the ${where} backup into a new empty ${into} database (\`npm run restore\`'s code: checked whole, loaded, migrated): ${restored.seconds.toFixed(1)} s; ${restored.questions.toLocaleString('en-US')} questions restored, the source ${sourceQuestions.toLocaleString('en-US')}: ${equal ? 'equal' : 'NOT EQUAL (failed)'}.`,
  );
  log(
    `  restore into a new ${into} database: ${restored.seconds.toFixed(1)} s, ${restored.questions} questions${equal ? '' : ` (FAILED: the source has ${sourceQuestions})`}`,
  );
}

/**
 * The community-day mix with the members' 1,000 sockets, as the mix rows run it: as fast as 64
 * connections are answered, then offered half that rate twice for the same time, alone and with
 * a backup started 5 s in (each run lasts 1.5 times as long as the backup took with the server
 * idle, plus 15 s, between 20 and 60 s, so that the backup ends inside it even if the mix slows
 * it down, with seconds of mix after it). The second run's requests sent while
 * the backup ran are also measured apart.
 */
async function backupBesideMix(
  where: string,
  server: BenchServer,
  {
    members,
    questions,
    idleBackupSeconds,
    backup,
  }: { members: string[]; questions: number; idleBackupSeconds: number; backup: () => Promise<BackupTaken> },
) {
  const seconds = Math.min(60, Math.max(20, Math.ceil(1.5 * idleBackupSeconds) + 15));
  const backupAfter = 5;
  log(`\nbackup beside the community-day mix, ${where} (${seconds} s at half rate, alone then with a backup)`);
  const { world, firstPages } = await mixWorld(server, members, questions);
  const base = { connections: 64, warmupSeconds: 3, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } };
  let seed = Date.now() % 1_000_000_000;
  const requests = (count: number) => mixRequests(world, MIX, count, seed++);
  const label = (what: string) => `backup beside the mix (${where}): community day, ${what}`;
  const sockets = await mixSockets(server, world, firstPages);
  try {
    const yardstick = await load({ ...base, seconds: SECONDS, url: HELLO_URL });
    const full = await load({
      ...base,
      seconds: SECONDS,
      url: server.url,
      partition: true,
      requests: requests(120_000),
    });
    const rate = full.rps / 2;
    const paced = { ...base, seconds, url: server.url, rate, timeline: true };
    const count = Math.ceil(rate * (seconds + 3)) + 1;
    const alone = await load({ ...paced, requests: requests(count) });
    stillRunning(server);
    const [beside, taken] = await loadBeside({ ...paced, requests: requests(count) }, async () => {
      await sleep(backupAfter * 1000);
      return backup();
    });
    stillRunning(server);
    const offered = `offered ${Math.round(rate).toLocaleString('en-US')}/s (half)`;
    row(label('1,000 sockets, 64 connections'), full, yardstick, 'measured', [], unexpectedStatuses(full));
    row(
      label('1,000 sockets, offered half the rate, no backup'),
      alone,
      yardstick,
      'measured',
      [],
      unexpectedStatuses(alone),
      label(`1,000 sockets, ${offered}, ${seconds} s, no backup`),
    );
    row(
      label('1,000 sockets, offered half the rate, a backup started in the run'),
      beside,
      yardstick,
      'measured',
      [],
      unexpectedStatuses(beside),
      label(`1,000 sockets, ${offered}, ${seconds} s, a backup started ${backupAfter} s in`),
    );
    // The requests sent while the backup ran (up to the run's end, if it outlasted it).
    const during = (beside.timeline ?? []).filter(([sent]) => sent >= taken.from && sent <= taken.to);
    const latencies = during.map(([, latency]) => latency);
    const answered = during.filter(([, , ok]) => ok).length;
    const overlap = (Math.min(taken.to, beside.endedAt) - Math.max(taken.from, beside.startedAt)) / 1000;
    const [p50, p99, max] = [0.5, 0.99, 1].map((p) => Math.round(percentileOf(latencies, p))) as [
      number,
      number,
      number,
    ];
    const duringRow = label('1,000 sockets, offered half the rate, requests sent while the backup ran');
    rows.push([
      label(
        `1,000 sockets, ${offered}, the ${during.length} requests sent during the ${taken.seconds.toFixed(1)} s backup (max ${max} ms)`,
      ),
      overlap > 0 ? (answered / overlap).toFixed(0) : '-',
      `${p50}`,
      `${p99}`,
      '',
      'measured',
      during.length - answered > 0 ? `${during.length - answered} not 2xx` : '',
    ]);
    figures.push(
      { row: duringRow, figure: p50, unit: 'p50 ms' },
      { row: duringRow, figure: p99, unit: 'p99 ms' },
      { row: duringRow, figure: max, unit: 'max ms' },
      { row: label('the backup beside it'), figure: taken.seconds.toFixed(1), unit: 's' },
    );
    const outlasted = taken.to > beside.endedAt;
    notes.push(
      `Backup beside the mix (${where}): the community-day mix with its 1,000 sockets offered ${Math.round(rate)} req/s (half of the ${Math.round(full.rps)} answered as fast as possible) for ${seconds} s: p99 ${alone.p99} ms without a backup, ${beside.p99} ms in the same run with a backup started ${backupAfter} s in; the ${during.length} requests sent while the backup ran: p50 ${p50} ms, p99 ${p99} ms, max ${max} ms. The backup took ${taken.seconds.toFixed(1)} s beside the mix (${idleBackupSeconds.toFixed(1)} s alone, ${megabytes(taken.bytes)} MB)${outlasted ? `, and outlasted the run by ${((taken.to - beside.endedAt) / 1000).toFixed(1)} s` : ''}. (The mix rows' target at half rate: p99 <= ${where.startsWith('embedded') ? 100 : 25} ms.)`,
    );
    log(
      `  half rate (${Math.round(rate)}/s): p99 ${alone.p99} ms without a backup, ${beside.p99} ms with one (${p99} ms while it ran, max ${max} ms); the backup took ${taken.seconds.toFixed(1)} s`,
    );
  } finally {
    await sockets.stop();
  }
}
