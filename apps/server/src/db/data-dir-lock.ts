import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Thrown when another live process already owns the embedded database's directory. */
export class DataDirLockedError extends Error {
  constructor(
    dataDir: string,
    /** The process that owns the directory. */
    readonly pid: number,
  ) {
    super(
      `Another Porpoise process (pid ${pid}) is already using the data directory ${dataDir}. ` +
        'The embedded database allows one server per directory: stop that process, choose another DATA_DIR, ' +
        'or set DATABASE_URL to run several processes on PostgreSQL.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** A zombie (killed, not yet reaped by its parent) holds its pid but no longer the database. */
function isZombie(pid: number): boolean {
  try {
    return /^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !isZombie(pid);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const CLAIM = 'porpoise.lock.';
/** The lock file of Porpoise versions before claims were numbered. */
const LEGACY_LOCK = 'porpoise.lock';
/** What a released claim holds instead of a pid. */
const RELEASED = 'released';

/** The numbers of the claims in the directory, ascending. */
function claimNumbers(dataDir: string): number[] {
  return fs
    .readdirSync(dataDir)
    .filter((name) => name.startsWith(CLAIM) && /^\d+$/.test(name.slice(CLAIM.length)))
    .map((name) => Number(name.slice(CLAIM.length)))
    .sort((a, b) => a - b);
}

const claimPath = (dataDir: string, n: number) => path.join(dataDir, `${CLAIM}${n}`);

/** The live process a lock file names, if any (a missing, released or stale file names none). */
function liveOwner(file: string): number | null {
  let owner: number;
  try {
    owner = Number(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner) ? owner : null;
}

/**
 * Makes `file` holding `content`, whole, unless it exists: the content is written to a file
 * of its own first and hard-linked under the name, so no reader ever sees it empty.
 */
function createWhole(file: string, content: string): boolean {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(temporary, content, { flag: 'wx' });
  try {
    fs.linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.unlinkSync(temporary);
  }
}

function removeIfThere(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Takes the data directory for this process. Returns the release function.
 *
 * Claims are numbered files (porpoise.lock.1, .2, ...) holding their owner's pid; the highest
 * is the lock. A claim is never removed to be replaced, which two processes could both do
 * after a crash, each removing the other's new lock: a stale one (its process died, kill -9)
 * is superseded by the next number, and only one process can create that file. Releasing
 * adds a claim marked released. Older claims are removed by the next owner.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  for (let attempt = 0; attempt < 100; attempt++) {
    const legacyOwner = liveOwner(path.join(dataDir, LEGACY_LOCK));
    if (legacyOwner !== null) throw new DataDirLockedError(dataDir, legacyOwner);
    const claims = claimNumbers(dataDir);
    const top = claims.at(-1) ?? 0;
    if (top > 0) {
      const owner = liveOwner(claimPath(dataDir, top));
      if (owner !== null) throw new DataDirLockedError(dataDir, owner);
    }
    const mine = top + 1;
    // Someone else made this claim since we looked: look again.
    if (!createWhole(claimPath(dataDir, mine), String(process.pid))) continue;
    // A higher claim means ours came from an old look (the claim we read was since
    // superseded and removed): it is void.
    if (claimNumbers(dataDir).some((n) => n > mine)) {
      removeIfThere(claimPath(dataDir, mine));
      continue;
    }
    for (const n of claims) removeIfThere(claimPath(dataDir, n));
    removeIfThere(path.join(dataDir, LEGACY_LOCK));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (createWhole(claimPath(dataDir, mine + 1), RELEASED)) removeIfThere(claimPath(dataDir, mine));
    };
  }
  throw new Error(`Could not lock the data directory ${dataDir}`);
}
