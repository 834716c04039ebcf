import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { questions, views } from '../db/schema.ts';
import type { Actor } from '../policies/actor.ts';

/** Adds the viewer to the question's views once; true when this was a new view. */
export async function recordView(db: Db, actor: Actor, questionId: number): Promise<boolean> {
  // Most page views are repeat views: a read answers them without a write and its commit.
  const [seen] = await db
    .select({ questionId: views.questionId })
    .from(views)
    .where(and(eq(views.questionId, questionId), eq(views.accountId, actor.id)));
  if (seen) return false;
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(views)
      .values({ questionId, accountId: actor.id })
      .onConflictDoNothing()
      .returning({ questionId: views.questionId });
    if (inserted.length === 0) return false;
    await tx
      .update(questions)
      .set({ viewCount: sql`${questions.viewCount} + 1` })
      .where(eq(questions.id, questionId));
    return true;
  });
}
