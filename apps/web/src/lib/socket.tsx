import { createContext, use, type ReactNode } from 'react';
import { CLIENT_SOCKET_EVENTS, CLIENT_SOCKET_LIMITS, type SocketEventName } from '@porpoise/core';
import type { SocketPayloads } from '@porpoise/core/contract';
import type { Socket } from 'socket.io-client';

/** A handler as socket.io keeps it (each event's own payload type is AppSocket's). */
type Handler = (...payloads: unknown[]) => void;

/** The app's one real-time connection, as components use it. */
export interface AppSocket {
  /** A frame carries one payload (viewsUpdate: one or more) of the contract's shape for the event. */
  on<E extends SocketEventName>(event: E, handler: (...payloads: Array<SocketPayloads[E]>) => void): void;
  off<E extends SocketEventName>(event: E, handler: (...payloads: Array<SocketPayloads[E]>) => void): void;
  /**
   * Tells the server which questions this page shows (replacing the previous ids), so that
   * it hears their events (docs/product.md section 3). Sent after every (re)connection too.
   */
  showQuestions(ids: string[]): void;
  /**
   * The server reads the session cookie only when a socket connects, so after signing
   * in or out the connection is reopened to be authenticated as the new user.
   */
  reconnect(): void;
}

/**
 * Opens the app's one real-time connection (spec section 1) and closes it when the page
 * is left. Created outside React so that StrictMode's double effects and re-renders never
 * open a second connection. The socket.io client is loaded once `firstScreen` settles (it
 * is not needed to paint the first screen, and loading it sooner slows that paint):
 * handlers registered before then are attached once it arrives.
 */
export function openAppSocket(firstScreen: Promise<unknown> = Promise.resolve()): AppSocket {
  const handlers = new Map<SocketEventName, Set<Handler>>();
  let socket: Socket | null = null;

  // The shown ids go out at most once per CLIENT_SOCKET_LIMITS.spacingMs (the server
  // disconnects a socket that sends faster), the latest set winning; changes made in one
  // render (a page left, the next shown) go out as one.
  let shown: number[] = [];
  let sentKey = '';
  let lastSent = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const key = shown.join(',');
    if (socket?.connected !== true || key === sentKey) return;
    // The server answers (an ack) once the socket is in those questions' rooms.
    socket.emit(CLIENT_SOCKET_EVENTS.showQuestions, shown, () => undefined);
    sentKey = key;
    lastSent = performance.now();
  };
  const schedule = () => {
    timer ??= setTimeout(flush, Math.max(0, lastSent + CLIENT_SOCKET_LIMITS.spacingMs - performance.now()));
  };

  void firstScreen
    .then(() => import('socket.io-client'))
    .then(({ io }) => {
      // Same origin and the default /socket.io path; the session cookie authenticates it.
      // WebSocket first: one connection that stays with one server process (so several
      // processes behind one port need no sticky sessions) and no polling round trips.
      const opened = io({ withCredentials: true, transports: ['websocket', 'polling'], tryAllTransports: true });
      for (const [event, set] of handlers) for (const handler of set) opened.on(event, handler);
      // A new connection is a new socket on the server, in no question's room yet: it
      // shows nothing until told, so an empty set is never sent to it (the first ids a
      // page shows go out at once instead of after a spacing spent on nothing).
      opened.on('connect', () => {
        sentKey = '';
        lastSent = -Infinity;
        schedule();
      });
      socket = opened;
      // pagehide (rather than unload, which disables the back/forward cache) covers both
      // closing the tab and the page being put into that cache.
      window.addEventListener('pagehide', () => opened.disconnect());
      window.addEventListener('pageshow', (event) => {
        if (event.persisted) opened.connect();
      });
    });

  return {
    on(event, handler) {
      const set = handlers.get(event) ?? new Set<Handler>();
      set.add(handler as Handler);
      handlers.set(event, set);
      const name: SocketEventName = event;
      socket?.on(name, handler as Handler);
    },
    off(event, handler) {
      handlers.get(event)?.delete(handler as Handler);
      const name: SocketEventName = event;
      socket?.off(name, handler as Handler);
    },
    showQuestions(ids) {
      shown = ids
        .map(Number)
        .filter((id) => Number.isInteger(id) && id > 0)
        .slice(0, CLIENT_SOCKET_LIMITS.shownQuestionsMax);
      schedule();
    },
    reconnect() {
      socket?.disconnect();
      socket?.connect();
    },
  };
}

const SocketContext = createContext<AppSocket | null>(null);

export function SocketProvider({ socket, children }: { socket: AppSocket; children: ReactNode }) {
  return <SocketContext value={socket}>{children}</SocketContext>;
}

/** The shared connection; every component uses this one instead of opening its own. */
export function useSocket(): AppSocket {
  const socket = use(SocketContext);
  if (socket === null) throw new Error('useSocket must be used inside SocketProvider');
  return socket;
}
