import { useCallback, useEffect, useEffectEvent, useState } from 'react';

export type RemoteData<T> = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; data: T };

interface Keyed<T> {
  key: string;
  result: RemoteData<T>;
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * Loads data for a key (a URL-like string naming what is shown) and keeps it in state so
 * that live socket updates can change it. A new key shows 'loading' until its own answer
 * arrives; an answer for an older key is dropped (its request is aborted).
 */
export function useRemoteData<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
): [RemoteData<T>, (update: (data: T) => T) => void] {
  const [state, setState] = useState<Keyed<T> | null>(null);
  const run = useEffectEvent((signal: AbortSignal) => load(signal));

  useEffect(() => {
    const controller = new AbortController();
    run(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ key, result: { status: 'ready', data } });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbort(error)) return;
        setState({ key, result: { status: 'error', error } });
      },
    );
    return () => controller.abort();
  }, [key]);

  const update = useCallback(
    (change: (data: T) => T) => {
      setState((previous) =>
        previous !== null && previous.key === key && previous.result.status === 'ready'
          ? { key, result: { status: 'ready', data: change(previous.result.data) } }
          : previous,
      );
    },
    [key],
  );

  const result: RemoteData<T> = state !== null && state.key === key ? state.result : { status: 'loading' };
  return [result, update];
}
