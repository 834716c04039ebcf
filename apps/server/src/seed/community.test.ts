import { codeLanguage, parseMarkdown, questionTextError } from '@porpoise/core/markdown';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../db/client.ts';
import { WHOLE_LIST } from '../db/schema.ts';
import { createTestDatabase, DATABASE_KINDS } from '../test/databases.ts';
import { DEMO_SIZE, seedCommunity, TITLES, type SeedProgress } from './community.ts';
import { describeProgress } from './progress.ts';
import { TOPICS, type Topic } from './topics.ts';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Each title template as a pattern whose one group is the technology it names. */
const TITLE_PATTERNS = TITLES.map((title) => new RegExp(`^${escapeRegExp(title).replace('\\{x\\}', '(.+)')}$`));

/** The topic a generated title names. */
function topicOf(title: string): Topic {
  for (const pattern of TITLE_PATTERNS) {
    const tech = pattern.exec(title)?.[1];
    const topic = TOPICS.find((candidate) => candidate.tech === tech);
    if (topic) return topic;
  }
  throw new Error(`no technology in the title ${title}`);
}

const textsOf = (database: Database) =>
  queryRows<{ kind: string; text: string }>(
    database.db,
    sql`select 'question' as kind, text from questions union all select 'answer', text from answers
      union all select 'comment', text from comments`,
  );

// The seed writes questions in bulk, beside addQuestion: its search vectors must be the same.
describe.each(DATABASE_KINDS)('the seeded community on %s', (kind) => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await seedCommunity(database.db, { ...DEMO_SIZE, questions: 60 }, { prefix: 'seeded', password: 'seed-password' });
  }, 60_000);
  afterAll(async () => database.close());

  it("gives every question its words and its tags' lexemes", async () => {
    const [row] = await queryRows<{ questions: number; differing: number }>(
      database.db,
      sql`select count(*)::int as questions,
        count(*) filter (where q.search <> to_tsvector('simple', q.title || ' ' || q.text) || array_to_tsvector(
          array(select '[t' || qt.tag_id || ']' from question_tags qt where qt.question_id = q.id)))::int as differing
        from questions q`,
    );
    expect(row?.questions).toBe(60);
    expect(row?.differing).toBe(0);
    const [tagged] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from questions q where exists (
        select 1 from question_tags qt where qt.question_id = q.id
          and tsvector_to_array(q.search) @> array['[t' || qt.tag_id || ']'])`,
    );
    expect(tagged?.n).toBe(60);
  });

  // Each count is drawn per question: a bound drawn once per statement gave every question
  // one tag and the same number of views.
  it('gives questions 1 to 3 tags and view counts that differ', async () => {
    const [tags] = await queryRows<{ least: number; most: number; kinds: number }>(
      database.db,
      sql`select min(n)::int as least, max(n)::int as most, count(distinct n)::int as kinds
        from (select count(*) as n from question_tags group by question_id) per_question`,
    );
    expect(tags?.least).toBeGreaterThanOrEqual(1);
    expect(tags?.most).toBeLessThanOrEqual(3);
    expect(tags?.kinds).toBeGreaterThanOrEqual(2);
    const [drift] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from tags tg
        where tg.question_count <> (select count(*) from question_tags qt where qt.tag_id = tg.id)`,
    );
    expect(drift?.n).toBe(0);
    const [views] = await queryRows<{ kinds: number; counted: number }>(
      database.db,
      sql`select count(distinct view_count)::int as kinds,
        count(*) filter (where view_count = (select count(*) from views v where v.question_id = q.id))::int as counted
        from questions q`,
    );
    expect(views?.kinds).toBeGreaterThanOrEqual(4);
    expect(views?.counted).toBe(60);
    // Each tag link carries its question's sort keys (schema: question_tags).
    const [copies] = await queryRows<{ differing: number }>(
      database.db,
      sql`select count(*)::int as differing from question_tags qt join questions q on q.id = qt.question_id
        where (qt.ask_date_time, qt.last_activity_at, qt.answer_count)
          is distinct from (q.ask_date_time, q.last_activity_at, q.answer_count)`,
    );
    expect(copies?.differing).toBe(0);
    // Each question has its mostViewed rows (schema: view_ranks): the whole list's and one per tag.
    const [ranks] = await queryRows<{ missing: number; differing: number }>(
      database.db,
      sql`select
        (select count(*)::int from questions q where not exists
          (select 1 from view_ranks r where r.question_id = q.id and r.tag_id = ${WHOLE_LIST}))
        + (select count(*)::int from question_tags qt where not exists
          (select 1 from view_ranks r where r.question_id = qt.question_id and r.tag_id = qt.tag_id)) as missing,
        (select count(*)::int from view_ranks r join questions q on q.id = r.question_id
          where (r.view_count, r.ask_date_time, r.deleted) is distinct from (q.view_count, q.ask_date_time, q.deleted_at is not null))
          as differing`,
    );
    expect(ranks).toEqual({ missing: 0, differing: 0 });
  });

  it("tags each question with its title's technology and shows one of its snippets, in Markdown", async () => {
    const rows = await queryRows<{ title: string; text: string; tags: string[] }>(
      database.db,
      sql`select q.title, q.text, array(select t.name from question_tags qt join tags t on t.id = qt.tag_id
        where qt.question_id = q.id) as tags from questions q`,
    );
    expect(rows).toHaveLength(60);
    for (const row of rows) {
      const topic = topicOf(row.title);
      expect(row.tags).toContain(topic.tag);
      const snippets = topic.snippets.map((snippet) => ({
        type: 'code',
        lang: codeLanguage(snippet.fence),
        text: `${snippet.source}\n`,
      }));
      const code = parseMarkdown(row.text).filter((block) => block.type === 'code');
      expect(code).toHaveLength(1);
      expect(snippets).toContainEqual(code[0]);
      // The rare error code stays: the search tests and the bench look for codes.
      expect(row.text).toMatch(/ \(code E\d+\) here:\n/);
      expect(questionTextError(row.text)).toBeNull();
    }
    const marked = (await textsOf(database)).filter(({ text }) => /`\w+`|\*\w+\*/.test(text));
    expect(new Set(marked.map(({ kind }) => kind))).toEqual(new Set(['question', 'answer', 'comment']));
  });

  it('keeps the plain texts the benchmarks were measured on when not topical', async () => {
    const other = await createTestDatabase(kind);
    try {
      await seedCommunity(
        other.db,
        { ...DEMO_SIZE, questions: 10, topical: false },
        { prefix: 'plain', password: 'seed-password' },
      );
      const texts = await textsOf(other);
      expect(texts.filter(({ kind }) => kind === 'question')).toHaveLength(10);
      expect(texts.filter(({ text }) => /[`*]/.test(text))).toEqual([]);
      const plainQuestion =
        /^I am working with \w+ and \w+\. When I \w+ the \w+ I get an error about \w+ \(code E\d+\)\. What am I missing\?$/;
      for (const { kind, text } of texts) if (kind === 'question') expect(text).toMatch(plainQuestion);
    } finally {
      await other.close();
    }
  });

  it('tells its progress, step by step, up to every question', async () => {
    const steps: SeedProgress[] = [];
    const other = await createTestDatabase(kind);
    try {
      await seedCommunity(
        other.db,
        { ...DEMO_SIZE, questions: 25 },
        { prefix: 'progress', password: 'seed-password', batch: 10, onProgress: (step) => steps.push(step) },
      );
    } finally {
      await other.close();
    }
    expect(steps.filter((step) => step.step === 'questions').map((step) => step.done)).toEqual([0, 10, 20, 25]);
    expect(steps.at(-1)).toMatchObject({ step: 'vacuum', done: 1, total: 1 });
    expect(describeProgress({ step: 'questions', done: 20_000, total: 1_000_000, seconds: 4 })).toBe(
      'questions 20,000 / 1,000,000 in 4 s (5,000 per second)',
    );
  });
});
