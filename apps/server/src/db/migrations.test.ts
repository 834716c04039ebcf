import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { nameSkeleton } from '@porpoise/core/skeleton';
import { loadConfig } from '../config.ts';
import { DATABASE_KINDS, createPostgresDatabase } from '../test/databases.ts';
import { openDatabase, queryRows, type DatabaseOptions } from './client.ts';

const { migrationsDir } = loadConfig({});

/** A copy of the migrations folder that stops before the migration tagged `tag`. */
function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'porpoise-migrations-'));
  cpSync(migrationsDir, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const index = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(index).toBeGreaterThan(0);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, index) }));
  return dir;
}

// Questions stored before 0006 get their tags into the search vector.
describe.each(DATABASE_KINDS)('migration 0006 (tags in search) on %s', (kind) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('adds the tag lexemes of every existing question, and a tag search finds them', async () => {
    const before = migrationsBefore('0006_tags-in-search');
    cleanups.push(() => rmSync(before, { recursive: true, force: true }));
    let options: (dir: string) => DatabaseOptions;
    if (kind === 'postgres') {
      const created = await createPostgresDatabase();
      cleanups.push(created.drop);
      options = (dir) => ({ kind, url: created.url, migrationsDir: dir, poolSize: 2 });
    } else {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'porpoise-pglite-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      options = (dir) => ({ kind, dataDir, migrationsDir: dir });
    }

    const old = await openDatabase(options(before));
    await old.db.execute(
      sql`insert into accounts (username, email, password_hash) values ('mig', 'mig@x.example', 'x')`,
    );
    await old.db.execute(sql`insert into tags (name, description) values ('kelp', ''), ('reef', '')`);
    await old.db.execute(sql`insert into questions (title, text, asked_by)
      select 'Question ' || n, 'about seaweed', (select id from accounts where username = 'mig') from generate_series(1, 3) n`);
    await old.db.execute(sql`update questions set view_count = 7 where title = 'Question 1'`);
    await old.db.execute(sql`insert into question_tags (question_id, tag_id)
      select q.id, t.id from questions q, tags t where q.title = 'Question 1' or (q.title = 'Question 2' and t.name = 'reef')`);
    await old.close();

    const migrated = await openDatabase(options(migrationsDir));
    try {
      const rows = await queryRows<{ lexemes: string[] }>(
        migrated.db,
        sql`select tsvector_to_array(q.search) as lexemes from questions q order by q.title`,
      );
      const [kelp, reef] = await queryRows<{ id: number }>(
        migrated.db,
        sql`select id from tags where name in ('kelp', 'reef') order by name`,
      );
      const lexeme = (id: number | undefined) => `[t${Number(id)}]`;
      const words = ['about', 'question', 'seaweed'];
      expect(rows.map((row) => [...row.lexemes].sort())).toEqual([
        ['1', ...words, lexeme(kelp?.id), lexeme(reef?.id)].sort(),
        ['2', ...words, lexeme(reef?.id)].sort(),
        ['3', ...words].sort(),
      ]);
      // Written with the question from now on: the column is no longer generated.
      const [generated] = await queryRows<{ kind: string }>(
        migrated.db,
        sql`select attgenerated as kind from pg_attribute where attrelid = 'questions'::regclass and attname = 'search'`,
      );
      expect(generated?.kind).toBe('');
      const found = await queryRows<{ title: string }>(
        migrated.db,
        sql`select title from questions where search @@ ${`'${lexeme(reef?.id)}'`}::tsquery order by title`,
      );
      expect(found.map((row) => row.title)).toEqual(['Question 1', 'Question 2']);
      // Later migrations fill in what they add: each tag's count, its rows' sort keys, and the
      // mostViewed rows (0028): the whole list's for each question, one for each of its tags.
      const [copied] = await queryRows<{ rows: number; differing: number }>(
        migrated.db,
        sql`select count(*)::int as rows, count(*) filter (where qt.ask_date_time is distinct from q.ask_date_time
            or qt.last_activity_at is distinct from q.last_activity_at or qt.answer_count <> q.answer_count)::int as differing
          from question_tags qt join questions q on q.id = qt.question_id`,
      );
      expect(copied).toEqual({ rows: 3, differing: 0 });
      const ranks = await queryRows<{ title: string; tag: string | null; views: number }>(
        migrated.db,
        sql`select q.title, t.name as tag, r.view_count as views from view_ranks r join questions q on q.id = r.question_id
          left join tags t on t.id = r.tag_id
          where r.ask_date_time = q.ask_date_time and not r.deleted order by q.title, t.name nulls first`,
      );
      expect(ranks).toEqual([
        { title: 'Question 1', tag: null, views: 7 },
        { title: 'Question 1', tag: 'kelp', views: 7 },
        { title: 'Question 1', tag: 'reef', views: 7 },
        { title: 'Question 2', tag: null, views: 0 },
        { title: 'Question 2', tag: 'reef', views: 0 },
        { title: 'Question 3', tag: null, views: 0 },
      ]);
      const counts = await queryRows<{ name: string; n: number }>(
        migrated.db,
        sql`select name, question_count as n from tags where name in ('kelp', 'reef') order by name`,
      );
      expect(counts).toEqual([
        { name: 'kelp', n: 1 },
        { name: 'reef', n: 2 },
      ]);
    } finally {
      await migrated.close();
    }
  }, 60_000);
});

/** Options opening one database of `kind` with a given migrations folder; its removal joins `cleanups`. */
async function storageFor(
  kind: DatabaseOptions['kind'],
  cleanups: Array<() => Promise<void> | void>,
): Promise<(dir: string) => DatabaseOptions> {
  if (kind === 'postgres') {
    const created = await createPostgresDatabase();
    cleanups.push(created.drop);
    return (dir) => ({ kind, url: created.url, migrationsDir: dir, poolSize: 2 });
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'porpoise-pglite-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return (dir) => ({ kind, dataDir, migrationsDir: dir });
}

// Trust #15 item 4: read receipts a member's PorpChat post recorded before 0007 are removed.
describe.each(DATABASE_KINDS)('migration 0007 (PorpChat keeps no read receipts) on %s', (kind) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("removes PorpChat messages' read receipts and keeps those of other threads", async () => {
    const before = migrationsBefore('0007_porpchat-no-reads');
    cleanups.push(() => rmSync(before, { recursive: true, force: true }));
    const options = await storageFor(kind, cleanups);

    const old = await openDatabase(options(before));
    await old.db.execute(
      sql`insert into accounts (username, email, password_hash) values ('mig', 'mig@x.example', 'x')`,
    );
    await old.db.execute(sql`insert into threads (kind) values ('forum')`);
    await old.db.execute(sql`insert into messages (thread_id, content, sender_account_id, sender_name)
      select t.id, t.kind, a.id, 'alias' from threads t, accounts a`);
    await old.db.execute(
      sql`insert into message_reads (message_id, account_id) select m.id, m.sender_account_id from messages m`,
    );
    await old.close();

    const migrated = await openDatabase(options(migrationsDir));
    try {
      const kept = await queryRows<{ kind: string }>(
        migrated.db,
        sql`select t.kind from message_reads r join messages m on m.id = r.message_id join threads t on t.id = m.thread_id`,
      );
      expect(kept.map((row) => row.kind)).toEqual(['forum']);
    } finally {
      await migrated.close();
    }
  }, 60_000);
});

// Trust #15 item 8: accounts made before 0009 get their username's skeleton.
describe.each(DATABASE_KINDS)('migration 0009 (username skeletons) on %s', (kind) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('fills the skeleton of every existing username, as PorpChat names are compared', async () => {
    const before = migrationsBefore('0009_username-skeleton');
    cleanups.push(() => rmSync(before, { recursive: true, force: true }));
    const options = await storageFor(kind, cleanups);
    const usernames = ['Alice', 'M1LL0_.-', 'bob'];

    const old = await openDatabase(options(before));
    for (const username of usernames) {
      await old.db.execute(
        sql`insert into accounts (username, email, password_hash) values (${username}, ${`${username}@x.example`}, 'x')`,
      );
    }
    await old.close();

    const migrated = await openDatabase(options(migrationsDir));
    try {
      const rows = await queryRows<{ username: string; skeleton: string }>(
        migrated.db,
        sql`select username, username_skeleton as skeleton from accounts order by id`,
      );
      expect(rows).toEqual(usernames.map((username) => ({ username, skeleton: nameSkeleton(username) })));
      expect(rows[0]?.skeleton).toBe(nameSkeleton('\u0430l\u200Bice'));
    } finally {
      await migrated.close();
    }
  }, 60_000);
});

// Issue 22 item 1: accounts made before 0013 whose settings differ from the defaults have saved them.
describe.each(DATABASE_KINDS)('migration 0013 (accessibility settings saved) on %s', (kind) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('marks as saved the accounts whose settings are not the defaults, and only those', async () => {
    const before = migrationsBefore('0013_accessibility-saved');
    cleanups.push(() => rmSync(before, { recursive: true, force: true }));
    const options = await storageFor(kind, cleanups);
    const accounts = [
      { username: 'plain', lowVision: false, colorBlindness: 'none', saved: false },
      { username: 'big', lowVision: true, colorBlindness: 'none', saved: true },
      { username: 'grey', lowVision: false, colorBlindness: 'grayscale', saved: true },
    ];

    const old = await openDatabase(options(before));
    for (const { username, lowVision, colorBlindness } of accounts) {
      await old.db.execute(
        sql`insert into accounts (username, email, password_hash, low_vision, color_blindness)
            values (${username}, ${`${username}@x.example`}, 'x', ${lowVision}, ${colorBlindness})`,
      );
    }
    await old.close();

    const migrated = await openDatabase(options(migrationsDir));
    try {
      const rows = await queryRows<{ username: string; saved: boolean }>(
        migrated.db,
        sql`select username, accessibility_saved_at is not null as saved from accounts order by id`,
      );
      expect(rows).toEqual(accounts.map(({ username, saved }) => ({ username, saved })));
    } finally {
      await migrated.close();
    }
  }, 60_000);
});

// Issue 35: a community upgraded to reputation starts with the reputation its votes and
// accepts earned (docs/product.md section 13), and its flags keep counting as they did.
describe.each(DATABASE_KINDS)('migration 0023 (reputation) on %s', (kind) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('builds the ledger from the votes and accepts already cast, capped per day, hiding deleted posts', async () => {
    const before = migrationsBefore('0023_reputation');
    cleanups.push(() => rmSync(before, { recursive: true, force: true }));
    const options = await storageFor(kind, cleanups);

    const old = await openDatabase(options(before));
    const run = (query: ReturnType<typeof sql>) => old.db.execute(query);
    await run(sql`insert into accounts (username, email, password_hash)
      select name, name || '@x.example', 'x' from unnest(array['asker', 'answerer', 'fan', 'critic', 'star']) name`);
    const id = (name: string) => sql`(select id from accounts where username = ${name})`;
    // The asker's question: upvoted by the fan, downvoted by the critic, self-upvoted (nothing).
    await run(
      sql`insert into questions (title, text, asked_by, search) values ('Asked', 'text', ${id('asker')}, ''::tsvector)`,
    );
    const question = sql`(select id from questions where title = 'Asked')`;
    await run(sql`insert into votes (question_id, account_id, value, voted_at) values
      (${question}, ${id('fan')}, 1, now()), (${question}, ${id('critic')}, -1, now()), (${question}, ${id('asker')}, 1, now())`);
    // Two answers: one accepted and upvoted; one downvoted by the critic (-2 to it, -1 to the critic), then deleted.
    await run(sql`insert into answers (question_id, text, ans_by) values
      (${question}, 'kept', ${id('answerer')}), (${question}, 'gone', ${id('answerer')})`);
    const answer = (text: string) => sql`(select id from answers where text = ${text})`;
    await run(sql`insert into answer_votes (answer_id, account_id, value) values
      (${answer('kept')}, ${id('fan')}, 1), (${answer('gone')}, ${id('critic')}, -1), (${answer('gone')}, ${id('fan')}, 1)`);
    await run(sql`update questions set accepted_answer_id = ${answer('kept')} where id = ${question}`);
    await run(sql`update answers set deleted_at = now(), deleted_by = ${id('answerer')} where text = 'gone'`);
    // The star: 25 questions, each upvoted by the fan on the same UTC day (20 earn 10, 5 earn 0), a
    // 26th the day before (not capped by that day).
    await run(sql`insert into questions (title, text, asked_by, search)
      select 'Star ' || n, 'text', ${id('star')}, ''::tsvector from generate_series(1, 26) n`);
    await run(sql`insert into votes (question_id, account_id, value, voted_at)
      select q.id, ${id('fan')}, 1, case when q.title = 'Star 26' then timestamptz '2026-01-01 12:00Z'
        else timestamptz '2026-01-02 00:00Z' + (q.id || ' seconds')::interval end
      from questions q where q.title like 'Star %'`);
    await run(sql`insert into flags (target_type, target_id, flagged_by, reason) values
      ('question', ${question}, ${id('fan')}, 'spam'), ('question', ${question}, ${id('critic')}, 'off-topic')`);
    await old.close();

    const migrated = await openDatabase(options(migrationsDir));
    try {
      const reputation = await queryRows<{ username: string; reputation: number }>(
        migrated.db,
        sql`select username, greatest(1, 1 + reputation_sum)::int as reputation from accounts order by username`,
      );
      expect(reputation).toEqual([
        { username: 'answerer', reputation: 1 + 10 + 15 }, // the deleted answer's rows are hidden
        { username: 'asker', reputation: 1 + 10 - 2 + 2 },
        { username: 'critic', reputation: 1 }, // -1 for the deleted answer's downvote, hidden
        { username: 'fan', reputation: 1 },
        { username: 'star', reputation: 1 + 20 * 10 + 10 },
      ]);
      const rows = await queryRows<{ reason: string; delta: number; hidden: boolean; n: number }>(
        migrated.db,
        sql`select reason, delta, hidden, count(*)::int as n from reputation_events
          group by reason, delta, hidden order by reason, delta, hidden`,
      );
      expect(rows).toEqual([
        { reason: 'acceptedAnswer', delta: 2, hidden: false, n: 1 },
        { reason: 'answerAccepted', delta: 15, hidden: false, n: 1 },
        { reason: 'answerDownvoted', delta: -2, hidden: true, n: 1 },
        { reason: 'answerUpvoted', delta: 10, hidden: false, n: 1 },
        { reason: 'answerUpvoted', delta: 10, hidden: true, n: 1 },
        { reason: 'downvotedAnswer', delta: -1, hidden: true, n: 1 },
        { reason: 'questionDownvoted', delta: -2, hidden: false, n: 1 },
        { reason: 'questionUpvoted', delta: 0, hidden: false, n: 5 },
        { reason: 'questionUpvoted', delta: 10, hidden: false, n: 22 },
      ]);
      const flagged = await queryRows<{ reason: string; weight: string }>(
        migrated.db,
        sql`select reason, weight from flags order by reason`,
      );
      expect(flagged).toEqual([
        { reason: 'off-topic', weight: 'none' },
        { reason: 'spam', weight: 'counts' },
      ]);
    } finally {
      await migrated.close();
    }
  }, 60_000);
});

// docs/product.md section 12: an account from before reading comfort reads with its defaults.
describe.each(DATABASE_KINDS)('migration 0024 (reading comfort) on %s', (kind) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('gives existing accounts the defaults, keeps their saved settings, and refuses values it does not know', async () => {
    const before = migrationsBefore('0024_reading-comfort');
    cleanups.push(() => rmSync(before, { recursive: true, force: true }));
    const options = await storageFor(kind, cleanups);

    const old = await openDatabase(options(before));
    await old.db
      .execute(sql`insert into accounts (username, email, password_hash, low_vision, color_blindness, accessibility_saved_at)
      values ('reader', 'reader@x.example', 'x', true, 'grayscale', now())`);
    await old.close();

    const migrated = await openDatabase(options(migrationsDir));
    try {
      const rows = await queryRows<Record<string, unknown>>(
        migrated.db,
        sql`select low_vision, color_blindness, color_scheme, reading_font, reduced_motion, live_announcements,
          keyboard_shortcuts, accessibility_saved_at is not null as saved from accounts where username = 'reader'`,
      );
      expect(rows).toEqual([
        {
          low_vision: true,
          color_blindness: 'grayscale',
          color_scheme: 'system',
          reading_font: 'default',
          reduced_motion: false,
          live_announcements: true,
          keyboard_shortcuts: true,
          saved: true,
        },
      ]);
      await expect(migrated.db.execute(sql`update accounts set color_scheme = 'sepia'`)).rejects.toThrow();
      await expect(migrated.db.execute(sql`update accounts set reading_font = 'comic'`)).rejects.toThrow();
    } finally {
      await migrated.close();
    }
  });
});

// docs/product.md section 14: posts from before images keep reading as they did.
describe.each(DATABASE_KINDS)('migration 0025 (uploads) on %s', (kind) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('leaves existing posts without images, and keeps uses to stored images only', async () => {
    const before = migrationsBefore('0025_uploads');
    cleanups.push(() => rmSync(before, { recursive: true, force: true }));
    const options = await storageFor(kind, cleanups);

    const old = await openDatabase(options(before));
    await old.db.execute(
      sql`insert into accounts (username, email, password_hash) values ('asker', 'asker@x.example', 'x')`,
    );
    await old.db.execute(sql`insert into questions (title, text, asked_by, search)
      select 'Old question', 'Old text', id, to_tsvector('simple', 'old') from accounts where username = 'asker'`);
    await old.close();

    const migrated = await openDatabase(options(migrationsDir));
    try {
      const rows = await queryRows<{ images: unknown }>(migrated.db, sql`select images from questions`);
      expect(rows).toEqual([{ images: null }]);
      const name = `${'c'.repeat(64)}.webp`;
      await expect(
        migrated.db.execute(sql`insert into upload_uses (post_kind, post_id, name) values ('question', 1, ${name})`),
      ).rejects.toThrow();
      await migrated.db.execute(
        sql`insert into uploads (name, owner_id, size, width, height) values (${name}, 1, 10, 2, 2)`,
      );
      await expect(
        migrated.db.execute(sql`insert into upload_uses (post_kind, post_id, name) values ('comment', 1, ${name})`),
      ).rejects.toThrow();
      await expect(migrated.db.execute(sql`update uploads set use_count = -1`)).rejects.toThrow();
    } finally {
      await migrated.close();
    }
  });
});

// docs/product.md section 14: images uploaded before animations were told apart read as stills.
describe.each(DATABASE_KINDS)('migration 0026 (animated uploads) on %s', (kind) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('gives existing uploads animated = false', async () => {
    const before = migrationsBefore('0026_upload-animated');
    cleanups.push(() => rmSync(before, { recursive: true, force: true }));
    const options = await storageFor(kind, cleanups);

    const old = await openDatabase(options(before));
    const name = `${'d'.repeat(64)}.webp`;
    await old.db.execute(sql`insert into uploads (name, owner_id, size, width, height) values (${name}, 1, 10, 2, 2)`);
    await old.close();

    const migrated = await openDatabase(options(migrationsDir));
    try {
      const rows = await queryRows<{ animated: boolean }>(migrated.db, sql`select animated from uploads`);
      expect(rows).toEqual([{ animated: false }]);
    } finally {
      await migrated.close();
    }
  });
});
