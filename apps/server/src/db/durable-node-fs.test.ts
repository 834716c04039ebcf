// The embedded database's commits reach the disk, not only the page cache (which a power
// loss empties): Emscripten's NODEFS had no fsync, so PostgreSQL's fsync() did nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { copyClusterTemplate, copyDataDir, openDurablePglite } from './durable-node-fs.ts';

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

describe("a backup's copy of the data directory", () => {
  const tree = (dir: string): Record<string, string> => {
    const out: Record<string, string> = {};
    const walk = (relative: string) => {
      for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
        const child = path.join(relative, entry.name);
        if (entry.isDirectory()) walk(child);
        else out[child] = fs.readFileSync(path.join(dir, child), 'utf8');
      }
    };
    walk('');
    return out;
  };

  it('copies again only what changed, deletes what went, and leaves out the lock files', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-copy-'));
    const source = path.join(base, 'pgdata');
    const target = path.join(base, 'copy');
    try {
      fs.mkdirSync(path.join(source, 'base', '1'), { recursive: true });
      const write = (file: string, text: string) => fs.writeFileSync(path.join(source, file), text);
      write('PG_VERSION', '17');
      write('postmaster.pid', '42');
      write('base/1/settled', 'old pages');
      write('base/1/grows', 'a');
      write('base/1/goes', 'gone soon');
      write('base/1/same-size', 'AAAA');
      // Written long ago: its size and time the same again mean the same bytes.
      const longAgo = new Date(Date.now() - 60_000);
      fs.utimesSync(path.join(source, 'base/1/settled'), longAgo, longAgo);
      const first = await copyDataDir(source, target);
      expect(first.has('postmaster.pid')).toBe(false);

      write('base/1/grows', 'ab');
      fs.rmSync(path.join(source, 'base/1/goes'));
      write('base/1/new', 'new file');
      // Rewritten just after the first copy saw it, keeping its size and (as coarse file times
      // can) its time: written so close to being seen, it is copied again all the same.
      const { mtime } = fs.statSync(path.join(source, 'base/1/same-size'));
      write('base/1/same-size', 'BBBB');
      fs.utimesSync(path.join(source, 'base/1/same-size'), mtime, mtime);
      const second = await copyDataDir(source, target, first);

      const expected = tree(source);
      delete expected['postmaster.pid'];
      expect(tree(target)).toEqual(expected);
      expect(second.get('base/1/settled')).toBe(first.get('base/1/settled'));
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});

describe("a new data directory from the build's cluster", () => {
  it(
    'is copied whole, synced and renamed into place, and opens without initdb; never over a directory in use',
    { timeout: 120_000 },
    async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-template-'));
      try {
        // The build's template (apps/server/make-cluster-template.mjs): a new cluster, opened and closed once.
        const template = path.join(root, 'template');
        const made = await PGlite.create({ fs: new NodeFS(template) });
        const identifier = 'select system_identifier::text as id from pg_control_system()';
        const [cluster] = (await made.query<{ id: string }>(identifier)).rows;
        await made.close();
        fs.rmSync(path.join(template, 'postmaster.pid'), { force: true });

        // Missing, or empty: the template is copied, every file synced, and nothing is left beside it.
        const dataDir = path.join(root, 'data', 'pgdata');
        fs.mkdirSync(path.dirname(dataDir));
        const synced = new Set<string>();
        const { fsync } = fs;
        vi.spyOn(fs, 'fsync').mockImplementation((fd, callback) => {
          synced.add(fs.readlinkSync(`/proc/self/fd/${fd}`));
          fsync(fd, callback);
        });
        expect(await copyClusterTemplate(dataDir, template)).toBe(true);
        expect(fs.readFileSync(path.join(dataDir, 'PG_VERSION'), 'utf8')).toBe(
          fs.readFileSync(path.join(template, 'PG_VERSION'), 'utf8'),
        );
        expect(fs.readdirSync(path.dirname(dataDir))).toEqual(['pgdata']);
        // Synced where it was copied (beside dataDir, then renamed): its control file among them.
        expect([...synced].some((file) => file.endsWith(path.join('global', 'pg_control')))).toBe(true);
        vi.restoreAllMocks();

        const db = await openDurablePglite(dataDir);
        try {
          // The template's cluster itself, not one initdb made anew.
          expect((await db.query<{ id: string }>(identifier)).rows).toEqual([cluster]);
          await db.query('create table kept (n int)');
          await db.query('insert into kept values (7)');
        } finally {
          await db.close();
        }
        // A directory that holds anything is never replaced: the data stays.
        expect(await copyClusterTemplate(dataDir, template)).toBe(false);
        const again = await openDurablePglite(dataDir);
        try {
          expect((await again.query<{ n: number }>('select n from kept')).rows).toEqual([{ n: 7 }]);
        } finally {
          await again.close();
        }

        // No template (running from source): PGlite's own initdb, as before.
        expect(await copyClusterTemplate(path.join(root, 'other'), path.join(root, 'none'))).toBe(false);
        expect(fs.existsSync(path.join(root, 'other'))).toBe(false);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  );
});
