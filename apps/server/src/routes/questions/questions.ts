import { LIMITS, type VoteDirection } from '@porpoise/core';
import type { QuestionListQuery } from '@porpoise/core/schemas';
import type { FastifyInstance } from 'fastify';
import { addQuestion } from '../../commands/add-question.ts';
import { recordView } from '../../commands/record-view.ts';
import { toggleVote } from '../../commands/vote.ts';
import { editQuestion } from '../../commands/edit-post.ts';
import { getStanding } from '../../queries/privileges.ts';
import {
  authorize,
  authorizeCloseVote,
  can,
  hiddenPostsSeenBy,
  refuseHidden,
  seesHiddenPosts,
} from '../../policies/authorize.ts';
import { setQuestionDeleted } from '../../commands/delete-post.ts';
import { castCloseVote, setClosed } from '../../commands/close-question.ts';
import { postNotFound } from '../../http/http-error.ts';
import { decodeCursor } from '../../http/list-cursor.ts';
import { route, type ContractInput } from '../../http/contract-routes.ts';
import { type Actor } from '../../policies/actor.ts';
import { followedTagNames } from '../../queries/notifications.ts';
import { ListPage, QuestionPage, withViewerDetail } from '../../cache/content-cache.ts';
import {
  presentAnswerWithComments,
  presentClosed,
  presentQuestion,
  presentRevision,
  presentSummary,
} from '../../presenters/question.ts';
import { getAnswerPage } from '../../queries/answers.ts';
import { listQuestions } from '../../queries/question-lists.ts';
import { getClosing, getQuestionDetail } from '../../queries/question-page.ts';
import { listRevisions } from '../../queries/revisions.ts';
import { getVoters } from '../../queries/votes.ts';
import { visibleQuestion } from '../../queries/visible-posts.ts';
import { bodyLimitFor } from '../../http/request-bodies.ts';
import { awaitsApproval, editAwaitsApproval } from '../../policies/post-queue.ts';

/**
 * A list page's cache key: the parsed query (defaults filled in, tag in lower case, as the
 * list reads it) in a fixed order, so unknown parameters and their order make no new entry.
 */
const listKey = (query: QuestionListQuery, tagSet: readonly string[] | null) =>
  JSON.stringify([query.order, query.tag?.toLowerCase() ?? null, query.limit, query.offset, tagSet]);

/** The home list, the question page, asking and voting (spec section 7). */
export async function questionRoutes(app: FastifyInstance) {
  route(app, 'getQuestions', {}, async ({ actor, query }, request, reply) => {
    // 'My tags' (docs/product.md section 11): the member's followed tags, by name; a page is
    // kept by the set, so members following the same tags share it.
    const tagSet = query.myTags ? await followedTagNames(app.db, actor.id) : null;
    const load = async () => {
      const after = query.cursor === undefined ? null : decodeCursor(query.cursor, query.order);
      const { rows, total, nextCursor } = await listQuestions(app.db, query, after, tagSet);
      const questions = rows.map(presentSummary);
      const tags = tagSet ?? (query.tag ? [query.tag.toLowerCase()] : null);
      return ListPage.of(query.order, tags, questions, total, nextCursor);
    };
    // Searches are a long tail of one-off queries, and cursors one per row: they go to the
    // database every time.
    const uncached = query.search !== undefined || query.cursor !== undefined;
    const page = uncached ? await load() : await app.contentCache.lists.get(listKey(query, tagSet), load);
    void reply.header('X-Total-Count', String(page.total));
    if (page.nextCursor !== null) void reply.header('X-Next-Cursor', page.nextCursor);
    return (await page.body()).send(request, reply);
  });

  const byId = { namesActor: ({ query }: { query: { username?: string } }) => query.username };
  route(app, 'getQuestionById', byId, async ({ actor, params: { id } }, request, reply) => {
    const questionId = Number(id);
    /** Records this reader's view; true when it was their first (an event for the processor). */
    const view = async () => {
      return app.events.settle(recordView(app.db, actor, questionId));
    };
    // Null unless this request loaded the page: then its view is recorded before the page
    // is made, so that a first view (most are, on a page nobody had open) makes it once.
    let viewedInLoad: boolean | null = null;
    // The cached page is the public one (docs/product.md section 9): no deleted answer or comment.
    const page = await app.contentCache.questions.get(id, async () => {
      const loaded = await getQuestionDetail(app.db, questionId);
      if (!loaded) throw postNotFound('question');
      // A deleted question's page is kept only to tell who may see it: never sent as it is.
      if (loaded.question.deletedAt !== null || loaded.views.includes(actor.username)) return QuestionPage.of(loaded);
      viewedInLoad = await view();
      return QuestionPage.of(viewedInLoad ? withViewerDetail(loaded, actor.username) : loaded);
    });
    const { question } = page.detail;
    refuseHidden(actor, { type: 'question', askerId: question.askerId }, question.deletedAt !== null);
    if (question.deletedAt !== null || seesHiddenPosts(actor, question.hiddenAuthorIds)) {
      // Its author or a moderator: this reader's own view, read for them and never cached.
      if (question.deletedAt === null && viewedInLoad === null) await view();
      const own = await getQuestionDetail(app.db, questionId, hiddenPostsSeenBy(actor));
      if (!own) throw postNotFound('question');
      return presentQuestion(own);
    }
    // A page that already names this reader needs no trip to the database at all.
    if (page.viewers.has(actor.username)) return (await page.body()).send(request, reply);
    const first = viewedInLoad ?? (await view());
    if (!first) {
      // An earlier viewer, no longer among the recent ones the page names: named for them.
      return presentQuestion(withViewerDetail(page.detail, actor.username, 0));
    }
    // A first view counts on this process's page at once (on others, and in lists, within a second).
    page.addViewer(actor.username);
    return (await page.body()).send(request, reply);
  });

  // The question page carries its first answers; the reader's browser asks for the rest here.
  route(app, 'getAnswers', {}, async ({ actor, params: { id }, query: { after } }) => {
    await visibleQuestion(app.db, actor, Number(id));
    const afterId = after === undefined ? null : Number(after);
    return (await getAnswerPage(app.db, Number(id), afterId, hiddenPostsSeenBy(actor))).map(presentAnswerWithComments);
  });

  // Title, text, tag names and the spec's askedBy.
  const questionBodyLimit = bodyLimitFor(
    LIMITS.titleMax + LIMITS.questionTextMax + LIMITS.tagsMax * LIMITS.tagNameMax + LIMITS.usernameMax,
  );
  const asking = {
    bodyLimit: questionBodyLimit,
    limit: 'question',
    namesActor: ({ body }: { body: { askedBy?: string } }) => body.askedBy,
  } as const;
  route(app, 'addQuestion', asking, async ({ actor, body: input }) => {
    const held = await awaitsApproval(app, actor);
    const questionId = await app.events.write((tx) =>
      addQuestion(tx, actor, { title: input.title, text: input.text, tagNames: input.tags }, held),
    );
    const detail = await getQuestionDetail(app.db, questionId);
    if (!detail) throw new Error('question vanished after insert');
    return presentQuestion(detail);
  });

  // Each vote toggles (docs/product.md section 7); toggles on one question run one at a time.
  // Both endpoints take and answer the same shapes.
  const vote =
    (direction: VoteDirection) =>
    async ({ actor, body: input }: { actor: Actor; body: ContractInput<'upvoteQuestion'>['body'] }) => {
      const questionId = Number(input.qid);
      await app.events.write((tx) => toggleVote(tx, actor, questionId, direction));
      return { qid: input.qid, ...(await getVoters(app.db, questionId)) };
    };
  const voteOptions = {
    bodyLimit: bodyLimitFor(LIMITS.usernameMax),
    limit: 'vote',
    namesActor: ({ body }: { body: { username?: string } }) => body.username,
  } as const;
  route(app, 'upvoteQuestion', voteOptions, vote('up'));
  route(app, 'downvoteQuestion', voteOptions, vote('down'));

  // The author, or a moderator, edits (docs/product.md section 9), with asking's rules and limits.
  const editing = {
    bodyLimit: bodyLimitFor(
      LIMITS.titleMax + LIMITS.questionTextMax + LIMITS.tagsMax * LIMITS.tagNameMax + LIMITS.editReasonMax,
    ),
    limit: 'question',
  } as const;
  route(app, 'editQuestion', editing, async ({ actor, params: { id }, body }) => {
    const questionId = Number(id);
    const question = await visibleQuestion(app.db, actor, questionId);
    // Another's question: 'Edit any post' may allow it (docs/product.md section 13).
    authorize(actor, 'edit', question, actor.id === question.askerId ? undefined : await getStanding(app.db, actor.id));
    const held = await editAwaitsApproval(app, actor, question.askerId);
    await app.events.write((tx) =>
      editQuestion(
        tx,
        actor,
        questionId,
        { title: body.title, text: body.text, tagNames: body.tags, reason: body.reason },
        held,
      ),
    );
    const detail = await getQuestionDetail(app.db, questionId);
    if (!detail) throw postNotFound('question');
    return presentQuestion(detail);
  });

  route(app, 'questionRevisions', {}, async ({ actor, params: { id } }) => {
    await visibleQuestion(app.db, actor, Number(id));
    const revisions = await listRevisions(app.db, { questionId: Number(id) });
    if (!revisions) throw postNotFound('question');
    return revisions.map((row) => presentRevision(row, 'question'));
  });

  // Its author deletes a question while it has no answers, a moderator any time; both
  // undelete it (docs/product.md section 9). Deleting twice changes nothing.
  const deleting = { bodyLimit: bodyLimitFor(0), limit: 'delete' } as const;
  const setDeleted =
    (deleted: boolean) =>
    async ({ actor, params: { id } }: { actor: Actor; params: { id: string } }) => {
      const questionId = Number(id);
      const resource = await visibleQuestion(app.db, actor, questionId);
      authorize(actor, deleted ? 'delete' : 'undelete', resource);
      const evenAnswered = can(actor, 'deleteAnswered', resource);
      const result = await app.events.write((tx) =>
        setQuestionDeleted(tx, actor, questionId, deleted, evenAnswered, resource.askerId),
      );
      return { _id: id, deleted: result.deleted };
    };
  route(app, 'deleteQuestion', deleting, setDeleted(true));
  route(app, 'undeleteQuestion', deleting, setDeleted(false));

  // Moderators close (with a reason; a duplicate names its original) and reopen.
  const closing = { bodyLimit: bodyLimitFor(100), limit: 'decide' } as const;
  const close = async (actor: Actor, id: string, reason: Parameters<typeof setClosed>[3]) => {
    const questionId = Number(id);
    authorize(actor, 'close', await visibleQuestion(app.db, actor, questionId));
    await app.events.settle(setClosed(app.db, actor, questionId, reason));
    const closed = await getClosing(app.db, questionId);
    if (closed === undefined) throw postNotFound('question');
    return { qid: id, closed: presentClosed(closed.closed) };
  };
  route(app, 'closeQuestion', closing, async ({ actor, params: { id }, body }) =>
    close(actor, id, { reason: body.reason, duplicateOf: body.duplicateOf === null ? null : Number(body.duplicateOf) }),
  );
  route(app, 'reopenQuestion', closing, async ({ actor, params: { id } }) => close(actor, id, null));

  // Members with 'Vote to close' vote to close and to reopen (docs/product.md section 13).
  const closeVote = async (actor: Actor, id: string, closing: Parameters<typeof castCloseVote>[3]) => {
    const questionId = Number(id);
    await visibleQuestion(app.db, actor, questionId);
    authorizeCloseVote(actor, await getStanding(app.db, actor.id));
    await app.events.settle(castCloseVote(app.db, actor, questionId, closing));
    const state = await getClosing(app.db, questionId);
    if (state === undefined) throw postNotFound('question');
    return { qid: id, closed: presentClosed(state.closed), closeVotes: state.closeVotes };
  };
  route(app, 'closeVote', closing, async ({ actor, params: { id }, body }) =>
    closeVote(actor, id, {
      reason: body.reason,
      duplicateOf: body.duplicateOf === null ? null : Number(body.duplicateOf),
    }),
  );
  route(app, 'reopenVote', closing, async ({ actor, params: { id } }) => closeVote(actor, id, null));
}
