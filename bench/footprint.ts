// The `footprint` row group of `npm run bench` (issue 39, target 2): the embedded server's
// memory as a small community's first server would see it. The built server (as `npm start`
// runs it: MALLOC_ARENA_MAX and MALLOC_TRIM_THRESHOLD_, bench/server-process.ts) starts on a
// new, empty DATA_DIR (making the database and running every migration), then again on the
// same directory; each time the process's peak RSS by the time it answers (VmHWM: start and
// migrations), and its RSS after a minute with no requests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Figure } from './results.ts';
import { startServer } from './server-process.ts';

export const FOOTPRINT_TARGETS = { peakMb: 300, idleMb: 200, underMixMb: 150 } as const;
export const IDLE_MS = 60_000;

export interface Footprint {
  start: 'new data directory' | 'started again';
  readyMs: number;
  peakMb: number;
  idleMb: number;
}

/** VmHWM and VmRSS of a process, in MB (Linux's /proc). */
export function memoryOf(pid: number): { peakMb: number; rssMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { peakMb: Math.round(kb('VmHWM') / 1024), rssMb: Math.round(kb('VmRSS') / 1024) };
}

async function oneStart(root: string, dataDir: string, start: Footprint['start']): Promise<Footprint> {
  const began = performance.now();
  const server = await startServer({ DATABASE_URL: '', DATA_DIR: dataDir }, 3906, [], root);
  try {
    const readyMs = Math.round(performance.now() - began);
    const { peakMb } = memoryOf(server.child.pid!);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    return { start, readyMs, peakMb, idleMb: memoryOf(server.child.pid!).rssMb };
  } finally {
    await server.stop();
  }
}

/** The two starts, on a directory of their own. */
export async function measureFootprint(root: string, log: (line: string) => void): Promise<Footprint[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-footprint-'));
  try {
    log('footprint: the embedded server on a new data directory, then again (a minute idle each)...');
    return [await oneStart(root, dataDir, 'new data directory'), await oneStart(root, dataDir, 'started again')];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The bench table's rows and the run's figures. */
export function footprintRows(footprints: readonly Footprint[]): { rows: string[][]; figures: Figure[] } {
  const t = FOOTPRINT_TARGETS;
  const rows: string[][] = [];
  const figures: Figure[] = [];
  for (const f of footprints) {
    const name = `embedded server's memory, ${f.start}`;
    const met = f.peakMb <= t.peakMb && f.idleMb <= t.idleMb ? 'met' : 'missed';
    rows.push([
      `${name}: peak RSS ${f.peakMb} MB by the time it answered (${(f.readyMs / 1000).toFixed(1)} s), RSS ${f.idleMb} MB after a minute idle`,
      '',
      '',
      '',
      '',
      `peak <= ${t.peakMb} MB, idle <= ${t.idleMb} MB`,
      met,
    ]);
    figures.push(
      { row: `${name}: peak RSS (start and migrations)`, figure: f.peakMb, unit: 'MB' },
      { row: `${name}: RSS after a minute idle`, figure: f.idleMb, unit: 'MB' },
      { row: `${name}: time to answer`, figure: (f.readyMs / 1000).toFixed(1), unit: 's' },
    );
  }
  return { rows, figures };
}
