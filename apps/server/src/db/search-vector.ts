import { sql, type SQL } from 'drizzle-orm';

/**
 * What the full-text index holds for a question: the words of its title and text (the
 * 'simple' configuration: lower-cased, no stemming, no stop words) and one lexeme per tag,
 * '[t<tag id>]'. The text parser never starts a lexeme with '[' (a URL path may hold one,
 * '/[t1]', but never first), so no text can pass for a tag, and a search "[tag] word" is
 * one condition on one index, not a word test plus a lookup of the tag's questions. Questions are not edited, so the vector is written once,
 * with the question (migration 0006 added the tags to the questions before it).
 */
export const tagLexeme = (tagId: number) => `[t${tagId}]`;

/** The same lexeme in SQL, for a tag id column (the seed). */
export const tagLexemeSql = (tagId: SQL) => sql`'[t' || ${tagId} || ']'`;

/** A question's search vector, from its title and text and its tags' lexemes (a text[] expression). */
export const questionSearchVector = (title: SQL, text: SQL, tagLexemes: SQL) =>
  sql`to_tsvector('simple', ${title} || ' ' || ${text}) || array_to_tsvector(${tagLexemes})`;

/**
 * A tsquery (as text, for a `::tsquery` cast) matching any of these tags, by id: only
 * digits and brackets, so nothing in a tag's name can change its meaning.
 */
export const anyTagQueryText = (tagIds: number[]) => tagIds.map((id) => `'${tagLexeme(id)}'`).join(' | ');
