import { LIMITS, parseSearch } from '@porpoise/core';
import { sql, type SQL } from 'drizzle-orm';
import { keptFor } from '../cache/question-tags.ts';
import { queryRows, type Db } from '../db/client.ts';
import { anyTagQueryText, tagLexeme } from '../db/search-vector.ts';

/** `a, b, c` as bound parameters, for `in (...)`. */
const inList = (values: Array<string | number>) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/** A search's terms: its tags (by id: the unknown ones dropped) and its words. */
export interface SearchTerms {
  tagIds: number[];
  words: string[];
}

/**
 * Any of the tags or any of the words (whole word, any case) in the question's search
 * vector: one condition on the full-text index, which PostgreSQL can take either way, as
 * a walk along the list's order testing each question or as the index's few matches.
 */
export function matchesAny({ tagIds, words }: SearchTerms): SQL {
  const queries = words.map((word) => sql`plainto_tsquery('simple', ${word})`);
  // A constant (not a subquery), so the planner sees how common the tags are.
  if (tagIds.length > 0) queries.unshift(sql`${anyTagQueryText(tagIds)}::tsquery`);
  return queries.length > 0 ? sql`q.search @@ (${sql.join(queries, sql` || `)})` : sql`false`;
}

/**
 * Tag ids by name, per database: a tag keeps its id for good, so a known name is never
 * asked again (an unknown one is: it may be created any time). Tags are few next to
 * questions; the map is dropped if it ever grows past TAG_IDS_KEPT.
 */
const TAG_IDS_KEPT = 50_000;
const tagIdCache = new WeakMap<Db, Map<string, number>>();

/** Forgets the tag ids kept (a lost commit's tag may come back under another id). */
export function forgetTagIds(db: Db): void {
  tagIdCache.delete(db);
}

export async function searchTerms(db: Db, text: string): Promise<SearchTerms | null> {
  const { tags, words } = parseSearch(text);
  if (tags.length === 0 && words.length === 0) return null;
  const known = keptFor(tagIdCache, db);
  if (known.size > TAG_IDS_KEPT) known.clear();
  const unknown = tags.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const rows = await queryRows<{ id: number; name: string }>(
      db,
      sql`select id, name from tags where name in (${inList(unknown)})`,
    );
    for (const row of rows) known.set(row.name, Number(row.id));
  }
  return { tagIds: tags.flatMap((name) => known.get(name) ?? []), words };
}

/**
 * Lexemes in at least twice the count's cap of questions, by PostgreSQL's own statistics:
 * the most common lexemes of the search column that ANALYZE samples (autovacuum keeps
 * them fresh), read at most once a minute. Deleted questions are few, so what ANALYZE saw
 * is still there: a search for such a word or tag has at least the cap's matches, without
 * counting them.
 */
const COMMON_WORDS_TTL_MS = 60_000;
const commonWordsCache = new WeakMap<Db, { readAt: number; words: Promise<Set<string>> }>();

function commonLexemes(db: Db): Promise<Set<string>> {
  const cached = commonWordsCache.get(db);
  if (cached && Date.now() - cached.readAt < COMMON_WORDS_TTL_MS) return cached.words;
  const words = queryRows<{ word: string }>(
    db,
    sql`select f.elem as word
      from pg_stats s, unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) f(elem, freq), pg_class c
      where s.schemaname = current_schema() and s.tablename = 'questions' and s.attname = 'search'
        and c.oid = 'questions'::regclass and f.freq * c.reltuples >= ${2 * LIMITS.searchCountCap}`,
  ).then(
    (rows) => new Set(rows.map((row) => row.word)),
    () => new Set<string>(),
  );
  commonWordsCache.set(db, { readAt: Date.now(), words });
  return words;
}

/**
 * Whether any of the terms is common. A plain word (letters and digits) is its own and
 * only lexeme in the 'simple' configuration; a tag is its lexeme.
 */
export async function anyTermIsCommon(db: Db, { tagIds, words }: SearchTerms): Promise<boolean> {
  const common = await commonLexemes(db);
  return (
    tagIds.some((id) => common.has(tagLexeme(id))) || words.some((word) => /^[a-z0-9]+$/.test(word) && common.has(word))
  );
}
