// A backup taken by an older Porpoise (docs/product.md section 15): restored, it is built at
// its own migration, loaded, then migrated up as a server's start would, into either database.
// Here the source stops at 0005, the last migration before 0006 put the tags in the search vector.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/password.ts';
import { loadConfig } from '../config.ts';
import { configOf, placesIn, withDatabase, type Place } from '../test/backup-places.ts';
import { DATABASE_KINDS } from '../test/databases.ts';
import { callAs, sessionCookie, type TestUser } from '../test/factories.ts';
import { startTestApp, TEST_PASSWORD_PARAMS } from '../test/test-app.ts';
import { readBackupHeader } from './archive.ts';
import { appliedMigration, publicTables } from './catalog.ts';
import type { BackupHeader } from './header.ts';
import { migrateUpTo, migrationMarks } from './migrations.ts';
import type { RestoreSummary } from './restore.ts';
import { backupConfigured, restoreConfigured } from './run.ts';

const OLD_INDEX = 5;
const MEMBER = { username: 'older_porpoise', email: 'older@example.com', password: 'older-member-password' };
const TAG = { name: 'migrations', description: 'Schemas that move on' };
const QUESTION = { title: 'Do backups from older versions restore?', text: 'Dolphins remember every pod' };

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-older-backup-'));
const file = path.join(dir, 'older.porpoise-backup');
const { newPlace, dropAll } = placesIn(dir);
const migrationsDir = loadConfig({}).migrationsDir;
const marks = migrationMarks(migrationsDir);

let header: BackupHeader;
let ids: { account: string; tag: string; question: string };

beforeAll(async () => {
  // A PostgreSQL database as a Porpoise at 0005 left it, with a member who asked a tagged question.
  const source = await newPlace('postgres');
  const client = new pg.Client({ connectionString: source.url });
  await client.connect();
  try {
    await migrateUpTo(drizzle({ client }), migrationsDir, OLD_INDEX);
    const run = async <R>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as R[];
    const [account] = await run<{ id: string }>(
      'insert into accounts (username, email, password_hash) values ($1, $2, $3) returning id',
      [MEMBER.username, MEMBER.email, await hashPassword(MEMBER.password, TEST_PASSWORD_PARAMS)],
    );
    await run(`insert into profiles (account_id, bio) values ($1, 'Swims in older waters')`, [account!.id]);
    const [tag] = await run<{ id: string }>('insert into tags (name, description) values ($1, $2) returning id', [
      TAG.name,
      TAG.description,
    ]);
    const [question] = await run<{ id: string }>(
      'insert into questions (title, text, asked_by) values ($1, $2, $3) returning id',
      [QUESTION.title, QUESTION.text, account!.id],
    );
    await run('insert into question_tags (question_id, tag_id) values ($1, $2)', [question!.id, tag!.id]);
    await run('update question_counters set total = 1, unanswered = 1');
    ids = { account: account!.id, tag: tag!.id, question: question!.id };
    // At 0005 the search vector is generated from the title and text alone.
    const [before] = await run<{ search: string }>('select search::text from questions');
    expect(before!.search).not.toContain(`[t${tag!.id}]`);
  } finally {
    await client.end();
  }
  header = await backupConfigured(configOf('postgres', source), file);
}, 60_000);

afterAll(async () => {
  await dropAll();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a backup taken at migration 0005', () => {
  it('says so in its header', async () => {
    const expected = { index: OLD_INDEX, tag: marks[OLD_INDEX]!.tag, when: marks[OLD_INDEX]!.when };
    expect(header.migration).toMatchObject(expected);
    expect(header.migration.tag).toBe('0005_search-pending-list');
    expect(((await readBackupHeader(file)) as unknown as BackupHeader).migration).toMatchObject(expected);
    expect(header.tables.find((table) => table.name === 'questions')?.rows).toBe(1);
    // A generated column is never in a backup: the target's migration makes it.
    expect(header.tables.find((table) => table.name === 'questions')?.columns).not.toContain('search');
  });

  describe.each(DATABASE_KINDS)('restored into %s', (kind) => {
    let target: Place;
    let summary: RestoreSummary;

    beforeAll(async () => {
      target = await newPlace(kind);
      summary = await restoreConfigured(configOf(kind, target), file, { force: false });
    });

    it('is migrated up to the latest migration', async () => {
      const latest = marks.at(-1)!;
      expect(summary.header.migration.index).toBe(OLD_INDEX);
      expect(summary.migratedTo).toBe(latest.tag);
      const applied = await withDatabase(kind, target, appliedMigration);
      expect(applied).toEqual({ hash: latest.hash, when: latest.when });
      // Migrations since 0005 made their tables (0018's account tokens, 0025's uploads, among others).
      const tables = (await withDatabase(kind, target, publicTables)).map((table) => table.name);
      expect(tables).toEqual(expect.arrayContaining(['account_tokens', 'uploads', 'question_counters']));
    });

    it('holds the rows, with the ids they had, and what the later migrations made of them', async () => {
      const rows = await withDatabase(kind, target, async (run) => ({
        accounts: await run('select id::text, username, email from accounts'),
        profiles: await run('select account_id::text, bio from profiles'),
        tags: await run('select id::text, name, description, question_count from tags'),
        questions: await run('select id::text, title, text, asked_by::text from questions'),
        questionTags: await run('select question_id::text, tag_id::text from question_tags'),
      }));
      expect(rows).toEqual({
        accounts: [{ id: ids.account, username: MEMBER.username, email: MEMBER.email }],
        profiles: [{ account_id: ids.account, bio: 'Swims in older waters' }],
        // 0011 counted the tag's questions.
        tags: [{ id: ids.tag, name: TAG.name, description: TAG.description, question_count: 1 }],
        questions: [{ id: ids.question, title: QUESTION.title, text: QUESTION.text, asked_by: ids.account }],
        questionTags: [{ question_id: ids.question, tag_id: ids.tag }],
      });
    });

    it("has the tag in the question's search vector (0006), and a search by tag finds it", async () => {
      const lexeme = `[t${ids.tag}]`;
      const [row] = await withDatabase(kind, target, (run) =>
        run<{ search: string; byTag: boolean; byWord: boolean }>(
          `select search::text as search, search @@ $1::tsquery as "byTag", search @@ to_tsquery('simple', 'dolphins') as "byWord"
           from questions where id = $2`,
          [`'${lexeme}'`, ids.question],
        ),
      );
      expect(row!.search).toContain(`'${lexeme}'`);
      expect(row!.search).toContain("'dolphins'");
      expect(row!.byTag).toBe(true);
      expect(row!.byWord).toBe(true);

      // And through the server: the member signs in with their password and finds it by "[tag] word".
      const app = await startTestApp(kind, {
        env: { UPLOADS_DIR: target.uploadsDir },
        ...(kind === 'postgres' ? { databaseUrl: target.url } : { dataDir: target.dataDir }),
      });
      try {
        const login = await callAs(app.app, null, 'POST', '/api/account/login', {
          username: MEMBER.username,
          password: MEMBER.password,
        });
        expect(login.statusCode, login.body).toBe(200);
        const member = { ...MEMBER, cookie: sessionCookie(login) } as TestUser;
        const search = encodeURIComponent(`[${TAG.name}] dolphins`);
        const found = await callAs(app.app, member, 'GET', `/api/getQuestion?search=${search}`);
        expect(found.statusCode, found.body).toBe(200);
        expect(found.json<{ title: string }[]>().map((question) => question.title)).toEqual([QUESTION.title]);
      } finally {
        await app.close();
      }
    });
  });
});
