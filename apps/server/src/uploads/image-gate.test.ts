// While a backup holds the images, the orphan sweep deletes none (uploads/image-gate.ts): a
// row in the backup's snapshot still finds its file when the backup packs the images.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOrphanImages } from '../commands/uploads.ts';
import { DATABASE_KINDS } from '../test/databases.ts';
import { accountIdOf, registerUser } from '../test/factories.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';
import { holdImages, IMAGE_GATE_LOCK } from './image-gate.ts';

describe.each(DATABASE_KINDS)('the sweep while a backup holds the images, on %s', (kind) => {
  let t: TestApp;
  let owner: number;
  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await accountIdOf(t.app, (await registerUser(t.app)).username);
  });
  afterAll(async () => t.close());

  /** An image no post uses, uploaded 49 hours ago, and a file older than that no row names. */
  async function orphans(): Promise<string[]> {
    const names = ['unused', 'unknown'].map(
      (what) => `${createHash('sha256').update(`${what} ${Math.random()}`).digest('hex')}.webp`,
    );
    for (const name of names) await t.app.uploads.storage.put(name, Buffer.from(name));
    await t.app.db.execute(
      sql`insert into uploads (name, owner_id, size, width, height, created_at)
          values (${names[0]}, ${owner}, 10, 1, 1, now() - interval '49 hours')`,
    );
    const old = new Date(Date.now() - 49 * 60 * 60_000);
    fs.utimesSync((await t.app.uploads.storage.get(names[1]!))!.path, old, old);
    return names;
  }
  const present = async (names: string[]) =>
    Promise.all(names.map(async (name) => (await t.app.uploads.storage.get(name)) !== null));

  it("deletes nothing while this process's backup holds them, and all once it lets go", async () => {
    const names = await orphans();
    const release = holdImages();
    try {
      expect((await sweepOrphanImages(t.app.db, t.app.uploads.storage)).deleted).toBe(0);
      expect(await present(names)).toEqual([true, true]);
    } finally {
      release();
    }
    expect((await sweepOrphanImages(t.app.db, t.app.uploads.storage)).deleted).toBe(2);
    expect(await present(names)).toEqual([false, false]);
  });

  if (kind === 'postgres')
    it('deletes nothing while another process holds the advisory lock (npm run backup)', async () => {
      const names = await orphans();
      const backup = new pg.Client({ connectionString: t.app.database.url });
      await backup.connect();
      try {
        await backup.query('select pg_advisory_lock($1)', [IMAGE_GATE_LOCK]);
        expect((await sweepOrphanImages(t.app.db, t.app.uploads.storage)).deleted).toBe(0);
        expect(await present(names)).toEqual([true, true]);
        const { rows } = await backup.query<{ n: number }>('select count(*)::int as n from uploads where name = $1', [
          names[0],
        ]);
        expect(rows[0]?.n).toBe(1);
        await backup.query('select pg_advisory_unlock($1)', [IMAGE_GATE_LOCK]);
      } finally {
        await backup.end();
      }
      expect((await sweepOrphanImages(t.app.db, t.app.uploads.storage)).deleted).toBe(2);
      expect(await present(names)).toEqual([false, false]);
    });
});
