// A community backed up on one database and restored into the other (docs/product.md section
// 15): the embedded database to PostgreSQL and back, through `npm run backup`'s and `npm run
// restore`'s own functions, and the server on the restored database shows what it showed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '../db/client.ts';
import { DEMO_SIZE, seedCommunity } from '../seed/community.ts';
import { DEMO_PASSWORD, seedDemoAccounts } from '../seed/demo-accounts.ts';
import { seedDemoContent } from '../seed/seed-demo-content.ts';
import { diskStorage } from '../uploads/storage.ts';
import { appOn, configOf, placesIn, type Place } from '../test/backup-places.ts';
import type { DatabaseKind } from '../test/databases.ts';
import { answerQuestion, askQuestion, callAs, registerUser, sessionCookie, type TestUser } from '../test/factories.ts';
import type { TestApp } from '../test/test-app.ts';
import { keptTables, publicTables } from './catalog.ts';
import { backupConfigured, restoreConfigured } from './run.ts';

/** A fingerprint of every table a backup carries, in one time zone (the two databases' defaults differ). */
async function fingerprint(db: Db): Promise<Record<string, string>> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local timezone = 'UTC'`);
    const tables = keptTables(await publicTables((text) => queryRows(tx as unknown as Db, sql.raw(text))));
    const result: Record<string, string> = {};
    for (const table of tables) {
      const [row] = await queryRows<{ digest: string; n: number }>(
        tx,
        sql.raw(
          `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest, count(*)::int as n from public."${table.name}" t`,
        ),
      );
      result[table.name] = `${row?.n}:${row?.digest}`;
    }
    return result;
  });
}

/** What a signed-in member reads: lists in every order, a tag, pages' answers, notifications. */
async function pages(app: TestApp['app'], member: TestUser, questionIds: string[]): Promise<unknown[]> {
  const get = async (url: string) => {
    const response = await callAs(app, member, 'GET', url);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return { url, total: response.headers['x-total-count'] ?? null, body: response.json<unknown>() };
  };
  const reads: unknown[] = [];
  for (const order of ['newest', 'unanswered', 'active', 'mostViewed'])
    reads.push(await get(`/api/getQuestion?order=${order}`));
  reads.push(await get('/api/tag/getTagsWithQuestionNumber'));
  for (const id of questionIds) reads.push(await get(`/api/question/${id}/answers`));
  reads.push(await get('/api/notifications'));
  reads.push(await get(`/api/profile/reputation/${member.username}`));
  return reads;
}

const DIRECTIONS: [DatabaseKind, DatabaseKind][] = [
  ['pglite', 'postgres'],
  ['postgres', 'pglite'],
];

describe.each(DIRECTIONS)('a backup of %s restored into %s', (from, to) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-backup-'));
  const file = path.join(dir, 'community.porpoise-backup');
  const { newPlace, dropAll } = placesIn(dir);
  let source: Place;
  let target: Place;
  let asker: TestUser;
  let answerer: TestUser;
  let questionIds: string[];
  let before: { fingerprint: Record<string, string>; pages: unknown[]; maxQuestionId: number; image: string };
  let restored: TestApp;

  beforeAll(async () => {
    source = await newPlace(from);
    target = await newPlace(to);
    const app = await appOn(from, source);
    try {
      // A community: the demo's (generated questions, hand-written ones with images, threads,
      // forums, PorpChat) and members' own activity (sessions, notifications, reputation).
      await seedDemoAccounts(app.app.db);
      await seedCommunity(app.app.db, { ...DEMO_SIZE, questions: 30 }, { prefix: 'member', password: DEMO_PASSWORD });
      await seedDemoContent(app.app.db, await diskStorage(source.uploadsDir));
      asker = await registerUser(app.app, { password: 'asker-password' });
      answerer = await registerUser(app.app, { password: 'answerer-password' });
      const first = await askQuestion(app.app, asker, { title: 'How do backups restore?', tags: ['backups'] });
      const second = await askQuestion(app.app, asker, { title: 'Which database is mine?', tags: ['backups'] });
      const answer = await answerQuestion(app.app, answerer, first, 'With migrations, then the rows.');
      await answerQuestion(app.app, answerer, second);
      expect((await callAs(app.app, answerer, 'POST', '/api/upvoteQuestion', { qid: first })).statusCode).toBe(200);
      const accepted = await callAs(app.app, asker, 'POST', '/api/answer/acceptAnswer', { qid: first, aid: answer });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const commented = await callAs(app.app, answerer, 'POST', '/api/comment/addComment', {
        id: first,
        type: 'question',
        comment: { text: 'A comment kept by the backup.', commentBy: answerer.username },
      });
      expect(commented.statusCode, commented.body).toBe(200);
      questionIds = [first, second];
      const [max] = await queryRows<{ id: number }>(app.app.db, sql`select max(id)::int as id from questions`);
      const [image] = await queryRows<{ name: string }>(
        app.app.db,
        sql`select name from uploads order by name limit 1`,
      );
      expect(image, 'the demo content has images').toBeDefined();
      before = {
        pages: await pages(app.app, asker, questionIds),
        fingerprint: await fingerprint(app.app.db),
        maxQuestionId: max!.id,
        image: image!.name,
      };
    } finally {
      await app.close();
    }
    await backupConfigured(configOf(from, source), file);
    await restoreConfigured(configOf(to, target), file, { force: false });
    restored = await appOn(to, target);
  }, 180_000);

  afterAll(async () => {
    await restored?.close();
    await dropAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('holds every row of every table it carries, as they were', async () => {
    expect(await fingerprint(restored.app.db)).toEqual(before.fingerprint);
  });

  it('ended every session, and every password signs in', async () => {
    // Before anyone signs in on the restored database.
    expect((await callAs(restored.app, asker, 'GET', '/api/account/me')).statusCode).toBe(401);
    const [sessions] = await queryRows<{ n: number }>(restored.app.db, sql`select count(*)::int as n from sessions`);
    expect(sessions!.n).toBe(0);
    for (const [username, password] of [
      [answerer.username, answerer.password],
      ['alice', DEMO_PASSWORD],
    ]) {
      const response = await callAs(restored.app, null, 'POST', '/api/account/login', { username, password });
      expect(response.statusCode, `${username}: ${response.body}`).toBe(200);
    }
  });

  it('shows the same lists, answers, notifications and reputation', async () => {
    const member = await callAs(restored.app, null, 'POST', '/api/account/login', {
      username: asker.username,
      password: asker.password,
    });
    expect(member.statusCode).toBe(200);
    expect(await pages(restored.app, { ...asker, cookie: sessionCookie(member) }, questionIds)).toEqual(before.pages);
  });

  it('serves the images byte for byte, and new rows continue after the old ids', async () => {
    const image = await callAs(restored.app, null, 'GET', `/uploads/${before.image}`);
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload).toEqual(fs.readFileSync(path.join(source.uploadsDir, before.image)));
    const signedIn = await callAs(restored.app, null, 'POST', '/api/account/login', {
      username: answerer.username,
      password: answerer.password,
    });
    const id = await askQuestion(restored.app, { ...answerer, cookie: sessionCookie(signedIn) }, { tags: ['backups'] });
    expect(Number(id)).toBeGreaterThan(before.maxQuestionId);
  });
});
