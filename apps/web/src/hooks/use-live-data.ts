import { useLayoutEffect, useState } from 'react';
import { useLiveEvents, type LiveReducers } from './use-live-events';

type Change<T> = (current: T) => T;

/** At most this many changes wait for data still loading; a burst beyond it is dropped. */
const MAX_WAITING = 500;

/**
 * The events of a live screen, heard from the moment the screen opens: changes that arrive
 * while its data is still loading wait, and apply once it is there (nothing said in the
 * meantime is lost). `update` takes a local change the same way (a message this tab sent).
 */
export class LiveFeed<T> {
  #waiting: Array<Change<T>> = [];
  #target: ((change: Change<T>) => void) | null = null;

  readonly update = (change: Change<T>): void => {
    if (this.#target !== null) this.#target(change);
    else if (this.#waiting.length < MAX_WAITING) this.#waiting.push(change);
  };

  /** Hands every waiting change, then each new one, to `target`; returns the detach. */
  attach(target: (change: Change<T>) => void): () => void {
    for (const change of this.#waiting.splice(0)) target(change);
    this.#target = target;
    return () => {
      if (this.#target === target) this.#target = null;
    };
  }
}

/** Listens to the events of `reducers` for as long as the calling screen is open. */
export function useLiveFeed<T>(reducers: LiveReducers<T>): LiveFeed<T> {
  const [feed] = useState(() => new LiveFeed<T>());
  useLiveEvents(feed.update, reducers);
  return feed;
}

/**
 * A live screen's data (load, then apply events): starts from what the route loaded and
 * takes each change of `feed`, those that came while it loaded first. New loader data
 * (the route revalidated) replaces what is shown.
 */
export function useLiveData<T>(loaded: T, feed: LiveFeed<T>): [T, (change: Change<T>) => void] {
  const [state, setState] = useState({ loaded, data: loaded });
  if (state.loaded !== loaded) setState({ loaded, data: loaded });
  const [apply] = useState(
    () => (change: Change<T>) => setState((previous) => ({ ...previous, data: change(previous.data) })),
  );
  useLayoutEffect(() => feed.attach(apply), [feed, apply]);
  return [state.loaded === loaded ? state.data : loaded, feed.update];
}
