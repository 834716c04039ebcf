import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';

/** Tables holding what people wrote; sessions and rate-limit counters change on every request by design. */
const CONTENT_TABLES = [
  'accounts',
  'profiles',
  'tags',
  'questions',
  'question_tags',
  'view_ranks',
  'answers',
  'comments',
  'votes',
  'views',
  'threads',
  'thread_participants',
  'messages',
  'message_reads',
  'message_likes',
  'forums',
];

/** A fingerprint of every content table, to prove that a refused request changed nothing. */
export async function snapshot(db: Db): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const table of CONTENT_TABLES) {
    const [row] = await queryRows<{ digest: string | null; n: number }>(
      db,
      sql.raw(
        `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest, count(*)::int as n from ${table} t`,
      ),
    );
    result[table] = `${row?.n}:${row?.digest}`;
  }
  return result;
}
