// `npm run soak`: bounded load on loopback against the built server (trust cases 31-32).
//  1. 100 connections of mixed reads and writes (80/20) for 60 s: under 1% errors, no 5xx,
//     p95 latency under 200 ms.
//  2. 200 sockets connected for 5 minutes with steady traffic: memory plateaus, event-loop
//     delay p99 under 100 ms, handles back to baseline after they disconnect.
// Options: --seconds 60 --socket-minutes 5. Uses the embedded database unless DATABASE_URL is set.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { io, type Socket } from 'socket.io-client';
import type { ProcessMetrics } from '../apps/server/src/metrics/process-metrics.ts';
import { postJson, signUp, startServer } from './server-process.ts';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '60' }, 'socket-minutes': { type: 'string', default: '5' } },
});
const seconds = Number(values.seconds);
const socketMinutes = Number(values['socket-minutes']);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-soak-'));
// Every client runs here, on one address: 100 load connections, then 200 sockets.
const server = await startServer(
  { DATA_DIR: dataDir, RATE_LIMIT_MULTIPLIER: '100000', CONNECTIONS_PER_ADDRESS: '1000', SOCKETS_PER_ADDRESS: '1000' },
  3900,
);
const failures: string[] = [];
const check = (ok: boolean, label: string) => {
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${label}`);
  if (!ok) failures.push(label);
};

try {
  // A small community to read and write.
  const cookies = await Promise.all(
    Array.from({ length: 20 }, (_, i) => signUp(server.url, `soak_${i}_${Date.now() % 100000}`)),
  );
  const qids: string[] = [];
  for (let i = 0; i < 100; i++) {
    const response = await postJson(`${server.url}/api/addQuestion`, cookies[i % cookies.length]!, {
      title: `Soak question ${i} about the error`,
      text: 'Text for the soak test.',
      tags: [{ name: `soak${i % 10}` }],
    });
    qids.push(((await response.json()) as { _id: string })._id);
  }
  const qid = (i: number) => qids[i % qids.length]!;

  // 1. Mixed load: per connection, 8 reads then 2 writes, round and round.
  const requests = (n: number): autocannon.Request[] => {
    const cookie = cookies[n % cookies.length]!;
    const headers = { cookie, 'content-type': 'application/json' };
    return [
      { method: 'GET', path: '/api/getQuestion?order=newest', headers },
      { method: 'GET', path: '/api/getQuestion?order=active', headers },
      { method: 'GET', path: `/api/getQuestionById/${qid(n)}`, headers },
      { method: 'GET', path: '/api/getQuestion?order=mostViewed&limit=20', headers },
      { method: 'GET', path: `/api/getQuestion?tag=soak${n % 10}`, headers },
      { method: 'GET', path: '/api/getQuestion?search=error', headers },
      { method: 'GET', path: '/api/tag/getTagsWithQuestionNumber', headers },
      { method: 'GET', path: `/api/getQuestionById/${qid(n + 1)}`, headers },
      {
        method: 'POST',
        path: '/api/answer/addAnswer',
        headers,
        body: JSON.stringify({ qid: qid(n + 2), ans: { text: 'A soak answer.' } }),
      },
      {
        method: 'POST',
        path: '/api/comment/addComment',
        headers,
        body: JSON.stringify({ id: qid(n + 3), type: 'question', comment: { text: 'A soak comment.' } }),
      },
    ];
  };
  console.log(`\n1. 100 connections, 80% reads / 20% writes, ${seconds} s`);
  let connection = 0;
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.url,
        connections: 100,
        duration: seconds,
        requests: requests(0),
        setupClient: (client) => {
          client.setRequests(requests(connection++));
        },
      },
      (error: unknown, done) =>
        error ? reject(error instanceof Error ? error : new Error('autocannon failed')) : resolve(done),
    );
    // autocannon reports p90 and p97.5; record every response time to know the real p95.
    instance.on('response', (_client, _status, _bytes, responseTime: number) => latencies.push(responseTime));
  });
  latencies.sort((a, b) => a - b);
  const p95 = latencies[Math.floor(latencies.length * 0.95)] ?? Number.NaN;
  const total = result.requests.total;
  const errors = result.errors + result.timeouts + result.non2xx;
  const fiveHundreds = result['5xx'];
  console.log(
    `   ${total} requests, ${result.requests.average.toFixed(0)} req/s, errors ${errors} (${((100 * errors) / Math.max(1, total)).toFixed(2)}%), 5xx ${fiveHundreds}`,
  );
  console.log(`   latency p50 ${result.latency.p50} ms, p95 ${p95.toFixed(0)} ms, p99 ${result.latency.p99} ms`);
  check(errors / Math.max(1, total) < 0.01, 'under 1% errors');
  check(fiveHundreds === 0, 'no 5xx');
  check(p95 < 200, 'p95 under 200 ms');

  // 2. Sockets held open with steady traffic.
  console.log(`\n2. 200 sockets for ${socketMinutes} min with an answer posted every 500 ms`);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const baseline = await server.metrics();
  const sockets: Socket[] = [];
  for (let i = 0; i < 200; i++) {
    sockets.push(
      io(server.url, {
        transports: ['websocket'],
        extraHeaders: { cookie: cookies[i % cookies.length]! },
        reconnection: false,
        forceNew: true,
      }),
    );
  }
  await Promise.all(sockets.map((socket) => new Promise<void>((resolve) => socket.once('connect', () => resolve()))));
  // Each socket shows every question, as a list that loaded them all would.
  await Promise.all(sockets.map((socket) => socket.emitWithAck('showQuestions', qids.map(Number))));
  let received = 0;
  for (const socket of sockets) socket.on('answerUpdate', () => received++);
  let posted = 0;
  const traffic = setInterval(() => {
    posted++;
    void postJson(`${server.url}/api/answer/addAnswer`, cookies[posted % cookies.length]!, {
      qid: qid(posted),
      ans: { text: 'steady traffic' },
    });
  }, 500);
  const samples: ProcessMetrics[] = [];
  const end = Date.now() + socketMinutes * 60_000;
  while (Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(15_000, end - Date.now())));
    const sample = await server.metrics();
    samples.push(sample);
    console.log(
      `   rss ${sample.rssMb.toFixed(0)} MB, heap ${sample.heapUsedMb.toFixed(0)} MB, handles ${sample.handles}, event-loop delay p99 ${sample.eventLoopDelayP99Ms.toFixed(1)} ms`,
    );
  }
  clearInterval(traffic);
  for (const socket of sockets) socket.disconnect();
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const after = await server.metrics();
  console.log(`   ${posted} answers posted, ${received} answerUpdate events received (of ${posted * 200} expected)`);
  console.log(`   handles: ${baseline.handles} before, ${after.handles} after the sockets left`);
  const half = Math.floor(samples.length / 2);
  const peak = (list: typeof samples) => Math.max(...list.map((s) => s.rssMb));
  const firstHalf = peak(samples.slice(0, Math.max(1, half)));
  const secondHalf = peak(samples.slice(half));
  console.log(`   peak rss first half ${firstHalf.toFixed(0)} MB, second half ${secondHalf.toFixed(0)} MB`);
  check(secondHalf <= firstHalf * 1.15 + 10, 'memory plateaus (second half peak within 15% of the first)');
  check(Math.max(...samples.map((s) => s.eventLoopDelayP99Ms)) < 100, 'event-loop delay p99 under 100 ms');
  check(after.handles <= baseline.handles + 5, 'handles back to baseline');
  check(received >= posted * 200 * 0.99, 'every socket received the answers');
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
console.log(failures.length === 0 ? '\nsoak: all targets met' : `\nsoak: ${failures.length} target(s) missed`);
process.exit(failures.length === 0 ? 0 : 1);
