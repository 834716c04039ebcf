// Vitest's global setup: runs once, before any test file. Every PGlite test database starts
// from one cluster made and migrated here (a new cluster's initdb and twenty migrations took
// about three seconds of a core for each of the run's in-memory databases).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../config.ts';
import { openDurablePglite } from '../db/durable-node-fs.ts';
// The type of what it provides (ProvidedContext) is declared there, next to its reader.
import './databases.ts';

export async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'porpoise-pglite-template-'));
  const pglite = await openDurablePglite(undefined);
  try {
    await migrate(drizzle({ client: pglite }), { migrationsFolder: loadConfig({}).migrationsDir });
    const dump = await pglite.dumpDataDir('none');
    const file = path.join(dir, 'migrated.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteTemplate', file);
  } finally {
    await pglite.close();
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
