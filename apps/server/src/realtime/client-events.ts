import { CLIENT_SOCKET_EVENTS, CLIENT_SOCKET_LIMITS } from '@porpoise/core';
import { showQuestionsInput } from '@porpoise/core/schemas';
import type { DefaultEventsMap, Socket } from 'socket.io';
import { rooms } from './rooms.ts';

type AppSocket = Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, { accountId: number | null }>;

/** socket.io packet types a client may send once connected: DISCONNECT (1) and EVENT (2). */
const ALLOWED_PACKETS = new Set(['1', '2']);

/** Puts a signed-in socket in the rooms of the questions it shows, and in no other question's. */
function showQuestions(socket: AppSocket, ids: number[]): void {
  // Questions are for members; an anonymous socket (PorpChat) hears none.
  if (socket.data.accountId === null) return;
  for (const room of socket.rooms) if (rooms.isQuestion(room)) void socket.leave(room);
  void socket.join(ids.map((id) => rooms.question(id)));
}

/**
 * Lets a socket send only the events the web app sends (docs/product.md section 6), each checked
 * by its schema and at most CLIENT_SOCKET_LIMITS.perWindow per window; anything else (an
 * unknown event, a bad payload, a binary frame, an ack, too many) disconnects that socket.
 * Frames over CLIENT_SOCKET_LIMITS.frameBytesMax never get here: engine.io closes the socket.
 */
export function acceptClientEvents(socket: AppSocket): void {
  let windowStart = performance.now();
  let count = 0;
  socket.conn.on('packet', (packet: { type: string; data?: unknown }) => {
    if (packet.type !== 'message') return;
    const { data } = packet;
    if (typeof data !== 'string' || !ALLOWED_PACKETS.has(data.charAt(0))) socket.disconnect(true);
  });
  socket.use(([event, ...args]) => {
    const now = performance.now();
    if (now - windowStart >= CLIENT_SOCKET_LIMITS.windowMs) [windowStart, count] = [now, 0];
    count++;
    const [ids, ack, ...extra] = args as unknown[];
    const wellFormed =
      count <= CLIENT_SOCKET_LIMITS.perWindow &&
      event === CLIENT_SOCKET_EVENTS.showQuestions &&
      extra.length === 0 &&
      (ack === undefined || typeof ack === 'function');
    const parsed = wellFormed ? showQuestionsInput.safeParse(ids) : undefined;
    if (!parsed?.success) return void socket.disconnect(true);
    showQuestions(socket, parsed.data);
    // The web app (and tests) wait for this answer to know the rooms are joined.
    if (typeof ack === 'function') (ack as () => void)();
  });
}
