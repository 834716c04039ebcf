import type { Outcome } from '@porpoise/core';
import { mentionedUsernames } from '@porpoise/core/markdown';
import { sql } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/client.ts';
import { questionCounters, questions } from '../db/schema.ts';
import { questionSearchVector, tagLexeme } from '../db/search-vector.ts';
import type { Actor } from '../policies/actor.ts';
import { heldFor, removeQuestion } from './delete-post.ts';
import { postImages } from './post-images.ts';
import { countInTags, ensureTags, linkTags } from './question-tags.ts';

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
  return inTransaction(db, async (tx) => {
    const images = await postImages(tx, input.text);
    const tagRows = await ensureTags(tx, input.tagNames);
    const [question] = await tx
      .insert(questions)
      .values({
        title: input.title,
        text: input.text,
        images: images.stored,
        askedBy: actor.id,
        search: questionSearchVector(
          sql`${input.title}::text`,
          sql`${input.text}::text`,
          sql`${sql.param(tagRows.map((tag) => tagLexeme(tag.id)))}::text[]`,
        ),
      })
      .returning({ id: questions.id });
    if (!question) throw new Error('insert returned no question');
    await linkTags(
      tx,
      question.id,
      tagRows.map((tag) => tag.id),
    );
    await countInTags(
      tx,
      tagRows.map((tag) => tag.id),
    );
    await tx
      .update(questionCounters)
      .set({ total: sql`${questionCounters.total} + 1`, unanswered: sql`${questionCounters.unanswered} + 1` });
    const tagNames = [...new Set(input.tagNames.map((name) => name.toLowerCase()))];
    const asked = {
      type: 'questionAsked',
      questionId: question.id,
      tags: tagNames,
      mentions: mentionedUsernames(input.text),
      images: images.names,
    } as const;
    if (awaitsApproval) {
      // Asked, and held: its notifications are written hidden, and show when it is approved.
      const held = await removeQuestion(tx, question.id, heldFor('approval'), true);
      return {
        result: question.id,
        events: [asked, ...held, { type: 'reviewChanged', targetType: 'question', targetId: question.id }],
      };
    }
    return { result: question.id, events: [asked] };
  });
}
