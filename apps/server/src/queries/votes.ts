import { sql } from 'drizzle-orm';
import { queryPrepared, type Db } from '../db/client.ts';
import { answerVoters } from './question-sql.ts';

/** The current up and down voters of a question, for voteUpdate. */
export async function getVoters(db: Db, questionId: number): Promise<{ upVotes: string[]; downVotes: string[] }> {
  const rows = await queryPrepared<{ username: string; value: number }>(
    db,
    sql`select a.username, v.value from votes v join accounts a on a.id = v.account_id where v.question_id = ${questionId}`,
  );
  return {
    upVotes: rows.filter((row) => Number(row.value) > 0).map((row) => row.username),
    downVotes: rows.filter((row) => Number(row.value) < 0).map((row) => row.username),
  };
}

/** The current up and down voters of an answer, for answerVoteUpdate. */
export async function getAnswerVoters(db: Db, answerId: number): Promise<{ upVotes: string[]; downVotes: string[] }> {
  const [row] = await queryPrepared<{ upVotes: string[]; downVotes: string[] }>(
    db,
    sql`select ${answerVoters(sql`${answerId}::bigint`, 1)} as "upVotes",
      ${answerVoters(sql`${answerId}::bigint`, -1)} as "downVotes"`,
  );
  return { upVotes: row?.upVotes ?? [], downVotes: row?.downVotes ?? [] };
}
