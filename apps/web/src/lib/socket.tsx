import { createContext, use, type ReactNode } from 'react';
import type { SocketEventName } from '@porpoise/core';
import type { Socket } from 'socket.io-client';

type Handler = (payload: unknown) => void;

/** The app's one real-time connection, as components use it. */
export interface AppSocket {
  on<T>(event: SocketEventName, handler: (payload: T) => void): void;
  off<T>(event: SocketEventName, handler: (payload: T) => void): void;
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

  void firstScreen
    .then(() => import('socket.io-client'))
    .then(({ io }) => {
      // Same origin and the default /socket.io path; the session cookie authenticates it.
      // WebSocket first: one connection that stays with one server process (so several
      // processes behind one port need no sticky sessions) and no polling round trips.
      const opened = io({ withCredentials: true, transports: ['websocket', 'polling'], tryAllTransports: true });
      for (const [event, set] of handlers) for (const handler of set) opened.on(event, handler);
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
      socket?.on(event, handler as Handler);
    },
    off(event, handler) {
      handlers.get(event)?.delete(handler as Handler);
      socket?.off(event, handler as Handler);
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
