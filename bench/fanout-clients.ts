// A separate process holding N socket.io connections. It connects them, reports 'ready', then
// for each answerUpdate reports when the first and the slowest connection got it; or, in idle
// mode, just holds them.
//
// Modes: 'fanout' uses socket.io-client; 'fanout-wire' speaks the socket.io protocol on bare
// WebSockets (the `ws` package that socket.io-client itself uses in Node) and notes each
// frame's arrival before decoding it. A thousand socket.io-client instances in one process
// decode every frame in turn on one thread, which a thousand readers on their own devices
// do not; the wire mode measures the server's delivery without that queue.
import WebSocket from 'ws';
import { io, type Socket } from 'socket.io-client';

// qid: the question whose answers are timed; each socket shows it, as its page would.
const [url = '', count = '1000', cookie = '', mode = 'fanout', qid = ''] = process.argv.slice(2);
const total = Number(count);
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
  return {
    ready: connected.then(async () => {
      if (qid !== '') await socket.emitWithAck('showQuestions', [Number(qid)]);
    }),
    close: () => socket.disconnect(),
  };
}

const EVENT_PREFIX = '42["answerUpdate",';

/** Engine.io v4 on a WebSocket: open ('0'), namespace connect ('40'), ping ('2') and pong ('3'), events ('42[...]'), acks ('43'). */
function wireClient(): Connection {
  const wsUrl = `${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
  const ws = new WebSocket(wsUrl, { headers: { cookie }, perMessageDeflate: false });
  let resolveReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  ws.on('message', (data: Buffer) => {
    const at = performance.timeOrigin + performance.now();
    const text = data.toString();
    if (text.startsWith(EVENT_PREFIX)) {
      const [, payload] = JSON.parse(text.slice(2)) as [string, { answer: { _id: string } }];
      arrived(payload.answer._id, at);
    } else if (text === '2') ws.send('3');
    else if (text.startsWith('0{')) ws.send('40');
    // Connected: show the question (ack id 0); its ack ('430[]') means the room is joined.
    else if (text.startsWith('40') && qid === '') resolveReady();
    else if (text.startsWith('40')) ws.send(`420["showQuestions",[${Number(qid)}]]`);
    else if (text.startsWith('430')) resolveReady();
  });
  return { ready, close: () => ws.close() };
}

const connections: Connection[] = [];
for (let i = 0; i < total; i++) {
  connections.push(mode === 'fanout-wire' ? wireClient() : socketIoClient());
  // Connect in small batches so the handshakes do not all land at once.
  if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 50));
}
await Promise.all(connections.map((connection) => connection.ready));
process.send?.({ type: 'ready' });
process.on('message', (message: { type?: string }) => {
  if (message.type === 'stop') {
    for (const connection of connections) connection.close();
    setTimeout(() => process.exit(0), 200);
  }
});
