import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe('ReadCache', () => {
  it('loads once and answers repeats from memory', async () => {
    const cache = new ReadCache<number>(10);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('b', load)).toBe(2);
    expect(loads).toBe(2);
  });

  it('shares one load among requests that arrive while it runs', async () => {
    const cache = new ReadCache<string>(10);
    const gate = deferred<string>();
    let loads = 0;
    const load = () => {
      loads += 1;
      return gate.promise;
    };
    const both = Promise.all([cache.get('k', load), cache.get('k', load)]);
    gate.resolve('v');
    expect(await both).toEqual(['v', 'v']);
    expect(loads).toBe(1);
  });

  it('forgets everything on clear, and never keeps a load that was running across it', async () => {
    const cache = new ReadCache<string>(10);
    const stale = deferred<string>();
    const before = cache.get('k', () => stale.promise);
    cache.clear();
    // A request after the change does not join the load from before it.
    const after = cache.get('k', async () => 'fresh');
    stale.resolve('stale');
    expect(await before).toBe('stale');
    expect(await after).toBe('fresh');
    expect(await cache.get('k', async () => 'reloaded')).toBe('fresh');
    cache.clear();
    expect(await cache.get('k', async () => 'reloaded')).toBe('reloaded');
  });

  it('does not keep failed loads', async () => {
    const cache = new ReadCache<string>(10);
    await expect(cache.get('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('k', async () => 'ok')).toBe('ok');
  });

  it('drops the oldest entry past its size', async () => {
    const cache = new ReadCache<string>(2);
    await cache.get('a', async () => 'a');
    await cache.get('b', async () => 'b');
    await cache.get('c', async () => 'c');
    expect(cache.size).toBe(2);
    expect(await cache.get('a', async () => 'a again')).toBe('a again');
    expect(await cache.get('c', async () => 'c again')).toBe('c');
  });

  it('drops the least recently read entry first: a hit keeps a popular page in', async () => {
    const cache = new ReadCache<string>(2);
    await cache.get('hot', async () => 'hot');
    await cache.get('b', async () => 'b');
    expect(await cache.get('hot', async () => 'hot again')).toBe('hot'); // read: now the newest
    await cache.get('c', async () => 'c'); // b goes, not hot
    expect(await cache.get('hot', async () => 'hot again')).toBe('hot');
    expect(await cache.get('b', async () => 'b again')).toBe('b again');
  });

  it('drops what a write touched, by key or by what it holds, and never keeps a load that overlapped it', async () => {
    const cache = new ReadCache<{ ids: number[] }>(10);
    await cache.get('one', async () => ({ ids: [1] }));
    await cache.get('two', async () => ({ ids: [2] }));
    let finish: (value: { ids: number[] }) => void = () => {};
    const pending = cache.get('three', () => new Promise((resolve) => (finish = resolve)));
    const untouched = cache.get('four', async () => ({ ids: [4] }));
    cache.invalidate((_key, value) => value.ids.includes(1) || value.ids.includes(3));
    finish({ ids: [3] });
    await Promise.all([pending, untouched]);
    expect(cache.peek('one')).toBeUndefined();
    expect(cache.peek('two')).toEqual({ ids: [2] });
    expect(cache.peek('three')).toBeUndefined(); // it loaded during the write and holds 3
    expect(cache.peek('four')).toEqual({ ids: [4] }); // it loaded during the write but holds nothing touched
  });

  it('loads every time while it is not usable (a change could go unheard)', async () => {
    let usable = false;
    const cache = new ReadCache<number>(10, () => usable);
    let loads = 0;
    const load = async () => ++loads;
    await cache.get('k', load);
    await cache.get('k', load);
    expect(loads).toBe(2);
    usable = true;
    await cache.get('k', load);
    await cache.get('k', load);
    expect(loads).toBe(3);
  });

  it('never holds more than its byte budget, oldest out first, and keeps no entry over the largest', async () => {
    const cache = new ReadCache<string>(100, () => true, {
      maxBytes: 10,
      maxEntryBytes: 6,
      sizeOf: (value) => value.length,
    });
    for (const key of ['a', 'b', 'c', 'd', 'e']) {
      await cache.get(key, async () => key.repeat(3));
      expect(cache.bytes).toBeLessThanOrEqual(10);
    }
    expect(cache.size).toBe(3);
    expect(await cache.get('e', async () => 'reloaded')).toBe('eee');
    expect(await cache.get('a', async () => 'aaa again')).toBe('aaa again');
    let loads = 0;
    const big = async () => {
      loads += 1;
      return 'x'.repeat(7);
    };
    await cache.get('big', big);
    await cache.get('big', big);
    expect(loads).toBe(2);
    expect(cache.bytes).toBe(9);
    cache.clear();
    expect(cache.bytes).toBe(0);
  });
});
