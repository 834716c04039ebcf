import type { Outcome } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { questionCounters, questions, questionTags } from '../db/schema.ts';
import { questionSearchVector, tagLexeme } from '../db/search-vector.ts';
import type { Actor } from '../policies/actor.ts';
import { heldFor, removeQuestion } from './delete-post.ts';
import { countInTags, ensureTags } from './question-tags.ts';

export interface NewQuestion {
  title: string;
  text: string;
  tagNames: string[];
}

/**
 * Creates the question, any new tags ('user added tag') and the links, in one transaction.
 * `awaitsApproval`: a new account's post (docs/product.md section 10), held in the same
 * transaction until a moderator approves it; nobody else hears of it meanwhile.
 */
export async function addQuestion(
  db: Db,
  actor: Actor,
  input: NewQuestion,
  awaitsApproval = false,
): Promise<Outcome<number>> {
  return db.transaction(async (tx) => {
    const tagRows = await ensureTags(tx, input.tagNames);
    const [question] = await tx
      .insert(questions)
      .values({
        title: input.title,
        text: input.text,
        askedBy: actor.id,
        search: questionSearchVector(
          sql`${input.title}::text`,
          sql`${input.text}::text`,
          sql`${sql.param(tagRows.map((tag) => tagLexeme(tag.id)))}::text[]`,
        ),
      })
      .returning({ id: questions.id, askDateTime: questions.askDateTime, lastActivityAt: questions.lastActivityAt });
    if (!question) throw new Error('insert returned no question');
    await tx.insert(questionTags).values(
      tagRows.map((tag) => ({
        questionId: question.id,
        tagId: tag.id,
        askDateTime: question.askDateTime,
        lastActivityAt: question.lastActivityAt,
      })),
    );
    await countInTags(
      tx,
      tagRows.map((tag) => tag.id),
    );
    await tx
      .update(questionCounters)
      .set({ total: sql`${questionCounters.total} + 1`, unanswered: sql`${questionCounters.unanswered} + 1` });
    if (awaitsApproval) {
      const held = await removeQuestion(tx, question.id, heldFor('approval'), true);
      return {
        result: question.id,
        events: [...held, { type: 'reviewChanged', targetType: 'question', targetId: question.id }],
      };
    }
    const tagNames = [...new Set(input.tagNames.map((name) => name.toLowerCase()))];
    return { result: question.id, events: [{ type: 'questionAsked', questionId: question.id, tags: tagNames }] };
  });
}
