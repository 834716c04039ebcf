import { describe, expect, it } from 'vitest';
import { DEFAULT_POOL_SIZE, loadConfig } from './config.ts';

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
});
