import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { addressKey } from '../auth/client-address.ts';

// A refused connection is never logged one by one (a flood would flood the log too).
const REFUSAL_LOG_INTERVAL_MS = 10_000;

/**
 * Caps open connections per client address and in total (config.connections), so one
 * address cannot hold every file descriptor with slow or idle connections while others wait.
 * A connection over a cap is closed at once, before a byte of it is read. The address is
 * the socket's own peer: X-Forwarded-For is a header, and no header has arrived yet.
 */
export const connectionsPlugin = fp(
  async (app: FastifyInstance) => {
    const { perAddress, total } = app.config.connections;
    // Node closes a connection past this one before it becomes a socket.
    app.server.maxConnections = total;
    const open = new Map<string, number>();
    let refused = 0;
    let lastLogged = -Infinity;

    const refuse = (socket: Socket, key: string) => {
      socket.destroy();
      refused++;
      const now = performance.now();
      if (now - lastLogged < REFUSAL_LOG_INTERVAL_MS) return;
      lastLogged = now;
      app.log.warn({ address: key, perAddress, refused }, 'connections refused: over the per-address cap');
    };

    app.server.on('connection', (socket: Socket) => {
      const key = addressKey(socket.remoteAddress ?? '');
      const count = open.get(key) ?? 0;
      if (count >= perAddress) return refuse(socket, key);
      open.set(key, count + 1);
      socket.once('close', () => {
        const left = (open.get(key) ?? 1) - 1;
        if (left === 0) open.delete(key);
        else open.set(key, left);
      });
    });
  },
  { name: 'connections' },
);
