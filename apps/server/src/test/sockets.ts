import { CLIENT_SOCKET_EVENTS } from '@porpoise/core';
import { io as connect, type Socket } from 'socket.io-client';
import WebSocket from 'ws';

/** Opens a real socket.io client to a test server, optionally with a session cookie or an Origin. */
export function openSocket(url: string, headers: Record<string, string> = {}): Socket {
  return connect(url, { transports: ['websocket'], extraHeaders: headers, reconnection: false, forceNew: true });
}

export function connected(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.connected) return resolve();
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
}

/** Resolves with the next payload of `event`, or rejects after `ms`. */
export function nextEvent<T = unknown>(socket: Socket, event: string, ms = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

/** Records every event a socket receives, to prove that nothing arrived. */
export function recordAll(socket: Socket): Array<{ event: string; payload: unknown }> {
  const seen: Array<{ event: string; payload: unknown }> = [];
  socket.onAny((event: string, payload: unknown) => seen.push({ event, payload }));
  return seen;
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Checks `condition` every 20 ms until it holds or `ms` have passed (the caller asserts after). */
export async function until(condition: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  for (let waited = 0; !(await condition()) && waited < ms; waited += 20) await pause(20);
}

/** Tells the server which questions `socket` shows, as the web app does; resolves once it has joined their rooms. */
export async function showQuestions(socket: Socket, ids: Array<number | string>): Promise<void> {
  await socket.timeout(5_000).emitWithAck(CLIENT_SOCKET_EVENTS.showQuestions, ids.map(Number));
}

/**
 * The status a bare socket.io WebSocket handshake with these headers gets: 101 once open
 * (closed again at once), else the refusal's (engine.io refuses an upgrade with 400).
 */
export function websocketStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`, { headers });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', reject);
  });
}
