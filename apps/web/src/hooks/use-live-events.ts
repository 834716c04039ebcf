import { useEffect, useLayoutEffect, useRef } from 'react';
import type { SocketEventName } from '@porpoise/core';
import type { SocketPayloads } from '@porpoise/core/contract';
import { useSocket } from '@/lib/socket';

/** How a live screen's data takes each event it listens to: a pure function of the data and the payload. */
export type LiveReducers<T> = { [E in SocketEventName]?: (current: T, payload: SocketPayloads[E]) => T };

/**
 * The live half of a live screen (load, then apply events): while mounted, each event of
 * `reducers` that arrives changes the data through `update`, one payload after another
 * (a viewsUpdate frame carries several). The reducers may change between renders; the
 * latest ones apply, without subscribing again.
 */
export function useLiveEvents<T>(update: (change: (current: T) => T) => void, reducers: LiveReducers<T>): void {
  const socket = useSocket();
  const latest = useRef(reducers);
  // The latest reducers, set once the render is committed (never during it).
  useLayoutEffect(() => {
    latest.current = reducers;
  });
  // The events listened to: a stable list as long as the screen names the same ones.
  const events = Object.keys(reducers).sort().join(',');
  useEffect(() => {
    const names = events.split(',').filter((name) => name !== '') as SocketEventName[];
    const handlers = names.map((event) => {
      const handler = (...payloads: Array<SocketPayloads[typeof event]>) =>
        update((current) => {
          const reduce = latest.current[event] as ((data: T, payload: unknown) => T) | undefined;
          return reduce === undefined ? current : payloads.reduce<T>((data, payload) => reduce(data, payload), current);
        });
      socket.on(event, handler);
      return [event, handler] as const;
    });
    return () => {
      for (const [event, handler] of handlers) socket.off(event, handler);
    };
  }, [socket, update, events]);
}

/**
 * Runs `effect` for each `event` payload that arrives while mounted (a side effect, such
 * as marking a message read: reducers stay pure). The latest `effect` runs.
 */
export function useSocketEvent<E extends SocketEventName>(
  event: E,
  effect: (payload: SocketPayloads[E]) => void,
): void {
  const socket = useSocket();
  const latest = useRef(effect);
  useLayoutEffect(() => {
    latest.current = effect;
  });
  useEffect(() => {
    const handler = (...payloads: Array<SocketPayloads[E]>) => {
      for (const payload of payloads) latest.current(payload);
    };
    socket.on(event, handler);
    return () => socket.off(event, handler);
  }, [socket, event]);
}
