import { commentTextError, messageError, titleError } from '@porpoise/core';
import { answerTextError, markdownLinksValid, parseMarkdown, questionTextError } from '@porpoise/core/markdown';
import { sql } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Question } from '@porpoise/core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskStorage, type ImageStorage } from '../uploads/storage.ts';
import { queryRows, type Database } from '../db/client.ts';
import { createTestDatabase, DATABASE_KINDS } from '../test/databases.ts';
import { DEMO_SIZE, seedCommunity } from './community.ts';
import { seedDemoAccounts } from './demo-accounts.ts';
import { DEMO_CONTENT, type DemoContent } from './demo-content.ts';
import {
  demoContentProblems,
  describeDemoContent,
  seedDemoContent,
  type DemoContentWritten,
} from './seed-demo-content.ts';

/** The languages the README promises the demo's code blocks in. */
const PROMISED_LANGUAGES = [
  'bash',
  'csharp',
  'css',
  'go',
  'java',
  'javascript',
  'json',
  'python',
  'rust',
  'sql',
  'typescript',
  'yaml',
];

const codeLanguages = (text: string) =>
  parseMarkdown(text).flatMap((block) => (block.type === 'code' ? [block.lang] : []));

const votesOf = (votes?: { up?: string[]; down?: string[] }) => (votes?.up?.length ?? 0) + (votes?.down?.length ?? 0);

/** What a first run on an empty database writes: everything in the data. */
function everything(content: DemoContent): DemoContentWritten {
  const answers = content.questions.flatMap((question) => question.answers);
  return {
    questions: content.questions.length,
    answers: answers.length,
    comments:
      content.questions.reduce((n, question) => n + (question.comments?.length ?? 0), 0) +
      answers.reduce((n, answer) => n + (answer.comments?.length ?? 0), 0),
    votes:
      content.questions.reduce((n, question) => n + votesOf(question.votes), 0) +
      answers.reduce((n, answer) => n + votesOf(answer.votes), 0),
    images: content.questions.filter((question) => question.image !== undefined).length,
    directThreads: content.directThreads.length,
    forums: content.forums.length,
    messages: [...content.directThreads, ...content.forums].reduce((n, thread) => n + thread.messages.length, 0),
    porpchat: content.porpchat.length,
  };
}

describe('the demo content as data', () => {
  it('breaks none of the rules the app holds its users to', () => {
    expect(demoContentProblems(DEMO_CONTENT)).toEqual([]);
  });

  it('finds a broken link, a stranger in a direct thread and a blank PorpChat name', () => {
    const [question] = DEMO_CONTENT.questions;
    if (!question) throw new Error('no demo questions');
    const broken: DemoContent = {
      questions: [{ ...question, text: 'See [the docs](http://example.com).', answers: [] }],
      directThreads: [{ between: ['alice', 'bob'], messages: [{ by: 'carol', text: 'Hi' }] }],
      forums: [],
      porpchat: [{ sender: ' ', text: 'A [link]() without an address' }],
    };
    expect(demoContentProblems(broken)).toEqual([
      `question "${question.title}": Invalid hyperlink format.`,
      'the thread of alice and bob: carol is not in it',
      'PorpChat,  : Username cannot be empty',
      'PorpChat,  : Invalid hyperlink format.',
    ]);
  });

  it('writes its code in every language it promises, each question with a code block', () => {
    const posts = DEMO_CONTENT.questions.flatMap((question) => [question.text, ...question.answers.map((a) => a.text)]);
    expect(new Set(posts.flatMap(codeLanguages))).toEqual(new Set([...PROMISED_LANGUAGES, '']));
    for (const question of DEMO_CONTENT.questions) expect(codeLanguages(question.text).length).toBeGreaterThan(0);
  });
});

describe.each(DATABASE_KINDS)('the demo content on %s', (kind) => {
  let database: Database;
  let first: DemoContentWritten;
  let second: DemoContentWritten;
  const uploadsDir = mkdtempSync(path.join(os.tmpdir(), 'porpoise-demo-uploads-'));
  let storage: ImageStorage;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    storage = await diskStorage(uploadsDir);
    await seedDemoAccounts(database.db);
    await seedCommunity(database.db, { ...DEMO_SIZE, questions: 30 }, { prefix: 'member', password: 'seed-password' });
    first = await seedDemoContent(database.db, storage);
    second = await seedDemoContent(database.db, storage);
  }, 120_000);
  afterAll(async () => {
    await database.close();
    rmSync(uploadsDir, { recursive: true, force: true });
  });

  it('shows real images in a few questions: stored, re-encoded, used (kept from the sweep), with their sizes', async () => {
    const shown = DEMO_CONTENT.questions.filter((question) => question.image !== undefined);
    expect(shown.length).toBeGreaterThanOrEqual(2);
    const rows = await queryRows<{ title: string; text: string; images: Question['images'] }>(
      database.db,
      sql`select title, text, (select json_agg(json_build_object('url', '/uploads/' || (i->>'name'), 'width', (i->>'width')::int,
          'height', (i->>'height')::int)) from jsonb_array_elements(images) i) as images
        from questions where title = any(${sql.param(shown.map((question) => question.title))}::text[])`,
    );
    expect(rows).toHaveLength(shown.length);
    for (const row of rows) {
      expect(row.images).toHaveLength(1);
      const [image] = row.images!;
      expect(row.text).toContain(`](${image!.url})`);
      const file = await storage.get(image!.url.slice('/uploads/'.length));
      expect(file).not.toBeNull();
      expect(await sharp(file!.path).metadata()).toMatchObject({
        format: 'webp',
        width: image!.width,
        height: image!.height,
      });
    }
    const [unused] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from uploads where use_count = 0`,
    );
    expect(unused).toEqual({ n: 0 });
  });

  it('writes all of it once: a second run adds nothing', async () => {
    expect(first).toEqual(everything(DEMO_CONTENT));
    expect(second).toEqual({
      questions: 0,
      answers: 0,
      comments: 0,
      votes: 0,
      images: 0,
      directThreads: 0,
      forums: 0,
      messages: 0,
      porpchat: 0,
    });
    expect(describeDemoContent(second)).toBe('Demo content: there already, nothing added.');
    const titles = DEMO_CONTENT.questions.map((question) => question.title);
    const copies = await queryRows<{ title: string; n: number }>(
      database.db,
      sql`select title, count(*)::int as n from questions where title = any(${sql.param(titles)}::text[]) group by title`,
    );
    expect(Object.fromEntries(copies.map(({ title, n }) => [title, n]))).toEqual(
      Object.fromEntries(titles.map((title) => [title, 1])),
    );
    const [totals] = await queryRows<{ questions: number; threads: number; forums: number; messages: number }>(
      database.db,
      sql`select (select count(*)::int from questions) as questions,
        (select count(*)::int from threads) as threads, (select count(*)::int from forums) as forums,
        (select count(*)::int from messages) as messages`,
    );
    expect(totals).toEqual({
      questions: 30 + DEMO_CONTENT.questions.length,
      // PorpChat's one thread, the direct threads and the forums' threads.
      threads: 1 + DEMO_CONTENT.directThreads.length + DEMO_CONTENT.forums.length,
      forums: DEMO_CONTENT.forums.length,
      messages: first.messages + first.porpchat,
    });
  });

  it('keeps every question, answer, comment and message within the rules of its form', async () => {
    const questions = await queryRows<{ title: string; text: string }>(
      database.db,
      sql`select title, text from questions`,
    );
    const answers = await queryRows<{ text: string }>(database.db, sql`select text from answers`);
    const comments = await queryRows<{ text: string }>(database.db, sql`select text from comments`);
    const messages = await queryRows<{ content: string }>(database.db, sql`select content from messages`);
    expect(questions.length).toBe(30 + DEMO_CONTENT.questions.length);
    expect(answers.length).toBeGreaterThan(first.answers);
    expect(questions.filter((q) => titleError(q.title) ?? questionTextError(q.text))).toEqual([]);
    expect(answers.filter((a) => answerTextError(a.text))).toEqual([]);
    expect(comments.filter((c) => commentTextError(c.text) ?? !markdownLinksValid(c.text, 'inline'))).toEqual([]);
    expect(messages.filter((m) => messageError(m.content) ?? !markdownLinksValid(m.content, 'inline'))).toEqual([]);
  });

  it('shows code blocks in at least 8 languages, the promised ones among them', async () => {
    const posts = await queryRows<{ text: string }>(
      database.db,
      sql`select text from questions union all select text from answers`,
    );
    const languages = new Set(posts.flatMap((post) => codeLanguages(post.text)).filter((lang) => lang !== ''));
    expect(languages.size).toBeGreaterThanOrEqual(8);
    expect([...languages].sort()).toEqual(expect.arrayContaining(PROMISED_LANGUAGES));
  });

  it('tags each hand-written question as written and accepts the answers it marks', async () => {
    for (const question of DEMO_CONTENT.questions) {
      const [row] = await queryRows<{ tags: string[]; accepted: string | null; search: boolean }>(
        database.db,
        sql`select array(select t.name from question_tags qt join tags t on t.id = qt.tag_id
              where qt.question_id = q.id order by t.name) as tags,
            (select a.text from answers a where a.id = q.accepted_answer_id) as accepted,
            q.search = to_tsvector('simple', q.title || ' ' || q.text) || array_to_tsvector(
              array(select '[t' || qt.tag_id || ']' from question_tags qt where qt.question_id = q.id)) as search
          from questions q where q.title = ${question.title}`,
      );
      expect(row?.tags).toEqual([...question.tags].sort());
      expect(row?.accepted).toBe(question.answers.find((answer) => answer.accepted)?.text ?? null);
      expect(row?.search).toBe(true);
    }
  });

  it('keeps the counters the app keeps: answers, votes, tags and the question totals', async () => {
    const [drift] = await queryRows<Record<string, number>>(
      database.db,
      sql`select
        (select count(*)::int from questions q
          where answer_count <> (select count(*) from answers a where a.question_id = q.id and a.deleted_at is null)
             or up_count <> (select count(*) from votes v where v.question_id = q.id and v.value = 1)
             or down_count <> (select count(*) from votes v where v.question_id = q.id and v.value = -1)) as questions,
        (select count(*)::int from answers a
          where up_count <> (select count(*) from answer_votes v where v.answer_id = a.id and v.value = 1)
             or down_count <> (select count(*) from answer_votes v where v.answer_id = a.id and v.value = -1)) as answers,
        (select count(*)::int from tags t
          where question_count <> (select count(*) from question_tags qt where qt.tag_id = t.id and not qt.deleted)) as tags,
        (select count(*)::int from question_tags qt join questions q on q.id = qt.question_id
          where qt.answer_count <> q.answer_count) as "tagRows",
        (select count(*)::int from question_counters
          where total <> (select count(*) from questions where deleted_at is null)
             or unanswered <> (select count(*) from questions where answer_count = 0 and deleted_at is null)) as totals`,
    );
    expect(drift).toEqual({ questions: 0, answers: 0, tags: 0, tagRows: 0, totals: 0 });
    const [asyncio] = await queryRows<{ n: number }>(
      database.db,
      sql`select question_count as n from tags where name = 'asyncio'`,
    );
    expect(asyncio?.n).toBe(1);
  });

  it('starts the direct threads, each message read by its sender and by the one who replied to it', async () => {
    for (const thread of DEMO_CONTENT.directThreads) {
      const rows = await queryRows<{ sender: string; content: string; readers: string[] }>(
        database.db,
        sql`select m.sender_name as sender, m.content,
            array(select a.username from message_reads r join accounts a on a.id = r.account_id
              where r.message_id = m.id order by a.username) as readers
          from messages m join threads t on t.id = m.thread_id
          where t.kind = 'direct' and t.pair_key = (select string_agg(id::text, ':' order by id) from accounts
            where username = any(${sql.param(thread.between)}::text[]))
          order by m.id`,
      );
      expect(rows.map(({ sender, content }) => ({ by: sender, text: content }))).toEqual(thread.messages);
      // Opening a thread to reply marks its last message read (markLastRead).
      rows.forEach((row, index) => {
        const readers = thread.messages.slice(index, index + 2).map((message) => message.by);
        expect(row.readers).toEqual([...new Set(readers)].sort());
      });
    }
  });

  it('opens the forums with their discussions and fills PorpChat without read receipts', async () => {
    for (const forum of DEMO_CONTENT.forums) {
      const rows = await queryRows<{ by: string; text: string }>(
        database.db,
        sql`select m.sender_name as by, m.content as text from forums f join messages m on m.thread_id = f.thread_id
          where f.name = ${forum.name} order by m.id`,
      );
      expect(rows).toEqual(forum.messages);
    }
    const chat = await queryRows<{ sender: string; text: string; member: boolean; reads: number }>(
      database.db,
      sql`select m.sender_name as sender, m.content as text, m.sender_account_id is not null as member,
          (select count(*)::int from message_reads r where r.message_id = m.id) as reads
        from messages m join threads t on t.id = m.thread_id where t.kind = 'porpchat' order by m.id`,
    );
    expect(chat.map(({ sender, text }) => ({ sender, text }))).toEqual(DEMO_CONTENT.porpchat);
    expect(chat.filter((message) => message.reads > 0)).toEqual([]);
    const visitors = chat.filter((message) => !message.member).map((message) => message.sender);
    expect(new Set(visitors).size).toBeGreaterThanOrEqual(3);
    expect(visitors).not.toContain('alice');
  });
});
