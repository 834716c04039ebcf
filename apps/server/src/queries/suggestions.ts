import { LIMITS } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';
import { notSuspended } from './accounts.ts';

/**
 * A LIKE pattern matching text that starts with `prefix`, taken literally: its wildcards and
 * the escape character are escaped (no user text is ever a pattern of its own).
 */
export function prefixPattern(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * Tags whose name starts with `prefix` (any case: names are stored lower case) that a shown
 * question carries (the tags page's own counts: docs/product.md section 10), by name, at most
 * LIMITS.suggestionsMax. A range of tags_name_prefix_idx, read in its order until enough
 * match: the cost does not grow with the number of tags. Unprepared, so the planner sees
 * the pattern's fixed prefix.
 */
export async function suggestTags(db: Db, prefix: string) {
  return queryRows<{ name: string; count: number }>(db, tagSuggestionsSql(prefix));
}

/** suggestTags' statement (its tests read its plan). */
export const tagSuggestionsSql = (prefix: string) =>
  sql`select name, question_count as count from tags
    where (name collate "C") like ${prefixPattern(prefix.toLowerCase())} and question_count > 0
    order by (name collate "C") limit ${LIMITS.suggestionsMax}`;

/**
 * Members other than `exceptId` whose username starts with `prefix` (any case), not
 * suspended now (nobody can write to them meanwhile), by name, at most
 * LIMITS.suggestionsMax: a range of accounts_username_prefix_idx, read in its order.
 */
export async function suggestUsernames(db: Db, prefix: string, exceptId: number) {
  return queryRows<{ username: string }>(db, usernameSuggestionsSql(prefix, exceptId));
}

/** suggestUsernames' statement (its tests read its plan). */
export const usernameSuggestionsSql = (prefix: string, exceptId: number) =>
  sql`select username from accounts
    where (lower(username) collate "C") like ${prefixPattern(prefix.toLowerCase())}
      and id <> ${exceptId} and ${notSuspended()}
    order by (lower(username) collate "C") limit ${LIMITS.suggestionsMax}`;
