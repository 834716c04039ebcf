// Trust #23 item 2: slow senders cannot hold the server. A request whose headers or body
// trickle in is answered 408 and closed once its timeout passes, and connections past the
// per-address cap (socket.io's WebSockets included) are closed at once, while another
// address is served, and so is the same address once its slow connections are dropped.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DATABASE_KINDS } from '../test/databases.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

const HEADERS_TIMEOUT_MS = 400;
const REQUEST_TIMEOUT_MS = 800;
const PER_ADDRESS = 3;
// The tests all run on loopback; a second address of it stands for another client.
const OTHER_ADDRESS = '127.0.0.2';

interface RawConnection {
  socket: net.Socket;
  /** Everything the server has sent so far. */
  received(): string;
  /** Resolves once the server has sent `text`. */
  sees(text: string): Promise<void>;
  /** Resolves when the connection is closed, with what the server sent and when. */
  closed: Promise<{ data: string; at: number }>;
}

/** A plain TCP connection to the test server, from `localAddress`, that writes what it is told. */
async function connect(url: string, localAddress = '127.0.0.1'): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port), localAddress });
  let data = '';
  const waiting: Array<{ text: string; resolve: () => void }> = [];
  socket.on('data', (chunk: Buffer) => {
    data += chunk.toString('latin1');
    for (const wait of waiting.filter((entry) => data.includes(entry.text))) wait.resolve();
  });
  // A server that closes while we still write may reset the connection: that is a close too.
  socket.on('error', () => undefined);
  const closed = new Promise<{ data: string; at: number }>((resolve) =>
    socket.once('close', () => resolve({ data, at: performance.now() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return {
    socket,
    received: () => data,
    sees: (text) =>
      data.includes(text) ? Promise.resolve() : new Promise((resolve) => waiting.push({ text, resolve })),
    closed,
  };
}

const healthzRequest = (close: boolean) =>
  `GET /api/healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n${close ? 'Connection: close\r\n' : ''}\r\n`;

/** GET /api/healthz on a new connection from `localAddress`: the status line, or '' when closed unanswered. */
async function healthzFrom(url: string, localAddress?: string): Promise<string> {
  const connection = await connect(url, localAddress);
  connection.socket.write(healthzRequest(true));
  const { data } = await connection.closed;
  return data.slice(0, data.indexOf('\r\n') + 1).trim();
}

/** A raw socket.io WebSocket from `localAddress` that has completed its handshake and answers pings. */
async function openWebSocket(url: string, localAddress: string): Promise<WebSocket> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`, { localAddress });
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (raw: Buffer) => {
      const frame = raw.toString();
      if (frame.startsWith('0')) ws.send('40');
      if (frame.startsWith('40')) resolve();
      if (frame === '2') ws.send('3');
    });
  });
  return ws;
}

describe.each(DATABASE_KINDS)('slow and numerous connections on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind, {
      configure: (config) => {
        config.connections = {
          ...config.connections,
          headersTimeoutMs: HEADERS_TIMEOUT_MS,
          requestTimeoutMs: REQUEST_TIMEOUT_MS,
          perAddress: PER_ADDRESS,
        };
      },
    });
  });
  afterAll(async () => t?.close());

  it('answers a request whose body trickles in with 408 and closes it once the request timeout passes', async () => {
    const slow = await connect(t.url);
    const started = performance.now();
    slow.socket.write(
      'POST /api/account/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    // One byte each time the server has had a moment, never the whole body: only the request
    // timeout can end this (the idle timeout never sees the line quiet).
    const drip = setInterval(() => slow.socket.writable && slow.socket.write(' '), 50);
    const { data, at } = await slow.closed;
    clearInterval(drip);
    expect(at - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS);
    // The 408 may be lost to a reset while we were still writing; it is never another answer.
    if (data !== '') expect(data).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers a request whose headers trickle in with 408 once the header timeout passes', async () => {
    const slow = await connect(t.url);
    const started = performance.now();
    slow.socket.write('POST /api/account/login HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const drip = setInterval(() => slow.socket.writable && slow.socket.write('X-Slow: 1\r\n'), 50);
    const { data, at } = await slow.closed;
    clearInterval(drip);
    expect(at - started).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS);
    expect(at - started).toBeLessThan(REQUEST_TIMEOUT_MS + 1_000);
    if (data !== '') expect(data).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes connections over the per-address cap at once; health answers another address, and this one once the slow ones are dropped', async () => {
    // The cap's three: a live socket.io WebSocket and two connections that were served once
    // (so the server surely holds them) and now send their next request's headers slowly.
    const ws = await openWebSocket(t.url, '127.0.0.1');
    const slow = await Promise.all(
      [0, 1].map(async () => {
        const connection = await connect(t.url);
        connection.socket.write(healthzRequest(false));
        await connection.sees('"status":"ok"');
        connection.socket.write('POST /api/account/login HTTP/1.1\r\nHost: 127.0.0.1\r\n');
        return connection;
      }),
    );

    // A fourth from the same address is closed before it is answered.
    expect(await healthzFrom(t.url)).toBe('');
    // Another address is served meanwhile.
    expect(await healthzFrom(t.url, OTHER_ADDRESS)).toBe('HTTP/1.1 200 OK');

    // The slow ones are dropped by their header timeout, and their places are free again;
    // the WebSocket, quiet but alive, is left alone.
    for (const { data } of await Promise.all(slow.map((connection) => connection.closed))) {
      const statuses = [...data.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1]);
      expect(['200', '200,408']).toContain(statuses.join(','));
    }
    expect(await healthzFrom(t.url)).toBe('HTTP/1.1 200 OK');
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
  });

  it('closes connections past the total cap, from any address, before they are answered', async () => {
    const small = await startTestApp(kind, {
      configure: (config) => void (config.connections = { ...config.connections, total: 2 }),
    });
    try {
      // Two served keep-alive connections fill it (the server surely holds both).
      const held = await Promise.all(
        [0, 1].map(async () => {
          const connection = await connect(small.url);
          connection.socket.write(healthzRequest(false));
          await connection.sees('"status":"ok"');
          return connection;
        }),
      );
      expect(await healthzFrom(small.url, OTHER_ADDRESS)).toBe('');
      for (const connection of held) connection.socket.destroy();
    } finally {
      await small.close();
    }
  });
});
