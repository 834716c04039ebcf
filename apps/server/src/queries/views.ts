import { sql } from 'drizzle-orm';
import { queryPrepared, type Db } from '../db/client.ts';
import { recentViewers } from './question-sql.ts';

/** A question's exact view count and, where asked, its recent viewers (for a page that shows them). */
export interface ViewCounts {
  viewCount: number;
  recent?: string[];
}

/** The view counts of these questions, with the recent viewers of those in `withViewers`: one round trip. */
export async function getViewCounts(
  db: Db,
  questionIds: number[],
  withViewers: ReadonlySet<number>,
): Promise<Map<number, ViewCounts>> {
  if (questionIds.length === 0) return new Map();
  const rows = await queryPrepared<{ id: number; viewCount: number; recent: string[] | null }>(
    db,
    sql`select q.id, q.view_count as "viewCount",
        case when q.id = any(${sql.param([...withViewers])}::bigint[])
          then array(${recentViewers(sql`q.id`)}) end as recent
      from questions q where q.id = any(${sql.param(questionIds)}::bigint[])`,
  );
  return new Map(
    rows.map((row) => [
      Number(row.id),
      { viewCount: Number(row.viewCount), ...(row.recent === null ? {} : { recent: row.recent }) },
    ]),
  );
}
