import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { questions, views } from '../db/schema.ts';
import type { Actor } from '../policies/actor.ts';

/** Adds the viewer to the question's views once; true when this was a new view. */
export async function recordView(db: Db, actor: Actor, questionId: number): Promise<boolean> {
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
