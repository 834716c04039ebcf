// PGlite keeps a data directory in real files through Emscripten's NODEFS, which has no
// fsync: PostgreSQL's fsync() returned at once and a commit reached only the page cache
// (a kill -9 kept it, a power loss would not). This file system syncs for real.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

type EmscriptenOptions = Parameters<NodeFS['init']>[1];

/** The parts of Emscripten's NODEFS this file reaches into (not in PGlite's types). */
interface Nodefs {
  stream_ops: { fsync?: (stream: { nfd: number }) => number };
  tryFSOperation<T>(operation: () => T): T;
}

/** NodeFS whose fsync reaches the disk: fsync(2) on the file's own descriptor. */
export class DurableNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: EmscriptenOptions): Promise<{ emscriptenOpts: EmscriptenOptions }> {
    const { emscriptenOpts } = await super.init(pg, opts);
    const addFsync = (module: EmscriptenOptions) => {
      const nodefs = (module as unknown as { NODEFS: Nodefs }).NODEFS;
      // tryFSOperation turns a failing fsync (EIO) into an error PostgreSQL sees, and it PANICs.
      nodefs.stream_ops.fsync = (stream) => {
        nodefs.tryFSOperation(() => fs.fsyncSync(stream.nfd));
        return 0;
      };
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), addFsync] } };
  }
}

/**
 * PGlite's start parameters with fsync on: its defaults pass -F (fsync off). WAL is synced
 * with fsync(), since fdatasync() does nothing in PGlite's build (PostgreSQL's default
 * wal_sync_method on Linux). 32 MB of shared buffers: PGlite's 128 MB were all resident
 * from the start (RSS 362 MB before a single request on 100k questions); the OS's file
 * cache keeps the rest.
 */
export const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
  '-c',
  'wal_sync_method=fsync',
  '-c',
  'shared_buffers=32MB',
];

/**
 * Opens PGlite on a data directory, durable on disk, or in memory (dataDir undefined). A new
 * directory is synced whole once made, as initdb does: PGlite copies a new cluster's files
 * into it without syncing them. In memory, `startFrom` (a tarball of PGlite's dumpDataDir)
 * replaces the new cluster: the tests start each database from one made and migrated once.
 */
export async function openDurablePglite(dataDir: string | undefined, startFrom?: string): Promise<PGlite> {
  if (dataDir === undefined) {
    const loadDataDir = startFrom === undefined ? undefined : new Blob([fs.readFileSync(startFrom)]);
    return PGlite.create({ startParams: PGLITE_START_PARAMS, loadDataDir });
  }
  let fresh = !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  if (fresh && (await copyClusterTemplate(dataDir))) fresh = false;
  const db = await PGlite.create({ fs: new DurableNodeFS(dataDir), startParams: PGLITE_START_PARAMS });
  if (fresh) await syncTree(dataDir);
  return db;
}

/**
 * The new cluster the build makes (apps/server/make-cluster-template.mjs), beside the bundled
 * thread: dist/pgdata-template. Absent when running from source (development, tests), where
 * PGlite runs initdb as before. PGlite's initdb, run in the server, peaked at about 800 MB RSS:
 * a second WebAssembly instance whose 128 MB heap it copies and restores around each run, then
 * the whole cluster tarred and untarred in memory, much of it left in malloc's arenas (issue 39).
 */
const CLUSTER_TEMPLATE = fileURLToPath(new URL('./pgdata-template', import.meta.url));

/**
 * Copies a new cluster (`template`, the build's by default) into `dataDir` if there is one and
 * `dataDir` is missing or empty: copied beside it, synced, then renamed into place and the
 * rename synced, so a copy cut short leaves no half cluster. Whether it did; if not, PGlite
 * runs initdb.
 */
export async function copyClusterTemplate(dataDir: string, template = CLUSTER_TEMPLATE): Promise<boolean> {
  if (!fs.existsSync(path.join(template, 'PG_VERSION'))) return false;
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) return false;
  const staging = `${dataDir}.new-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  await copyDataDir(template, staging);
  await syncTree(staging);
  fs.rmSync(dataDir, { recursive: true, force: true }); // missing or empty
  fs.renameSync(staging, dataDir);
  const parent = fs.openSync(path.dirname(dataDir), 'r');
  try {
    fs.fsyncSync(parent);
  } finally {
    fs.closeSync(parent);
  }
  return true;
}

/** Every file and directory under `dir`, the directories after their contents. */
function treeOf(dir: string): string[] {
  const paths: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) paths.push(...treeOf(entryPath));
    else if (entry.isFile()) paths.push(entryPath);
  }
  paths.push(dir);
  return paths;
}

/**
 * fsyncs every file and directory under `dir`, 16 at a time: the disk flushes them together
 * (a new cluster's 1,100 files: 2.0 s one after another, 0.5 s 16 at a time, on this
 * project's machine).
 */
async function syncTree(dir: string): Promise<void> {
  const paths = treeOf(dir);
  let next = 0;
  const syncNext = async (): Promise<void> => {
    for (let target = paths[next++]; target !== undefined; target = paths[next++]) {
      const fd = await promisify(fs.open)(target, 'r');
      try {
        await promisify(fs.fsync)(fd);
      } finally {
        fs.closeSync(fd);
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, syncNext));
}

/** What a running PostgreSQL's directory holds that no copy of it should (pg_basebackup leaves them out too). */
const NOT_COPIED = new Set(['postmaster.pid', 'postmaster.opts']);

/** Each file a copy took: its size and time as it was read, and when it was looked at. */
export type CopiedFiles = Map<string, { size: number; mtimeMs: number; seenAt: number }>;

/**
 * Files last written this long before they were looked at are known unchanged when their size
 * and time are the same again: the kernel's file times are coarse (a few ms), so a file written
 * just after it was looked at could keep its time; one written so close is always copied again.
 */
const SETTLED_MS = 1_000;

/**
 * Copies the data directory `source` into `target`, 16 files at a time, as a reflink where the
 * filesystem makes one. Given the files of an earlier copy into the same `target`, copies only
 * what changed since (and deletes what is gone): a backup copies once while the database runs,
 * then again, quickly, while nothing writes (pglite-worker.ts 'snapshot'), which alone is a
 * consistent copy.
 */
export async function copyDataDir(source: string, target: string, earlier?: CopiedFiles): Promise<CopiedFiles> {
  const files: string[] = [];
  const walk = (relative: string) => {
    fs.mkdirSync(path.join(target, relative), { recursive: true, mode: 0o700 });
    for (const entry of fs.readdirSync(path.join(source, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile() && !NOT_COPIED.has(child)) files.push(child);
    }
  };
  walk('');
  const copied: CopiedFiles = new Map();
  let next = 0;
  let stopped = false;
  const copyNext = async (): Promise<void> => {
    for (let file = files[next++]; file !== undefined && !stopped; file = files[next++]) {
      const from = path.join(source, file);
      const seenAt = Date.now();
      const stat = await fs.promises.stat(from).catch(() => null);
      if (stat === null) continue; // deleted since the walk (a copy while the database runs)
      const before = earlier?.get(file);
      if (
        before !== undefined &&
        before.size === stat.size &&
        before.mtimeMs === stat.mtimeMs &&
        before.mtimeMs < before.seenAt - SETTLED_MS
      ) {
        copied.set(file, before);
        continue;
      }
      copied.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, seenAt });
      try {
        await fs.promises.copyFile(from, path.join(target, file), fs.constants.COPYFILE_FICLONE);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && earlier === undefined) {
          copied.delete(file);
          continue;
        }
        stopped = true;
        throw error;
      }
    }
  };
  // Every copier ends before this returns, a failed one too (a full disk): the caller's clean-up
  // of `target` must not race copies still writing.
  const results = await Promise.allSettled(Array.from({ length: 16 }, copyNext));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  for (const file of earlier?.keys() ?? []) {
    if (!copied.has(file)) fs.rmSync(path.join(target, file), { force: true });
  }
  return copied;
}
