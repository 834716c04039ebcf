// The server's own backups (docs/product.md section 15): BACKUP_DIR's daily schedule and its
// 7 newest, /admin's list, start and download, and `npm run backup` asking the server that
// owns the embedded database for one (the token in DATA_DIR/porpoise-server.json).
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BACKUP_NAME, type BackupList } from '@porpoise/core/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../config.ts';
import { DATABASE_KINDS } from '../test/databases.ts';
import { askQuestion, callAs, registerUser, type TestUser } from '../test/factories.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';
import { verifyBackupFile } from './archive.ts';

const NEVER = 2 ** 31 - 1;
const DAY_MS = 24 * 60 * 60_000;

/** The schedule's timer never fires on its own: the tests call checkSchedule(). */
const noTimer = (config: Config) => {
  config.backups.firstCheckMs = NEVER;
  config.backups.checkMs = NEVER;
};

const temporaryDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/** The whole backups in `dir`, by name. */
const backupFiles = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((name) => BACKUP_NAME.test(name))
    .sort();

const emptyDir = (dir: string) => {
  for (const name of fs.readdirSync(dir)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
};

const errorOf = (response: { json<T>(): T }) => response.json<{ error: string }>().error;

describe.each(DATABASE_KINDS)("the server's own backups on %s", (kind) => {
  const dirs: string[] = [];
  const made = (prefix: string) => {
    const dir = temporaryDir(prefix);
    dirs.push(dir);
    return dir;
  };
  const dataDir = made('porpoise-server-backups-data-');
  const backupDir = made('porpoise-server-backups-');
  let t: TestApp;
  let closed = false;
  let admin: TestUser;
  let member: TestUser;
  /** The backup test 1 took (the others download it). */
  let taken: string;

  beforeAll(async () => {
    t = await startTestApp(kind, {
      ...(kind === 'pglite' ? { dataDir } : {}),
      env: { DATA_DIR: dataDir, BACKUP_DIR: backupDir },
      configure: noTimer,
    });
    admin = await registerUser(t.app);
    member = await registerUser(t.app);
  });
  afterAll(async () => {
    if (!closed) await t.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const list = async () => {
    const response = await callAs(t.app, admin, 'GET', '/api/admin/backups');
    expect(response.statusCode, response.body).toBe(200);
    return response.json<BackupList>();
  };

  it('takes a backup an admin starts, one at a time, lists it and downloads it', async () => {
    expect(admin.account.role).toBe('admin');
    await askQuestion(t.app, admin);
    await askQuestion(t.app, admin);

    const started = await callAs(t.app, admin, 'POST', '/api/admin/backups');
    expect(started.statusCode, started.body).toBe(202);
    const { name } = started.json<{ name: string }>();
    expect(name).toMatch(BACKUP_NAME);
    taken = name;

    const again = await callAs(t.app, admin, 'POST', '/api/admin/backups');
    expect(again.statusCode, again.body).toBe(409);
    expect(errorOf(again)).toBe('A backup is already running');

    await t.app.backups.whenIdle();
    const after = await list();
    expect(after.scheduled).toBe(true);
    expect(after.running).toBeNull();
    expect(after.lastFailure).toBeNull();
    expect(after.backups[0]).toMatchObject({ name, database: kind, questions: 2 });
    expect(after.backups[0]!.size).toBe(fs.statSync(path.join(backupDir, name)).size);

    const download = await callAs(t.app, admin, 'GET', `/api/admin/backups/${name}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toMatch(/^application\/gzip/);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${name}"`);
    const file = path.join(backupDir, name);
    expect(download.rawPayload.equals(fs.readFileSync(file))).toBe(true);
    await expect(verifyBackupFile(file)).resolves.toMatchObject({ format: 'porpoise-backup' });
  });

  it('lets only admins list, start and download backups, and serves only backups', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/backups'],
      ['POST', '/api/admin/backups'],
      ['GET', `/api/admin/backups/${taken}`],
    ] as const) {
      expect((await callAs(t.app, member, method, url)).statusCode, `${method} ${url} as a member`).toBe(403);
      expect((await callAs(t.app, null, method, url)).statusCode, `${method} ${url} signed out`).toBe(401);
    }
    // Nothing was started by the member.
    expect((await list()).running).toBeNull();

    for (const notABackup of ['..%2F..%2Fetc%2Fpasswd', 'x.porpoise-backup']) {
      const response = await callAs(t.app, admin, 'GET', `/api/admin/backups/${notABackup}`);
      expect([400, 404], `${notABackup}: ${response.statusCode}`).toContain(response.statusCode);
      expect(response.headers['content-type']).not.toMatch(/application\/gzip/);
      expect(response.headers['content-disposition']).toBeUndefined();
      expect(response.body).not.toContain('root:');
    }
    const missing = await callAs(t.app, admin, 'GET', '/api/admin/backups/porpoise-20200101-000000.porpoise-backup');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-disposition']).toBeUndefined();
  });

  it('downloads a backup as a document only from our own page, and only the download', async () => {
    const asDocument = (url: string, site: string) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: { cookie: admin.cookie, 'sec-fetch-dest': 'document', 'sec-fetch-site': site },
      });
    const own = await asDocument(`/api/admin/backups/${taken}`, 'same-origin');
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.equals(fs.readFileSync(path.join(backupDir, taken)))).toBe(true);
    const foreign = await asDocument(`/api/admin/backups/${taken}`, 'cross-site');
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['content-disposition']).toBeUndefined();
    expect((await asDocument('/api/admin/backups', 'same-origin')).statusCode).toBe(403);
  });

  it('backs up when the newest is a day old, keeps the 7 newest and clears what a crash left', async () => {
    emptyDir(backupDir);
    const now = Date.now();
    const aged = (file: string, days: number) => {
      const at = new Date(now - days * DAY_MS);
      fs.utimesSync(file, at, at);
    };
    // porpoise-20260101 is 9 days old ... porpoise-20260108 2 days old.
    const fakes = Array.from({ length: 8 }, (_, i) => `porpoise-2026010${i + 1}-000000.porpoise-backup`);
    fakes.forEach((name, i) => {
      const file = path.join(backupDir, name);
      fs.writeFileSync(file, 'x');
      aged(file, 9 - i);
    });
    const oldPartial = path.join(backupDir, 'porpoise-20260101-000001.porpoise-backup.partial');
    const freshPartial = path.join(backupDir, 'porpoise-20260101-000002.porpoise-backup.partial');
    fs.writeFileSync(oldPartial, 'x');
    aged(oldPartial, 2);
    fs.writeFileSync(freshPartial, 'x');

    await t.app.backups.checkSchedule();
    await t.app.backups.whenIdle();
    const kept = backupFiles(backupDir);
    const fresh = kept.filter((name) => !fakes.includes(name));
    expect(fresh).toHaveLength(1);
    expect(kept).toEqual([...fakes.slice(2), fresh[0]!].sort());
    await verifyBackupFile(path.join(backupDir, fresh[0]!));
    expect(fs.existsSync(oldPartial)).toBe(false);
    expect(fs.existsSync(freshPartial)).toBe(true);

    await t.app.backups.checkSchedule();
    await t.app.backups.whenIdle();
    expect(backupFiles(backupDir)).toEqual(kept);

    // The fakes have no header: the list leaves them out.
    const listed = await list();
    expect(listed.backups.map((backup) => backup.name)).toEqual([fresh[0]]);
    expect(listed.backups[0]!.database).toBe(kind);
    expect(listed.lastFailure).toBeNull();
  });

  it('keeps no backups without BACKUP_DIR', async () => {
    const otherData = made('porpoise-server-backups-none-');
    const other = await startTestApp(kind, { env: { DATA_DIR: otherData }, configure: noTimer });
    try {
      const otherAdmin = await registerUser(other.app);
      expect(otherAdmin.account.role).toBe('admin');
      const run = await callAs(other.app, otherAdmin, 'POST', '/api/admin/backups');
      expect(run.statusCode).toBe(400);
      expect(errorOf(run)).toBe('Set BACKUP_DIR for the server to keep backups');
      const listed = await callAs(other.app, otherAdmin, 'GET', '/api/admin/backups');
      expect(listed.statusCode).toBe(200);
      expect(listed.json<BackupList>()).toMatchObject({ scheduled: false, backups: [], running: null });
    } finally {
      await other.close();
    }
  });

  // Each database's own cases are defined only for it (none is reported skipped).
  if (kind === 'postgres')
    it('takes one scheduled backup for two processes on one database', async () => {
      emptyDir(backupDir);
      const otherData = made('porpoise-server-backups-second-');
      const second = await startTestApp('postgres', {
        databaseUrl: t.app.database.url,
        env: { DATA_DIR: otherData, BACKUP_DIR: backupDir },
        configure: noTimer,
      });
      try {
        await Promise.all([t.app.backups.checkSchedule(), second.app.backups.checkSchedule()]);
        await Promise.all([t.app.backups.whenIdle(), second.app.backups.whenIdle()]);
        expect(backupFiles(backupDir)).toHaveLength(1);
      } finally {
        await second.close();
      }
    });

  if (kind === 'pglite')
    it('backs up the embedded database for `npm run backup` with the token it wrote, once', async () => {
      const serverFile = path.join(dataDir, 'porpoise-server.json');
      expect((fs.statSync(serverFile).mode & 0o777).toString(8)).toBe('600');
      const server = JSON.parse(fs.readFileSync(serverFile, 'utf8')) as { pid: number; port: number; token: string };
      expect(server.pid).toBe(process.pid);
      expect(server.port).toBe((t.app.server.address() as AddressInfo).port);
      expect(server.token).toMatch(/^[0-9a-f]{64}$/);
      const bearer = { authorization: `Bearer ${server.token}` };

      const start = (headers: Record<string, string>) =>
        t.app.inject({ method: 'POST', url: '/api/operator/backups', headers });
      expect((await start({})).statusCode).toBe(403);
      expect((await start({ authorization: `Bearer ${'0'.repeat(64)}` })).statusCode).toBe(403);
      expect((await start({ ...bearer, 'x-forwarded-for': '1.2.3.4' })).statusCode).toBe(403);
      const started = await start(bearer);
      expect(started.statusCode, started.body).toBe(202);
      const { name } = started.json<{ name: string }>();
      expect(name).toMatch(BACKUP_NAME);

      const collect = () => t.app.inject({ method: 'GET', url: `/api/operator/backups/${name}`, headers: bearer });
      const early = await collect();
      // 202 while it runs, 200 if it was already written by now.
      expect([200, 202]).toContain(early.statusCode);
      expect((await t.app.inject({ method: 'GET', url: `/api/operator/backups/${name}` })).statusCode).toBe(403);
      const outboxFile = path.join(dataDir, 'backup-outbox', name);
      let bytes: Buffer;
      if (early.statusCode === 202) {
        expect(early.json()).toEqual({ state: 'running' });
        await t.app.backups.whenIdle();
        expect(fs.existsSync(outboxFile)).toBe(true);
        const done = await collect();
        expect(done.statusCode, done.body).toBe(200);
        bytes = done.rawPayload;
      } else {
        bytes = early.rawPayload;
      }
      // Nothing of this backup was put in BACKUP_DIR.
      expect(backupFiles(backupDir)).not.toContain(name);
      const copy = path.join(made('porpoise-server-backups-copy-'), name);
      fs.writeFileSync(copy, bytes);
      await expect(verifyBackupFile(copy)).resolves.toMatchObject({ format: 'porpoise-backup' });

      // Collected once: the outbox keeps nothing (deleted once opened for the download).
      expect(fs.existsSync(outboxFile)).toBe(false);
      const twice = await collect();
      expect(twice.statusCode, twice.body).not.toBe(200);
      expect(twice.statusCode).toBeGreaterThanOrEqual(400);
      expect(twice.rawPayload.equals(bytes)).toBe(false);

      await t.close();
      closed = true;
      expect(fs.existsSync(serverFile)).toBe(false);
    });

  if (kind === 'postgres')
    it('writes no porpoise-server.json for PostgreSQL', () => {
      expect(fs.existsSync(path.join(dataDir, 'porpoise-server.json'))).toBe(false);
    });
});
