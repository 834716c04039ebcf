import { MESSAGES, type DomainEvent, type Outcome, type Tag } from '@porpoise/core';
import { eq, sql } from 'drizzle-orm';
import { inTransaction, type Db, type Tx } from '../db/client.ts';
import { answers, questions, questionTags, revisions, tags } from '../db/schema.ts';
import { questionSearchVector, tagLexeme } from '../db/search-vector.ts';
import { badRequest, postNotFound } from '../http/http-error.ts';
import type { Actor } from '../policies/actor.ts';
import { heldFor, removeAnswer, removeQuestion } from './delete-post.ts';
import { recordModeration } from './moderation-log.ts';
import { postImages } from './post-images.ts';
import { countInTags, ensureTags, linkTags, unlinkTags } from './question-tags.ts';

export interface QuestionEdit {
  title: string;
  text: string;
  tagNames: string[];
  reason: string | null;
}

/** The review queue hears of a post held again for approval. */
const reviewChanged = (targetType: 'question' | 'answer', targetId: number): DomainEvent => ({
  type: 'reviewChanged',
  targetType,
  targetId,
});

/** The tags of a question, by name, as the page shows them. */
async function tagsOf(tx: Tx, questionId: number): Promise<Array<Tag & { id: number }>> {
  return tx
    .select({ id: tags.id, name: tags.name, description: tags.description })
    .from(questionTags)
    .innerJoin(tags, eq(tags.id, questionTags.tagId))
    .where(eq(questionTags.questionId, questionId))
    .orderBy(tags.name);
}

/** The number the next revision of a post takes; the original becomes revision 1 at its first edit. */
async function nextRevision(
  tx: Tx,
  post: { questionId: number } | { answerId: number },
  original: () => Promise<typeof revisions.$inferInsert>,
): Promise<number> {
  const where =
    'questionId' in post ? eq(revisions.questionId, post.questionId) : eq(revisions.answerId, post.answerId);
  const [last] = await tx
    .select({ revision: sql<number>`max(${revisions.revision})` })
    .from(revisions)
    .where(where);
  const latest = last?.revision === null || last?.revision === undefined ? 0 : Number(last.revision);
  if (latest > 0) return latest + 1;
  await tx.insert(revisions).values(await original());
  return 2;
}

/**
 * Edits a question (docs/product.md section 9): title, text and tags replaced, its search words
 * with them, each tag's count and list rows kept, and a revision recorded (the original
 * first, at the first edit). The question's row is locked, so edits apply one at a time.
 * The caller has checked that the actor may edit it. `awaitsApproval`: the post queue
 * holds the edited question again (docs/product.md section 10), in the same transaction.
 */
export async function editQuestion(
  db: Db,
  actor: Actor,
  questionId: number,
  edit: QuestionEdit,
  awaitsApproval = false,
): Promise<Outcome<void>> {
  return inTransaction(db, async (tx) => {
    const [question] = await tx
      .select({
        title: questions.title,
        text: questions.text,
        askedBy: questions.askedBy,
        askDateTime: questions.askDateTime,
        lastActivityAt: questions.lastActivityAt,
        answerCount: questions.answerCount,
        deletedAt: questions.deletedAt,
      })
      .from(questions)
      .where(eq(questions.id, questionId))
      .for('update');
    if (!question) throw postNotFound('question');
    if (question.deletedAt !== null) throw badRequest(MESSAGES.deletedNotEditable);
    const images = await postImages(tx, edit.text);
    const before = await tagsOf(tx, questionId);
    const revision = await nextRevision(tx, { questionId }, async () => ({
      questionId,
      revision: 1,
      title: question.title,
      text: question.text,
      tags: before.map(({ name, description }) => ({ name, description })),
      editedBy: question.askedBy,
      editedAt: question.askDateTime,
    }));

    const after = await ensureTags(tx, edit.tagNames);
    const beforeIds = new Set(before.map((tag) => tag.id));
    const afterIds = new Set(after.map((tag) => tag.id));
    const removed = before.filter((tag) => !afterIds.has(tag.id)).map((tag) => tag.id);
    const added = after.filter((tag) => !beforeIds.has(tag.id));
    await unlinkTags(tx, questionId, removed);
    if (added.length > 0) {
      await linkTags(
        tx,
        questionId,
        added.map((tag) => tag.id),
      );
    }
    if (awaitsApproval) {
      // Holding it below moves every one of its tags' counts: all are locked now, in one pass
      // in id order as asking does, so the two updates never take them out of order (a deadlock).
      const every = [...new Set([...beforeIds, ...afterIds])];
      await tx.execute(
        sql`select id from tags where id = any(${sql.param(every)}::bigint[]) order by id for no key update`,
      );
    }
    // Each changed tag's count, as asking keeps it.
    const addedIds = added.map((tag) => tag.id);
    await countInTags(tx, addedIds, removed);
    const changed = [...removed, ...addedIds];
    await tx
      .update(questions)
      .set({
        title: edit.title,
        text: edit.text,
        images: images.stored,
        editedAt: sql`now()`,
        editedBy: actor.id,
        search: questionSearchVector(
          sql`${edit.title}::text`,
          sql`${edit.text}::text`,
          sql`${sql.param(after.map((tag) => tagLexeme(tag.id)))}::text[]`,
        ),
      })
      .where(eq(questions.id, questionId));
    await tx.insert(revisions).values({
      questionId,
      revision,
      title: edit.title,
      text: edit.text,
      tags: after.map(({ name, description }) => ({ name, description })),
      editedBy: actor.id,
      reason: edit.reason,
    });
    // A moderator editing someone else's question is logged (docs/product.md section 10).
    if (Number(question.askedBy) !== actor.id) {
      const entry = { action: 'edit', targetType: 'question', targetId: questionId } as const;
      await recordModeration(tx, actor, { ...entry, subjectId: Number(question.askedBy), reason: edit.reason });
    }
    const tagNames = [...new Set([...before, ...after].map((tag) => tag.name.toLowerCase()))];
    const edited: DomainEvent = {
      type: 'questionEdited',
      questionId,
      tags: tagNames,
      tagsChanged: changed.length > 0,
      images: images.names,
    };
    if (!awaitsApproval) return { result: undefined, events: [edited] };
    // The edit's event still clears the lists of the tags it left; the processor reads the
    // question as the public does, held, so it sends none of the edited text.
    const held = await removeQuestion(tx, questionId, heldFor('approval'), true);
    return { result: undefined, events: [edited, ...held, reviewChanged('question', questionId)] };
  });
}

/**
 * Edits an answer's text (docs/product.md section 9), recording a revision; the answer's row is
 * locked. `awaitsApproval`: held again until a moderator approves it, as editQuestion.
 */
export async function editAnswer(
  db: Db,
  actor: Actor,
  answerId: number,
  text: string,
  reason: string | null,
  awaitsApproval = false,
): Promise<Outcome<{ questionId: number }>> {
  return inTransaction(db, async (tx) => {
    // Holding it locks its question's row: taken first, as deleting and flagging take it.
    if (awaitsApproval) {
      await tx.execute(
        sql`select 1 from questions where id = (select question_id from answers where id = ${answerId}) for update`,
      );
    }
    const [answer] = await tx
      .select({
        questionId: answers.questionId,
        text: answers.text,
        ansBy: answers.ansBy,
        ansDateTime: answers.ansDateTime,
        deletedAt: answers.deletedAt,
      })
      .from(answers)
      .where(eq(answers.id, answerId))
      .for('update');
    if (!answer) throw postNotFound('answer');
    if (answer.deletedAt !== null) throw badRequest(MESSAGES.deletedNotEditable);
    const images = await postImages(tx, text);
    const revision = await nextRevision(tx, { answerId }, async () => ({
      answerId,
      revision: 1,
      text: answer.text,
      editedBy: answer.ansBy,
      editedAt: answer.ansDateTime,
    }));
    await tx
      .update(answers)
      .set({ text, images: images.stored, editedAt: sql`now()`, editedBy: actor.id })
      .where(eq(answers.id, answerId));
    await tx.insert(revisions).values({ answerId, revision, text, editedBy: actor.id, reason });
    if (Number(answer.ansBy) !== actor.id) {
      const entry = { action: 'edit', targetType: 'answer', targetId: answerId } as const;
      await recordModeration(tx, actor, { ...entry, subjectId: Number(answer.ansBy), reason });
    }
    const questionId = Number(answer.questionId);
    const edited: DomainEvent = { type: 'answerEdited', questionId, answerId, images: images.names };
    if (!awaitsApproval) return { result: { questionId }, events: [edited] };
    const { events } = await removeAnswer(tx, answerId, heldFor('approval'));
    return { result: { questionId }, events: [edited, ...events, reviewChanged('answer', answerId)] };
  });
}
