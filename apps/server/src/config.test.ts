import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { DEFAULT_CONNECTIONS_PER_ADDRESS, DEFAULT_POOL_SIZE, loadConfig, openFileLimit } from './config.ts';

describe('loadConfig', () => {
  it('keeps a few connections per process to PostgreSQL unless DATABASE_POOL_SIZE says otherwise', () => {
    expect(DEFAULT_POOL_SIZE).toBe(8);
    expect(loadConfig({}).databasePoolSize).toBe(8);
    expect(loadConfig({ DATABASE_POOL_SIZE: '3' }).databasePoolSize).toBe(3);
    expect(loadConfig({ DATABASE_POOL_SIZE: '2.7' }).databasePoolSize).toBe(2);
    // Nonsense falls back to the default, and there is always at least one connection.
    expect(loadConfig({ DATABASE_POOL_SIZE: 'many' }).databasePoolSize).toBe(8);
    expect(loadConfig({ DATABASE_POOL_SIZE: '0' }).databasePoolSize).toBe(8);
    expect(loadConfig({ DATABASE_POOL_SIZE: '-4' }).databasePoolSize).toBe(1);
  });

  it('restarts the embedded database thread 3 times a minute unless PGLITE_RESTARTS says otherwise', () => {
    expect(loadConfig({}).pgliteRestarts).toBe(3);
    expect(loadConfig({ PGLITE_RESTARTS: '0' }).pgliteRestarts).toBe(0);
    expect(loadConfig({ PGLITE_RESTARTS: '10' }).pgliteRestarts).toBe(10);
    expect(loadConfig({ PGLITE_RESTARTS: 'often' }).pgliteRestarts).toBe(3);
    expect(loadConfig({ PGLITE_RESTARTS: '-1' }).pgliteRestarts).toBe(3);
  });

  it('caps connections per address (CONNECTIONS_PER_ADDRESS) and in total below the open-file limit', () => {
    expect(DEFAULT_CONNECTIONS_PER_ADDRESS).toBe(256);
    expect(loadConfig({}, 20_000).connections).toMatchObject({ perAddress: 256, total: 16_000 });
    expect(loadConfig({ CONNECTIONS_PER_ADDRESS: '2000', MAX_CONNECTIONS: '5000' }, 20_000).connections).toMatchObject({
      perAddress: 2_000,
      total: 5_000,
    });
    // MAX_CONNECTIONS never passes the safe share of the descriptors; nonsense keeps the defaults.
    expect(loadConfig({ MAX_CONNECTIONS: '100000' }, 1_024).connections.total).toBe(819);
    expect(loadConfig({ CONNECTIONS_PER_ADDRESS: 'lots', MAX_CONNECTIONS: 'many' }, 1_024).connections).toMatchObject({
      perAddress: 256,
      total: 819,
    });
    // Read from the process itself (`ulimit -n`, which Node raises to the hard limit).
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('Max open files'));
    expect(line).toContain(` ${openFileLimit()} `);
    expect(loadConfig({}).connections.total).toBe(Math.floor(openFileLimit() * 0.8));
  });

  it('times out slow headers, slow requests and idle keep-alive connections', () => {
    expect(loadConfig({}).connections).toMatchObject({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 10_000,
      idleTimeoutMs: 60_000,
    });
    expect(loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '75000' }).connections.keepAliveTimeoutMs).toBe(75_000);
  });
});
