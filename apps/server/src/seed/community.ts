import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';
import { WHOLE_LIST } from '../db/schema.ts';
import { questionSearchVector, tagLexemeSql } from '../db/search-vector.ts';
import { hashPassword } from '../auth/password.ts';
import { SNIPPETS_PER_TOPIC, TOPICS } from './topics.ts';

/**
 * Words that titles and texts are made of: each is in a good share of all questions (the
 * common words); every text also carries an error code that only a few share (the rare).
 * The bench searches for them.
 */
export const WORDS = [
  'error',
  'the',
  'react',
  'node',
  'array',
  'string',
  'parse',
  'json',
  'async',
  'await',
  'promise',
  'function',
  'class',
  'type',
  'query',
  'index',
  'database',
  'postgres',
  'socket',
  'server',
  'client',
  'render',
  'state',
  'hook',
  'route',
  'test',
  'build',
  'deploy',
  'docker',
  'memory',
  'leak',
  'performance',
  'cache',
  'timeout',
  'request',
  'response',
  'header',
  'cookie',
  'session',
  'login',
  'password',
  'hash',
  'token',
  'regex',
  'date',
  'time',
  'zone',
  'locale',
  'unicode',
  'emoji',
  'file',
  'stream',
  'buffer',
  'pipe',
  'thread',
  'worker',
  'event',
  'loop',
  'closure',
  'scope',
  'module',
  'import',
  'export',
  'package',
  'version',
  'dependency',
  'typescript',
  'generic',
  'interface',
  'enum',
  'tuple',
  'map',
  'set',
  'sort',
  'filter',
  'reduce',
  'undefined',
  'null',
  'exception',
  'stack',
  'trace',
  'debug',
  'log',
  'lint',
  'format',
  'css',
  'grid',
  'flexbox',
  'layout',
  'accessibility',
  'contrast',
  'keyboard',
  'focus',
  'screen',
  'reader',
  'porpoise',
  'dolphin',
  'whale',
  'krill',
];

/** Question titles as people write them; {x} becomes a technology. */
export const TITLES = [
  'How do I parse JSON safely in {x}?',
  'Why does my {x} app keep using more memory?',
  'Best way to handle errors with async/await in {x}',
  '"undefined is not a function" when calling a method in {x}',
  'How to sort an array of objects by date in {x}?',
  'Unit testing code that reads files in {x}',
  'Why is this {x} query slow on a large table?',
  'How can I debounce input events in {x}?',
  'What is the difference between map and forEach in {x}?',
  'How do I read environment variables in {x}?',
  'Timezone bugs when storing dates with {x}',
  'How to stream a large file without loading it all in {x}?',
  'Is it safe to store session tokens in cookies with {x}?',
  'How do I make a keyboard-accessible dropdown with {x}?',
  'Why does {x} say my import cannot be found?',
  'Getting a CORS error calling my own API from {x}',
  'How do I cancel a request that takes too long in {x}?',
  'Regex to match an email address in {x}, good enough?',
  'How to profile CPU usage of a {x} program?',
  'Deploying a {x} service behind a reverse proxy',
  'Counting unicode characters correctly in {x}',
  'Why is my {x} test flaky only in CI?',
  'How to paginate results efficiently with {x}?',
  'Where should validation live in a {x} project?',
  'Caching expensive computations in {x} without stale data',
];

/** JavaScript, TypeScript, React, Node.js, PostgreSQL, Python, Rust, Go, CSS, Docker. */
const TECH = TOPICS.map((topic) => topic.tech);

const TAGS = [
  'javascript',
  'typescript',
  'react',
  'node',
  'postgres',
  'css',
  'html',
  'sql',
  'docker',
  'git',
  'linux',
  'python',
  'rust',
  'go',
  'java',
  'testing',
  'performance',
  'security',
  'accessibility',
  'api',
  'socket-io',
  'fastify',
  'vite',
  'regex',
  'json',
  'async',
  'unicode',
  'dates',
  'caching',
  'deployment',
];

export interface CommunitySize {
  users: number;
  questions: number;
  tags: number;
  answersPerQuestion: number;
  commentsPerQuestion: number;
  votesPerQuestion: number;
  viewsPerQuestion: number;
  /** Spread of ask times back from now. */
  days: number;
  /**
   * Questions in Markdown that stay on their title's technology: its tag first, a snippet
   * in its language, code spans and emphasis in the texts (the demo). Without it, the plain
   * texts the benchmarks were measured on.
   */
  topical?: boolean;
}

export const DEMO_SIZE: CommunitySize = {
  users: 20,
  questions: 200,
  tags: 30,
  answersPerQuestion: 2,
  commentsPerQuestion: 2,
  votesPerQuestion: 4,
  viewsPerQuestion: 8,
  days: 60,
  topical: true,
};

export const benchSize = (questions: number): CommunitySize => ({
  users: 10_000,
  questions,
  tags: 500,
  answersPerQuestion: 3,
  commentsPerQuestion: 2,
  votesPerQuestion: 3,
  viewsPerQuestion: 5,
  days: 3 * 365,
});

const textArray = (values: readonly string[]) =>
  sql`array[${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )}]::text[]`;

/** The names of the seeded tags. */
export const seedTagNames = (count: number) => Array.from({ length: count }, (_, i) => TAGS[i] ?? `topic-${i + 1}`);

export type SeedStep = 'questions' | 'vacuum';

/** How far a seed has come: `done` of `total` for the step, `seconds` since the seed began. */
export interface SeedProgress {
  step: SeedStep;
  done: number;
  total: number;
  seconds: number;
}

/**
 * Generates a community inside the database with set-based inserts (generate_series), so
 * that a million questions take minutes, not hours. Users are `${prefix}1..N` with one
 * shared password. Counters are computed at the end from the rows, as the commands keep them.
 */
export async function seedCommunity(
  db: Db,
  size: CommunitySize,
  options: { prefix: string; password: string; batch?: number; onProgress?: (progress: SeedProgress) => void },
): Promise<void> {
  const words = textArray(WORDS);
  const nWords = WORDS.length;
  const passwordHash = await hashPassword(options.password);
  await db.execute(sql`
    insert into accounts (username, email, password_hash, created_at)
    select ${options.prefix} || g, ${options.prefix} || g || '@porpoise.example', ${passwordHash}, now() - make_interval(days => ${size.days} + 1)
    from generate_series(1, ${size.users}) g
    on conflict do nothing`);
  await db.execute(sql`
    insert into profiles (account_id) select id from accounts on conflict do nothing`);
  const tagNames = seedTagNames(size.tags);
  await db.execute(sql`
    insert into tags (name, description)
    select name, 'Questions about ' || name from unnest(${textArray(tagNames)}) as name
    on conflict do nothing`);

  const [bounds] = await queryRows<{ min: number; max: number }>(
    db,
    sql`select min(id)::int as min, max(id)::int as max from accounts where username like ${options.prefix + '%'}`,
  );
  const [tagBounds] = await queryRows<{ min: number; max: number }>(
    db,
    sql`select min(id)::int as min, max(id)::int as max from tags`,
  );
  if (!bounds || !tagBounds) throw new Error('seeding failed: no accounts or tags');
  const userSpan = bounds.max - bounds.min + 1;
  const tagSpan = tagBounds.max - tagBounds.min + 1;
  const randomWord = sql`(${words})[1 + floor(random() * ${nWords})::int]`;
  const randomTitle = sql`replace((${textArray(TITLES)})[1 + floor(random() * ${TITLES.length})::int], '{x}', (${textArray(TECH)})[1 + floor(random() * ${TECH.length})::int])`;
  const randomUser = sql`${bounds.min} + floor(random() * ${userSpan})::int`;
  const batch = options.batch ?? 20_000;
  // Each question's own count of rows: the count is drawn in a subquery, once per question
  // (a random bound written straight into generate_series's arguments is evaluated once for
  // the whole statement, and every question would get the same number).
  const perQuestion = (count: SQL) =>
    sql`(select id, ask_date_time, ${count} as n from new_questions) q cross join lateral generate_series(1, q.n)`;
  if (size.topical) requireTopicTags(tagNames);
  // Markdown around a word in the topical texts; the plain texts keep the word as it was.
  const codeSpan = (word: SQL) => (size.topical ? sql`${'`'} || ${word} || ${'`'}` : word);
  const emphasis = (word: SQL) => (size.topical ? sql`'*' || ${word} || '*'` : word);
  const started = performance.now();
  const report = (step: SeedStep, done: number, total: number) =>
    options.onProgress?.({ step, done, total, seconds: (performance.now() - started) / 1000 });
  report('questions', 0, size.questions);

  for (let done = 0; done < size.questions; done += batch) {
    const count = Math.min(batch, size.questions - done);
    await db.transaction(async (tx) => {
      const topical = size.topical
        ? topicalBatch({
            count,
            days: size.days,
            rareCodes: Math.max(1, Math.round(size.questions / 5)),
            word: randomWord,
            user: randomUser,
            tagNames,
            perQuestion,
          })
        : null;
      if (topical) for (const statement of topical.questions) await tx.execute(statement);
      else
        await tx.execute(sql`
        create temporary table new_questions on commit drop as
        with inserted as (
          -- The search vector is written below, with the tags.
          insert into questions (title, text, asked_by, ask_date_time, last_activity_at, search)
          select ${randomTitle},
                 'I am working with ' || ${randomWord} || ' and ' || ${randomWord} || '. When I ' || ${randomWord} || ' the '
                   || ${randomWord} || ' I get an error about ' || ${randomWord} || ' (code E'
                   -- One code per five questions or so, whatever the size: the rare words.
                   || floor(random() * ${Math.max(1, Math.round(size.questions / 5))})::int || '). What am I missing?',
                 ${randomUser}, t, t, ''::tsvector
          from (select now() - random() * make_interval(days => ${size.days}) as t from generate_series(1, ${count})) times
          returning id, ask_date_time)
        select id, ask_date_time from inserted`);
      await tx.execute(
        topical?.tags ??
          sql`
        insert into question_tags (question_id, tag_id, ask_date_time, last_activity_at)
        select distinct q.id, ${tagBounds.min} + floor(random() * ${tagSpan})::int, q.ask_date_time, q.ask_date_time
        from ${perQuestion(sql`1 + floor(random() * 3)::int`)}
        on conflict do nothing`,
      );
      await tx.execute(sql`
        insert into answers (question_id, text, ans_by, ans_date_time)
        select q.id, 'You need to ' || ${randomWord} || ' the ' || ${codeSpan(randomWord)} || ' before you ' || ${randomWord} || ' it.',
               ${randomUser}, q.ask_date_time + random() * (now() - q.ask_date_time)
        from new_questions q cross join generate_series(1, ${size.answersPerQuestion})
        where random() < 0.85`);
      await tx.execute(sql`
        insert into comments (question_id, text, comment_by, comment_date_time)
        select q.id, 'Have you tried ' || ${codeSpan(randomWord)} || '?', ${randomUser}, q.ask_date_time + random() * (now() - q.ask_date_time)
        from new_questions q cross join generate_series(1, ${size.commentsPerQuestion})
        where random() < 0.6`);
      await tx.execute(sql`
        insert into comments (answer_id, text, comment_by, comment_date_time)
        select a.id, 'This worked for me with ' || ${emphasis(randomWord)} || '.', ${randomUser}, a.ans_date_time + random() * (now() - a.ans_date_time)
        from answers a join new_questions q on q.id = a.question_id
        where random() < 0.3`);
      await tx.execute(sql`
        insert into votes (question_id, account_id, value)
        select q.id, ${randomUser}, case when random() < 0.8 then 1 else -1 end
        from new_questions q cross join generate_series(1, ${size.votesPerQuestion})
        on conflict do nothing`);
      await tx.execute(sql`
        insert into views (question_id, account_id, viewed_at)
        select q.id, ${randomUser}, q.ask_date_time + random() * (now() - q.ask_date_time)
        from ${perQuestion(sql`1 + floor(random() * ${size.viewsPerQuestion * 2})::int`)}
        on conflict do nothing`);
      await tx.execute(sql`
        update questions q set
          answer_count = coalesce(a.n, 0),
          last_activity_at = greatest(q.ask_date_time, coalesce(a.latest, q.ask_date_time)),
          view_count = coalesce((select count(*) from views v where v.question_id = q.id), 0),
          up_count = coalesce((select count(*) from votes v where v.question_id = q.id and v.value = 1), 0),
          down_count = coalesce((select count(*) from votes v where v.question_id = q.id and v.value = -1), 0),
          search = ${questionSearchVector(
            sql`q.title`,
            sql`q.text`,
            sql`array(select ${tagLexemeSql(sql`qt.tag_id`)} from question_tags qt where qt.question_id = q.id)`,
          )}
        from new_questions nq
        left join (select question_id, count(*) as n, max(ans_date_time) as latest from answers
                   where question_id in (select id from new_questions) group by question_id) a on a.question_id = nq.id
        where q.id = nq.id`);
      await tx.execute(sql`
        update question_tags qt set last_activity_at = q.last_activity_at, answer_count = q.answer_count
        from new_questions nq join questions q on q.id = nq.id where qt.question_id = nq.id`);
      // Their mostViewed rows (schema: view_ranks): the whole list's and each tag's.
      await tx.execute(sql`
        insert into view_ranks (question_id, tag_id, view_count, ask_date_time)
        select q.id, ${WHOLE_LIST}, q.view_count, q.ask_date_time from new_questions nq join questions q on q.id = nq.id
        union all
        select q.id, qt.tag_id, q.view_count, q.ask_date_time
        from new_questions nq join questions q on q.id = nq.id join question_tags qt on qt.question_id = q.id`);
    });
    report('questions', done + count, size.questions);
  }
  await db.execute(sql`
    update question_counters set total = (select count(*) from questions where deleted_at is null),
      unanswered = (select count(*) from questions where answer_count = 0 and deleted_at is null)`);
  await db.execute(sql`
    update tags t set question_count = (select count(*) from question_tags qt where qt.tag_id = t.id and not qt.deleted)`);
  // Reputation from those votes and accepts, by the rules the upgrade to it applied (migration 0023).
  await db.execute(sql`select rebuild_reputation()`);
  // What autovacuum would get to soon after such a load: statistics for the planner and a
  // visibility map, which lets counts skip reading rows they only need to count.
  report('vacuum', 0, 1);
  await db.execute(sql`vacuum analyze`);
  report('vacuum', 1, 1);
}

/** The topical seed tags each question with its technology's tag: every one must be among the seeded tags. */
function requireTopicTags(tagNames: string[]): void {
  const missing = TOPICS.filter((topic) => !tagNames.includes(topic.tag)).map((topic) => topic.tag);
  if (missing.length > 0) throw new Error(`a topical seed needs the tags ${missing.join(', ')}: seed more tags`);
}

/**
 * The statements of one topical batch. `new_questions` (id, topic, ask time) is drawn first,
 * its ids taken from the questions' sequence, so that the title, the snippet and the first
 * tag all follow the same topic; then the questions (search vector blank: written later
 * with the tags, as for the plain ones) and their tags: the topic's, then 0 to 2 others.
 */
function topicalBatch(parts: {
  count: number;
  days: number;
  /** How many error codes the texts share out (the rare words). */
  rareCodes: number;
  word: SQL;
  user: SQL;
  /** The seeded tags, which the others are drawn from. */
  tagNames: string[];
  perQuestion: (count: SQL) => SQL;
}): { questions: SQL[]; tags: SQL } {
  const { word } = parts;
  const snippets = TOPICS.flatMap((topic) => topic.snippets);
  const title = sql`replace((${textArray(TITLES)})[1 + floor(random() * ${TITLES.length})::int], '{x}', (${textArray(TECH)})[q.topic])`;
  const text = sql`'I am working with ' || ${word} || ' and ' || ${'`'} || ${word} || ${'`'} || '. When I ' || ${word}
    || ' the ' || ${word} || ' I get an error about **' || ${word} || '** (code E'
    || floor(random() * ${parts.rareCodes})::int || ') here:' || ${'\n\n```'}
    || (${textArray(snippets.map((snippet) => snippet.fence))})[pick.n] || ${'\n'}
    || (${textArray(snippets.map((snippet) => snippet.source))})[pick.n] || ${'\n```\n\nWhat am I missing?'}`;
  const questions = [
    sql`
      create temporary table new_questions on commit drop as
      select nextval(pg_get_serial_sequence('questions', 'id')) as id, 1 + floor(random() * ${TOPICS.length})::int as topic,
             now() - random() * make_interval(days => ${parts.days}) as ask_date_time
      from generate_series(1, ${parts.count})`,
    sql`
      insert into questions (id, title, text, asked_by, ask_date_time, last_activity_at, search)
      overriding system value
      select q.id, ${title}, ${text}, ${parts.user}, q.ask_date_time, q.ask_date_time, ''::tsvector
      -- One of the topic's snippets, drawn per question.
      from new_questions q cross join lateral (
        select (q.topic - 1) * ${SNIPPETS_PER_TOPIC} + 1 + floor(random() * ${SNIPPETS_PER_TOPIC})::int as n) pick`,
  ];
  // The others by name, not from a range of ids: tags made by the app (the demo content's)
  // leave gaps in the ids, as every insert that meets an existing name uses one up.
  const tags = sql`
    insert into question_tags (question_id, tag_id, ask_date_time, last_activity_at)
    select q.id, t.id, q.ask_date_time, q.ask_date_time
    from new_questions q join tags t on t.name = (${textArray(TOPICS.map((topic) => topic.tag))})[q.topic]
    union
    select q.id, t.id, q.ask_date_time, q.ask_date_time
    from (select q.id, q.ask_date_time, (${textArray(parts.tagNames)})[1 + floor(random() * ${parts.tagNames.length})::int] as name
          from ${parts.perQuestion(sql`floor(random() * 3)::int`)}) q
    join tags t on t.name = q.name
    on conflict do nothing`;
  return { questions, tags };
}
