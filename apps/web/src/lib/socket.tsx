import { createContext, use, type ReactNode } from 'react';
import { io, type Socket } from 'socket.io-client';

/**
 * Opens the app's one real-time connection (spec section 1) and closes it when the
 * page is left. Created outside React so that StrictMode's double effects and
 * re-renders never open a second connection.
 */
export function openAppSocket(): Socket {
  // Same origin and the default /socket.io path; the session cookie authenticates it.
  // WebSocket first: one connection that stays with one server process (so several
  // processes behind one port need no sticky sessions) and no polling round trips.
  const socket = io({ withCredentials: true, transports: ['websocket', 'polling'], tryAllTransports: true });

  // pagehide (rather than unload, which disables the back/forward cache) covers both
  // closing the tab and the page being put into that cache.
  window.addEventListener('pagehide', () => {
    socket.disconnect();
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) socket.connect();
  });
  return socket;
}

/**
 * The server reads the session cookie only when a socket connects, so after signing
 * in or out the connection is reopened to be authenticated as the new user.
 */
export function reconnectSocket(socket: Socket): void {
  socket.disconnect();
  socket.connect();
}

const SocketContext = createContext<Socket | null>(null);

export function SocketProvider({ socket, children }: { socket: Socket; children: ReactNode }) {
  return <SocketContext value={socket}>{children}</SocketContext>;
}

/** The shared connection; every component uses this one instead of opening its own. */
export function useSocket(): Socket {
  const socket = use(SocketContext);
  if (socket === null) throw new Error('useSocket must be used inside SocketProvider');
  return socket;
}
