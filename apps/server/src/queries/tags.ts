import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';

/**
 * Every tag with the number of questions using it, most used first. The count is of shown
 * questions (commands keep it), so a tag whose questions are all held or deleted is not
 * listed (docs/product.md section 10).
 */
export async function listTagsWithCounts(db: Db) {
  return queryRows<{ name: string; description: string; qcnt: number }>(
    db,
    sql`select name, description, question_count as qcnt from tags where question_count > 0
      order by question_count desc, name`,
  );
}

/** A tag by name, only while a shown question carries it (docs/product.md section 10), as the list shows it. */
export async function getTag(db: Db, name: string) {
  const [tag] = await queryRows<{ name: string; description: string }>(
    db,
    sql`select name, description from tags where name = ${name.toLowerCase()} and question_count > 0`,
  );
  return tag ?? null;
}
