// A separate process holding N socket.io clients. It connects them, reports 'ready', then
// for each answerUpdate reports when the slowest client got it; or, in idle mode, just holds them.
import { io, type Socket } from 'socket.io-client';

const [url = '', count = '1000', cookie = '', mode = 'fanout'] = process.argv.slice(2);
const sockets: Socket[] = [];
const arrivals = new Map<string, number[]>();
const total = Number(count);

for (let i = 0; i < total; i++) {
  const socket = io(url, { transports: ['websocket'], extraHeaders: { cookie }, reconnection: false, forceNew: true });
  if (mode === 'fanout') {
    socket.on('answerUpdate', (payload: { answer: { _id: string } }) => {
      const at = performance.timeOrigin + performance.now();
      const list = arrivals.get(payload.answer._id) ?? [];
      list.push(at);
      arrivals.set(payload.answer._id, list);
      if (list.length === total)
        process.send?.({
          type: 'arrived',
          id: payload.answer._id,
          first: Math.min(...list),
          slowest: Math.max(...list),
        });
    });
  }
  sockets.push(socket);
  // Connect in small batches so the handshakes do not all land at once.
  if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 50));
}
const connectedOnce = (socket: Socket) =>
  new Promise<void>((resolve) => {
    if (socket.connected) resolve();
    else socket.once('connect', () => resolve());
  });
await Promise.all(sockets.map(connectedOnce));
process.send?.({ type: 'ready' });
process.on('message', (message: { type?: string }) => {
  if (message.type === 'stop') {
    for (const socket of sockets) socket.disconnect();
    setTimeout(() => process.exit(0), 200);
  }
});
