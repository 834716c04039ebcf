// What a restore refuses (docs/product.md section 15), into either database: a target that
// holds a community (unless --force, which replaces it), a file that is cut, damaged, not a
// backup or from a newer Porpoise, and an embedded database a running server owns. A refused
// restore leaves its target as it was.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { gunzipSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { appOn, configOf, placesIn, withDatabase, type Place } from '../test/backup-places.ts';
import { DATABASE_KINDS, type DatabaseKind } from '../test/databases.ts';
import { askQuestion, callAs, registerUser, type TestUser } from '../test/factories.ts';
import { startServerProcess } from '../test/server-process.ts';
import { BackupFileError, readBackupFile, writeBackupFile } from './archive.ts';
import { publicTables } from './catalog.ts';
import type { BackupHeader } from './header.ts';
import { migrationMarks } from './migrations.ts';
import { NOT_EMPTY, RestoreRefusedError, SERVER_CONNECTED } from './restore.ts';
import { backupConfigured, restoreConfigured } from './run.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-refusals-'));
const { newPlace, dropAll } = placesIn(dir);
const migrationsDir = loadConfig({}).migrationsDir;

/** Every row of every public table (sessions too) and of drizzle's migrations, as digests. */
async function fingerprint(kind: DatabaseKind, place: Place): Promise<Record<string, string>> {
  return withDatabase(kind, place, async (run) => {
    await run(`set timezone = 'UTC'`);
    const result: Record<string, string> = {};
    const tables = (await publicTables(run)).map((table) => `public."${table.name}"`);
    const [drizzle] = await run<{ present: boolean }>(
      `select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
    );
    if (drizzle?.present) tables.push('drizzle.__drizzle_migrations');
    for (const table of tables) {
      const [row] = await run<{ digest: string; n: number }>(
        `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest, count(*)::int as n from ${table} t`,
      );
      result[table] = `${row?.n}:${row?.digest}`;
    }
    return result;
  });
}

/** What of Porpoise's schema a database holds: its public tables, and whether drizzle's schema is there. */
async function schemaOf(kind: DatabaseKind, place: Place): Promise<{ tables: string[]; drizzle: boolean }> {
  // An embedded database never opened has no cluster yet.
  if (kind === 'pglite' && !fs.existsSync(path.join(place.dataDir, 'pgdata', 'PG_VERSION')))
    return { tables: [], drizzle: false };
  return withDatabase(kind, place, async (run) => {
    const tables = (await publicTables(run)).map((table) => table.name);
    const [row] = await run<{ present: boolean }>(`select to_regnamespace('drizzle') is not null as present`);
    return { tables, drizzle: row!.present };
  });
}

const usernamesOf = (kind: DatabaseKind, place: Place) =>
  withDatabase(kind, place, async (run) =>
    (await run<{ username: string }>('select username from accounts order by username')).map((row) => row.username),
  );

/** What a promise rejected with (it must reject). */
async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the restore to be refused, and it went ahead');
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const startsWith = (text: string) => new RegExp(`^${escaped(text)}`);
const exactly = (text: string) => new RegExp(`^${escaped(text)}$`);

// The one backup every test restores: two members and a question, from the embedded database.
const good = path.join(dir, 'community.porpoise-backup');
let members: TestUser[];
let header: BackupHeader;
const latest = migrationMarks(migrationsDir).at(-1)!;

/** Files no restore accepts, made from the good one, and how each is refused. */
const files = {
  truncated: path.join(dir, 'truncated.porpoise-backup'),
  flipped: path.join(dir, 'flipped.porpoise-backup'),
  png: path.join(dir, 'image.png'),
  text: path.join(dir, 'notes.txt'),
  newer: path.join(dir, 'newer.porpoise-backup'),
  otherHash: path.join(dir, 'other-hash.porpoise-backup'),
};

/** The good backup written again with its header changed (writeBackupFile recomputes the trailer). */
async function rewritten(out: string, change: (header: BackupHeader) => BackupHeader): Promise<void> {
  const work = fs.mkdtempSync(path.join(dir, 'rewrite-'));
  const sqlPath = path.join(work, 'database.sql');
  const images: { name: string; path: string }[] = [];
  const read = await readBackupFile(good, {
    onSql: (stream) => pipeline(stream, fs.createWriteStream(sqlPath)),
    onImage: async (name, bytes) => {
      const image = path.join(work, name);
      fs.writeFileSync(image, bytes);
      images.push({ name, path: image });
    },
  });
  await writeBackupFile(out, change(read as unknown as BackupHeader), sqlPath, images);
}

/**
 * The file with one byte flipped, in the middle or just after: the first whose flip changes
 * what it holds (a flip in a code the compressed data never uses leaves every byte it
 * decompresses to as it was, and that file is whole).
 */
function flippedInTheMiddle(bytes: Buffer): Buffer {
  const original = gunzipSync(bytes);
  for (let at = Math.floor(bytes.length / 2); at < bytes.length; at++) {
    const flipped = Buffer.from(bytes);
    flipped[at] = flipped[at]! ^ 0xff;
    try {
      if (gunzipSync(flipped).equals(original)) continue;
    } catch {
      // gzip itself notices
    }
    return flipped;
  }
  throw new Error('no byte changes the file');
}

beforeAll(async () => {
  const source = await newPlace('pglite');
  const app = await appOn('pglite', source);
  try {
    members = [
      await registerUser(app.app, { password: 'first-member-password' }),
      await registerUser(app.app, { password: 'second-member-password' }),
    ];
    // Its text, random words no compression shrinks, makes the rows most of the file: a byte
    // flipped in the middle of the file lands in them, past the header.
    const words = randomBytes(4_000).toString('hex').match(/.{8}/g)!.join(' ');
    await askQuestion(app.app, members[0]!, {
      title: 'Does the backup keep this question?',
      text: words,
      tags: ['backups'],
    });
  } finally {
    await app.close();
  }
  header = await backupConfigured(configOf('pglite', source), good);

  const bytes = fs.readFileSync(good);
  fs.writeFileSync(files.truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
  fs.writeFileSync(files.flipped, flippedInTheMiddle(bytes));
  fs.writeFileSync(
    files.png,
    await sharp({ create: { width: 4, height: 4, channels: 3, background: '#1e90ff' } })
      .png()
      .toBuffer(),
  );
  fs.writeFileSync(files.text, 'Not a backup: notes about the community.\n');
  await rewritten(files.newer, (h) => ({ ...h, migration: { ...h.migration, index: 999, tag: '0999_future' } }));
  await rewritten(files.otherHash, (h) => ({ ...h, migration: { ...h.migration, hash: 'f'.repeat(64) } }));
}, 60_000);

afterAll(async () => {
  await dropAll();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(DATABASE_KINDS)('a restore into %s', (kind) => {
  it('goes ahead into an empty database', async () => {
    const target = await newPlace(kind);
    const summary = await restoreConfigured(configOf(kind, target), good, { force: false });
    expect(summary.migratedTo).toBe(latest.tag);
    expect(await usernamesOf(kind, target)).toEqual(members.map((member) => member.username).sort());
  });

  it('goes ahead into a database a server start migrated, with no community yet', async () => {
    const target = await newPlace(kind);
    await (await appOn(kind, target)).close();
    expect((await schemaOf(kind, target)).tables).toContain('accounts');
    await restoreConfigured(configOf(kind, target), good, { force: false });
    expect(await usernamesOf(kind, target)).toEqual(members.map((member) => member.username).sort());
  });

  it('refuses a cut, damaged, foreign or newer file, and leaves the empty database as it was', async () => {
    const target = await newPlace(kind);
    const config = configOf(kind, target);
    const refusals: [string, new (...args: never[]) => Error, (file: string) => RegExp][] = [
      [files.truncated, BackupFileError, (file) => startsWith(`${file} is incomplete: it ends before the backup does`)],
      // Where the flipped byte lands decides which layer notices it first (gzip's data, tar, the checksums).
      [
        files.flipped,
        BackupFileError,
        (file) => new RegExp(`^${escaped(file)} is (damaged: its contents do not match|incomplete: it ends)`),
      ],
      [files.png, BackupFileError, (file) => exactly(`${file} is not a Porpoise backup`)],
      [files.text, BackupFileError, (file) => exactly(`${file} is not a Porpoise backup`)],
      [
        files.newer,
        RestoreRefusedError,
        (file) =>
          exactly(
            `${file} comes from a newer Porpoise (migration 0999_future); this one is at ${latest.tag}: upgrade Porpoise to restore it`,
          ),
      ],
      [
        files.otherHash,
        RestoreRefusedError,
        (file) =>
          exactly(
            `${file} was taken at migration ${header.migration.tag}, which this Porpoise's ${header.migration.tag} does not match: restore it with the Porpoise that took it`,
          ),
      ],
    ];
    for (const [file, type, message] of refusals) {
      const error = await rejectionOf(restoreConfigured(config, file, { force: false }));
      expect(error, `${path.basename(file)}: ${error.message}`).toBeInstanceOf(type);
      expect(error.message).toMatch(message(file));
      expect(await schemaOf(kind, target), path.basename(file)).toEqual({ tables: [], drizzle: false });
    }
    // Nothing was left behind that would make it count as holding a community.
    await restoreConfigured(config, good, { force: false });
    expect(await usernamesOf(kind, target)).toEqual(members.map((member) => member.username).sort());
  });

  describe('into a database that holds a community', () => {
    let target: Place;
    let old: TestUser;
    let before: Record<string, string>;

    beforeAll(async () => {
      target = await newPlace(kind);
      const app = await appOn(kind, target);
      try {
        old = await registerUser(app.app, { password: 'old-member-password' });
        await askQuestion(app.app, old, { title: 'A question of the community already here', tags: ['existing'] });
      } finally {
        await app.close();
      }
      before = await fingerprint(kind, target);
    });

    it(`is refused with '${NOT_EMPTY}', every row left as it was`, async () => {
      const error = await rejectionOf(restoreConfigured(configOf(kind, target), good, { force: false }));
      expect(error).toBeInstanceOf(RestoreRefusedError);
      expect(error.message).toBe(NOT_EMPTY);
      expect(before['public."sessions"']).toMatch(/^[1-9]/); // the old member's session is there
      expect(await fingerprint(kind, target)).toEqual(before);
    });

    if (kind === 'postgres')
      it('is left as it was when the restore cannot load (psql missing), even with --force', async () => {
        const error = await rejectionOf(
          restoreConfigured(configOf(kind, target), good, { force: true, pgBinDir: '/nonexistent' }),
        );
        expect(error.message).toMatch(/^psql was not found/);
        expect(await fingerprint(kind, target)).toEqual(before);
      });

    it('is replaced with --force: the old rows and sessions are gone, the backup signs in', async () => {
      const summary = await restoreConfigured(configOf(kind, target), good, { force: true });
      expect(summary.migratedTo).toBe(latest.tag);
      const after = await withDatabase(kind, target, async (run) => ({
        usernames: (await run<{ username: string }>('select username from accounts order by username')).map(
          (row) => row.username,
        ),
        titles: (await run<{ title: string }>('select title from questions order by id')).map((row) => row.title),
        tags: (await run<{ name: string }>('select name from tags order by name')).map((row) => row.name),
        sessions: (await run<{ n: number }>('select count(*)::int as n from sessions'))[0]!.n,
      }));
      expect(after).toEqual({
        usernames: members.map((member) => member.username).sort(),
        titles: ['Does the backup keep this question?'],
        tags: ['backups'],
        sessions: 0,
      });

      const app = await appOn(kind, target);
      try {
        for (const member of members) {
          const response = await callAs(app.app, null, 'POST', '/api/account/login', {
            username: member.username,
            password: member.password,
          });
          expect(response.statusCode, `${member.username}: ${response.body}`).toBe(200);
        }
        const gone = await callAs(app.app, null, 'POST', '/api/account/login', {
          username: old.username,
          password: old.password,
        });
        expect(gone.statusCode).not.toBe(200);
        // The old member's cookie names a session that no longer exists.
        expect((await callAs(app.app, old, 'GET', '/api/account/me')).statusCode).toBe(401);
      } finally {
        await app.close();
      }
    });
  });

  if (kind === 'pglite') {
    it('refuses a DATA_DIR a running server owns', { timeout: 90_000 }, async () => {
      const target = await newPlace(kind);
      // Another process: a lock held by this one (a test app) is this process's own.
      const server = await startServerProcess({
        DATA_DIR: target.dataDir,
        UPLOADS_DIR: target.uploadsDir,
        DATABASE_URL: '',
      });
      try {
        const error = await rejectionOf(restoreConfigured(configOf(kind, target), good, { force: true }));
        expect(error).toBeInstanceOf(DataDirLockedError);
        expect(error.message).toContain(`(pid ${server.child.pid}) is already using the data directory`);
        // The server runs on, its database untouched.
        expect((await fetch(`${server.url}/api/healthz`)).ok).toBe(true);
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    });
  }

  it("leaves another application's tables, views and functions alone, and never backs them up", async () => {
    const target = await newPlace(kind);
    await (await appOn(kind, target)).close();
    await withDatabase(kind, target, async (run) => {
      await run('create table public.other_app_notes (id int primary key, note text)');
      await run(`insert into public.other_app_notes values (1, 'kept')`);
      await run('create view public.other_app_view as select note from public.other_app_notes');
      await run('create function public.other_app_fn() returns int language sql as $$ select 1 $$');
    });
    await restoreConfigured(configOf(kind, target), good, { force: true });
    await withDatabase(kind, target, async (run) => {
      expect(await run('select note from public.other_app_view')).toEqual([{ note: 'kept' }]);
      expect(await run('select public.other_app_fn() as one')).toEqual([{ one: 1 }]);
    });
    const again = path.join(dir, `${kind}-again.porpoise-backup`);
    const header = await backupConfigured(configOf(kind, target), again);
    expect(header.tables.map((table) => table.name)).not.toContain('other_app_notes');
    expect(header.tables.map((table) => table.name)).toContain('accounts');
  });

  if (kind === 'postgres') {
    it('refuses a database a server is connected to, even with --force', async () => {
      const target = await newPlace(kind);
      const app = await appOn(kind, target);
      try {
        const error = await rejectionOf(restoreConfigured(configOf(kind, target), good, { force: true }));
        expect(error).toBeInstanceOf(RestoreRefusedError);
        expect(error.message).toBe(SERVER_CONNECTED);
        expect((await callAs(app.app, null, 'GET', '/api/readyz')).statusCode).toBe(200);
      } finally {
        await app.close();
      }
      await restoreConfigured(configOf(kind, target), good, { force: false });
      expect(await usernamesOf(kind, target)).toEqual(members.map((member) => member.username).sort());
    });
  }
});
