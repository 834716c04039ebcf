// The embedded database's commits reach the disk, not only the page cache (which a power
// loss empties): Emscripten's NODEFS had no fsync, so PostgreSQL's fsync() did nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDurablePglite } from './durable-node-fs.ts';

describe('the embedded database on disk', () => {
  afterEach(() => vi.restoreAllMocks());

  it(
    'syncs a new data directory, and each commit fsyncs its WAL to the disk before it returns',
    { timeout: 120_000 },
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-fsync-'));
      // Every fsync(2) Node makes, with the file it reached (the real call still runs).
      const synced: string[] = [];
      const fileOf = (fd: number) => path.relative(dataDir, fs.readlinkSync(`/proc/self/fd/${fd}`));
      const { fsync, fsyncSync } = fs;
      vi.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
        synced.push(fileOf(fd));
        fsyncSync(fd);
      });
      vi.spyOn(fs, 'fsync').mockImplementation((fd, callback) => {
        synced.push(fileOf(fd));
        fsync(fd, callback);
      });
      const db = await openDurablePglite(dataDir);
      try {
        expect(synced).toEqual(expect.arrayContaining(['PG_VERSION', 'global/pg_control', 'base', '']));
        await db.query('create table kept (n int)');
        synced.length = 0;
        await db.query('insert into kept values (1)');
        expect(synced.filter((file) => file.startsWith('pg_wal/'))).toHaveLength(1);
        const [setting] = (await db.query<{ wal_sync_method: string }>('show wal_sync_method')).rows;
        // fdatasync() does nothing in PGlite's build: the WAL must be synced with fsync().
        expect(setting?.wal_sync_method).toBe('fsync');
      } finally {
        await db.close();
      }
    },
  );
});
