// A separate process holding N socket.io connections. It connects them, reports 'ready', then
// for each answerUpdate reports when the first and the slowest connection got it; or, in idle
// mode, just holds them.
//
// Modes: 'mix' (bench/mix.ts) opens one socket per member of a file of {cookie, show}
// (argument 3 names the file), each showing its ids, and counts the frames and bytes that
// arrive, for the bench to ask about a time window; 'fanout' uses socket.io-client; 'fanout-wire' speaks the socket.io protocol on bare
// WebSockets (the `ws` package that socket.io-client itself uses in Node) and notes each
// frame's arrival before decoding it. A thousand socket.io-client instances in one process
// decode every frame in turn on one thread, which a thousand readers on their own devices
// do not; the wire mode measures the server's delivery without that queue.
import WebSocket from 'ws';
import { io, type Socket } from 'socket.io-client';

import fs from 'node:fs';

// qid: the question whose answers are timed; each socket shows it, as its page would.
const [url = '', count = '1000', cookie = '', mode = 'fanout', qid = ''] = process.argv.slice(2);
const total = Number(count);
/** In mix mode, each socket's member and the question ids its page shows. */
const pages =
  mode === 'mix' ? (JSON.parse(fs.readFileSync(cookie, 'utf8')) as Array<{ cookie: string; show: number[] }>) : [];
/** Frames and bytes that arrived, by tenth of a second (ms since the epoch / 100). */
const received = new Map<number, { frames: number; bytes: number }>();
let closedEarly = 0;
const arrivals = new Map<string, number[]>();

function arrived(id: string, at: number): void {
  const list = arrivals.get(id) ?? [];
  list.push(at);
  arrivals.set(id, list);
  if (list.length === total) {
    process.send?.({ type: 'arrived', id, first: Math.min(...list), slowest: Math.max(...list) });
    arrivals.delete(id);
  }
}

interface Connection {
  ready: Promise<void>;
  close(): void;
}

function socketIoClient(): Connection {
  const socket: Socket = io(url, {
    transports: ['websocket'],
    extraHeaders: { cookie },
    reconnection: false,
    forceNew: true,
  });
  if (mode === 'fanout') {
    socket.on('answerUpdate', (payload: { answer: { _id: string } }) =>
      arrived(payload.answer._id, performance.timeOrigin + performance.now()),
    );
  }
  const connected = new Promise<void>((resolve) =>
    socket.connected ? resolve() : socket.once('connect', () => resolve()),
  );
  // Refused (a cap, a rate limit): say so and stop, rather than leave the bench waiting.
  socket.once('connect_error', (error) => {
    console.error(`a socket could not connect: ${error.message}`);
    process.exit(1);
  });
  return {
    ready: connected.then(async () => {
      if (qid !== '') await socket.emitWithAck('showQuestions', [Number(qid)]);
    }),
    close: () => socket.disconnect(),
  };
}

const EVENT_PREFIX = '42["answerUpdate",';
const NOTIFICATION_PREFIX = '42["notificationUpdate",';
/** Each notification's arrival (ms since the epoch) and its delay since it was written (its createdAt). */
const notified: Array<{ at: number; delay: number }> = [];

/** Engine.io v4 on a WebSocket: open ('0'), namespace connect ('40'), ping ('2') and pong ('3'), events ('42[...]'), acks ('43'). */
function wireClient(index: number): Connection {
  const wsUrl = `${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
  const page = pages[index];
  const shown = page ? page.show : qid === '' ? [] : [Number(qid)];
  const ws = new WebSocket(wsUrl, { headers: { cookie: page?.cookie ?? cookie }, perMessageDeflate: false });
  let resolveReady: () => void = () => undefined;
  let stopping = false;
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  ws.on('close', () => {
    if (!stopping) closedEarly++;
  });
  ws.on('error', (error) => {
    console.error(`a socket could not connect: ${error.message}`);
    process.exit(1);
  });
  ws.on('message', (data: Buffer) => {
    const at = performance.timeOrigin + performance.now();
    if (page) {
      const tenth = Math.floor(at / 100);
      const bucket = received.get(tenth) ?? { frames: 0, bytes: 0 };
      bucket.frames++;
      bucket.bytes += data.length;
      received.set(tenth, bucket);
    }
    const text = data.toString();
    if (text.startsWith(EVENT_PREFIX)) {
      const [, payload] = JSON.parse(text.slice(2)) as [string, { answer: { _id: string } }];
      arrived(payload.answer._id, at);
    } else if (text.startsWith(NOTIFICATION_PREFIX)) {
      const [, payload] = JSON.parse(text.slice(2)) as [string, { createdAt: string }];
      notified.push({ at, delay: at - Date.parse(payload.createdAt) });
    } else if (text === '2') ws.send('3');
    else if (text.startsWith('0{')) ws.send('40');
    // Connected: show the questions (ack id 0); its ack ('430[]') means the rooms are joined.
    else if (text.startsWith('40') && shown.length === 0) resolveReady();
    else if (text.startsWith('40')) ws.send(`420["showQuestions",${JSON.stringify(shown)}]`);
    else if (text.startsWith('430')) resolveReady();
  });
  return {
    ready,
    close: () => {
      stopping = true;
      ws.close();
    },
  };
}

const connections: Connection[] = [];
for (let i = 0; i < total; i++) {
  connections.push(mode === 'fanout-wire' || mode === 'mix' ? wireClient(i) : socketIoClient());
  // Connect in small batches so the handshakes do not all land at once.
  if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 50));
}
await Promise.all(connections.map((connection) => connection.ready));
process.send?.({ type: 'ready' });
process.on('message', (message: { type?: string; from?: number; to?: number }) => {
  if (message.type === 'count') {
    // What arrived in [from, to) (ms since the epoch), and how many sockets closed before asked to.
    let frames = 0;
    let bytes = 0;
    for (const [tenth, bucket] of received) {
      if (tenth * 100 < (message.from ?? 0) || tenth * 100 >= (message.to ?? 0)) continue;
      frames += bucket.frames;
      bytes += bucket.bytes;
    }
    const delays = notified
      .filter(({ at }) => at >= (message.from ?? 0) && at < (message.to ?? 0))
      .map(({ delay }) => delay)
      .sort((a, b) => a - b);
    const percentile = (p: number) => (delays.length === 0 ? null : delays[Math.ceil((p / 100) * delays.length) - 1]!);
    const notifications = { count: delays.length, p50: percentile(50), p99: percentile(99) };
    process.send?.({ type: 'counted', frames, bytes, closedEarly, notifications });
  }
  if (message.type === 'stop') {
    for (const connection of connections) connection.close();
    setTimeout(() => process.exit(0), 200);
  }
});
