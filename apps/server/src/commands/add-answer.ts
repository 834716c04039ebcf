import { sql } from 'drizzle-orm';
import { queryPrepared, type Db } from '../db/client.ts';
import { notFound } from '../lib/http-error.ts';
import type { Actor } from '../policies/actor.ts';

/**
 * Adds an answer and moves the question's answer count and last activity (and, for its
 * first answer, the unanswered count) in one statement: one round trip and one commit,
 * atomic like a transaction. The UPDATE locks the question's row, so concurrent answers
 * to one question count one after another.
 */
export async function addAnswer(db: Db, actor: Actor, questionId: number, text: string) {
  const [answer] = await queryPrepared<{ id: number; text: string; ansDateTime: Date | string }>(
    db,
    sql`
    with inserted as (
      insert into answers (question_id, text, ans_by)
      select id, ${text}, ${actor.id} from questions where id = ${questionId}
      returning id, text, ans_date_time
    ), counted as (
      update questions q set answer_count = q.answer_count + 1, last_activity_at = i.ans_date_time
      from inserted i where q.id = ${questionId}
      returning q.answer_count
    ), unanswered as (
      update question_counters set unanswered = unanswered - 1
      where exists (select 1 from counted where answer_count = 1)
    )
    select id, text, ans_date_time as "ansDateTime" from inserted`,
  );
  if (!answer) throw notFound('Question not found');
  return { id: Number(answer.id), text: answer.text, ansDateTime: new Date(answer.ansDateTime) };
}
