import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { questions } from '../db/schema.ts';
import { postNotFound } from '../http/http-error.ts';

/**
 * Locks a question's row for the rest of the transaction, so its counters change one
 * writer at a time; a deleted question takes no votes, answers or comments (404).
 */
export async function lockQuestion(tx: Tx, questionId: number): Promise<void> {
  const [row] = await tx
    .select({ id: questions.id })
    .from(questions)
    .where(and(eq(questions.id, questionId), isNull(questions.deletedAt)))
    .for('update');
  if (!row) throw postNotFound('question');
}
