import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { questions } from '../db/schema.ts';
import { notFound } from '../lib/http-error.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Locks a question's row for the rest of the transaction, so its counters change one writer at a time. */
export async function lockQuestion(tx: Tx, questionId: number): Promise<void> {
  const [row] = await tx.select({ id: questions.id }).from(questions).where(eq(questions.id, questionId)).for('update');
  if (!row) throw notFound('Question not found');
}
