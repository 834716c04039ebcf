import { randomUUID } from 'node:crypto';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { isUploadName } from '@porpoise/core';

/**
 * Where uploaded images live (docs/product.md section 14): one small interface, so an object
 * store (S3, R2, GCS...) can replace the disk. Names are `{sha256}.webp`, made by Porpoise from
 * the bytes it stored, never by a client; a name not of that form is refused before any
 * driver sees it.
 */
export interface ImageStorage {
  /** Stores the bytes under the name (the same name always holds the same bytes). */
  put(name: string, bytes: Buffer): Promise<void>;
  /** The stored image's path and size, for serving it (with ranges and ETag); null when there is none. */
  get(name: string): Promise<{ path: string; size: number } | null>;
  /** Deletes it; deleting one that is not there is no error. */
  delete(name: string): Promise<void>;
  /** Each stored name whose file is older than the time, one by one (the sweep's look for files no row names). */
  listOlderThan(time: Date): AsyncIterable<string>;
  /** The directory `get` paths are under (the disk driver's): GET /uploads serves from it. */
  readonly root: string;
}

/** Flushes a directory's entries (a rename in it) to the disk; on Windows, which opens no directory, the rename stands as it is. */
export async function syncDirectory(directory: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle: FileHandle = await fs.open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Temporary files a crash left behind (a write that never reached its rename) are deleted after this long. */
const LEFT_BEHIND_MS = 60 * 60_000;

function checkedName(name: string): string {
  if (!isUploadName(name)) throw new Error(`not an upload's name: ${name}`);
  return name;
}

/**
 * The disk driver: every image a file under `root` (DATA_DIR/uploads, or UPLOADS_DIR), written
 * to a temporary name and renamed, so a reader never sees half a file and two processes (a
 * cluster sharing the disk) writing the same image leave one whole file.
 */
export async function diskStorage(root: string): Promise<ImageStorage> {
  await fs.mkdir(root, { recursive: true });
  // What a crash left half written: never named, never served, deleted as the process starts.
  for (const entry of await fs.readdir(root)) {
    if (!entry.startsWith('.') || !entry.endsWith('.part')) continue;
    const stat = await fs.stat(path.join(root, entry)).catch(() => null);
    if (stat !== null && stat.mtimeMs < Date.now() - LEFT_BEHIND_MS)
      await fs.rm(path.join(root, entry), { force: true });
  }
  const fileOf = (name: string) => path.join(root, checkedName(name));
  return {
    root,
    async put(name, bytes) {
      const file = fileOf(name);
      const temporary = path.join(root, `.${randomUUID()}.part`);
      try {
        // On the disk before the row that names it commits: the file, then its name in the directory.
        const handle = await fs.open(temporary, 'wx');
        try {
          await handle.writeFile(bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fs.rename(temporary, file);
        await syncDirectory(root);
      } catch (error) {
        await fs.rm(temporary, { force: true });
        throw error;
      }
    },
    async get(name) {
      try {
        const stat = await fs.stat(fileOf(name));
        return stat.isFile() ? { path: fileOf(name), size: stat.size } : null;
      } catch {
        return null;
      }
    },
    async delete(name) {
      await fs.rm(fileOf(name), { force: true });
    },
    async *listOlderThan(time) {
      for await (const entry of await fs.opendir(root)) {
        if (!entry.isFile() || !isUploadName(entry.name)) continue;
        const stat = await fs.stat(path.join(root, entry.name)).catch(() => null);
        if (stat !== null && stat.mtime < time) yield entry.name;
      }
    },
  };
}
