import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import type { StoredImage } from './uploads.ts';
import { at, heldCheck, id, ref, tsvector } from './columns.ts';

export const tags = pgTable(
  'tags',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    /** Questions carrying the tag, kept by the commands in the writing transaction (the tags page reads it). */
    questionCount: integer('question_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('tags_name_key').on(t.name),
    // Suggestions as one types (queries/suggestions.ts): a name's prefix is a range of this
    // index, read in its order, whatever the database's collation (migration 0020).
    index('tags_name_prefix_idx').on(sql`(${t.name} collate "C")`),
  ],
);

/**
 * Questions keep denormalised counters (answers, views, votes, last activity) so that a
 * page of any list order is an index scan; commands update them in the same transaction.
 */
export const questions = pgTable(
  'questions',
  {
    id: id(),
    title: text('title').notNull(),
    text: text('text').notNull(),
    /** The uploaded images its text embeds, with their sizes (docs/product.md section 14); null when none. */
    images: jsonb('images').$type<StoredImage[]>(),
    askedBy: ref('asked_by')
      .notNull()
      .references(() => accounts.id),
    askDateTime: at('ask_date_time').notNull().defaultNow(),
    lastActivityAt: at('last_activity_at').notNull().defaultNow(),
    answerCount: integer('answer_count').notNull().default(0),
    viewCount: integer('view_count').notNull().default(0),
    upCount: integer('up_count').notNull().default(0),
    downCount: integer('down_count').notNull().default(0),
    /** The answer the asker accepted, if any (docs/product.md section 7). */
    acceptedAnswerId: ref('accepted_answer_id').references((): AnyPgColumn => answers.id, { onDelete: 'set null' }),
    /** The last edit (docs/product.md section 9): when, and by whom; null until edited. */
    editedAt: at('edited_at'),
    editedBy: ref('edited_by').references(() => accounts.id),
    /**
     * Deleted (docs/product.md section 9): hidden from lists, search, counts and profiles, seen
     * only by its author and moderators until undeleted. Null while it shows.
     */
    deletedAt: at('deleted_at'),
    deletedBy: ref('deleted_by').references(() => accounts.id),
    /**
     * Why a post is hidden while nobody deleted it (deleted_at set, deleted_by null): 'flags'
     * (three spam or rude flags) or 'approval' (a new account's post waiting for a
     * moderator), docs/product.md section 10. Null otherwise.
     */
    heldFor: text('held_for'),
    /** Its deleted answers and comments: while above 0, its page names their authors, who see them. */
    hiddenCount: integer('hidden_count').notNull().default(0),
    /** Closed by a moderator (docs/product.md section 9): no new answers. Null while open. */
    /**
     * Votes waiting to change its state (docs/product.md section 13): close votes while it is
     * open, reopen votes while it is closed; kept with close_votes' rows, 0 again once it changes.
     */
    closeVotes: smallint('close_votes').notNull().default(0),
    closedAt: at('closed_at'),
    closedBy: ref('closed_by').references(() => accounts.id),
    closeReason: text('close_reason'),
    duplicateOf: ref('duplicate_of').references((): AnyPgColumn => questions.id, { onDelete: 'set null' }),
    // Title, text and tag lexemes, written with the question (db/search-vector.ts).
    search: tsvector('search').notNull(),
  },
  (t) => [
    heldCheck('questions', t),
    // Posts waiting for approval, in the review queue (docs/product.md section 10).
    index('questions_awaiting_approval_idx')
      .on(t.askDateTime)
      .where(sql`held_for = 'approval'`),
    // The lists' orders hold the questions that show: a deleted one leaves them (migration 0016).
    index('questions_newest_idx')
      .on(t.askDateTime.desc(), t.id.desc())
      .where(sql`deleted_at is null`),
    index('questions_active_idx')
      .on(t.lastActivityAt.desc(), t.id.desc())
      .where(sql`deleted_at is null`),
    // mostViewed's order is view_ranks' (below): an index here holding view_count made every
    // first view's update of the row a new entry in each of this table's indexes.
    index('questions_unanswered_idx')
      .on(t.askDateTime.desc(), t.id.desc())
      .where(sql`answer_count = 0 and deleted_at is null`),
    check(
      'questions_close_reason_check',
      sql`${t.closeReason} is null or ${t.closeReason} in ('duplicate', 'off-topic', 'needs details')`,
    ),
    index('questions_asked_by_idx').on(t.askedBy, t.askDateTime.desc()),
    // A short pending list (migration 0005): every search reads through it.
    index('questions_search_idx').using('gin', t.search).with({ gin_pending_list_limit: 128 }),
  ],
);

export const questionTags = pgTable(
  'question_tags',
  {
    questionId: ref('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    tagId: ref('tag_id')
      .notNull()
      .references(() => tags.id),
    // The question's sort keys again, kept by the commands that move them (the answer command
    // for the last two), so a tag's page in the newest, unanswered and active orders is an
    // index range scan of its own rows, not a read and sort of every question carrying the tag
    // (4,000 at 1M questions: 16k buffers, 68 ms, for a page without the copy). mostViewed's
    // are in view_ranks.
    askDateTime: at('ask_date_time').notNull(),
    lastActivityAt: at('last_activity_at').notNull(),
    answerCount: integer('answer_count').notNull().default(0),
    /** The question is deleted: it leaves the tag's pages (kept by the deleting command). */
    deleted: boolean('deleted').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.questionId, t.tagId] }),
    index('question_tags_newest_idx')
      .on(t.tagId, t.askDateTime.desc(), t.questionId.desc())
      .where(sql`not deleted`),
    index('question_tags_unanswered_idx')
      .on(t.tagId, t.askDateTime.desc(), t.questionId.desc())
      .where(sql`answer_count = 0 and not deleted`),
    index('question_tags_active_idx')
      .on(t.tagId, t.lastActivityAt.desc(), t.questionId.desc())
      .where(sql`not deleted`),
  ],
);

/** The whole list's rows in view_ranks: tag 0, which no tag has (tags' ids start at 1). */
export const WHOLE_LIST = 0;

/**
 * The mostViewed order's keys (docs/product.md section 3), one row per question for the whole
 * list (tag_id = WHOLE_LIST) and one per tag it carries: a page of either is a range of one
 * index. Kept apart from questions and question_tags because a first view moves view_count:
 * here an update writes two index entries, where in questions (8 indexes, one of them the
 * search's GIN) it wrote eight and blocked HOT updates (3.9x the view batch's cost, migration
 * 0028). The view batch keeps view_count; asking, tagging and untagging add and remove rows;
 * the deleting command keeps `deleted`, as question_tags'.
 */
export const viewRanks = pgTable(
  'view_ranks',
  {
    questionId: ref('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    /** The tag, or WHOLE_LIST (no foreign key: 0 is no tag). A removed tag's row goes with its link. */
    tagId: ref('tag_id').notNull(),
    viewCount: integer('view_count').notNull().default(0),
    askDateTime: at('ask_date_time').notNull(),
    deleted: boolean('deleted').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.questionId, t.tagId] }),
    index('view_ranks_order_idx')
      .on(t.tagId, t.viewCount.desc(), t.askDateTime.desc(), t.questionId.desc())
      .where(sql`not deleted`),
  ],
);

export const answers = pgTable(
  'answers',
  {
    id: id(),
    questionId: ref('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    /** The uploaded images its text embeds, with their sizes (docs/product.md section 14); null when none. */
    images: jsonb('images').$type<StoredImage[]>(),
    ansBy: ref('ans_by')
      .notNull()
      .references(() => accounts.id),
    ansDateTime: at('ans_date_time').notNull().defaultNow(),
    /** Kept equal to its stored votes by the vote command, in the voting transaction. */
    upCount: integer('up_count').notNull().default(0),
    downCount: integer('down_count').notNull().default(0),
    editedAt: at('edited_at'),
    editedBy: ref('edited_by').references(() => accounts.id),
    /** Deleted (docs/product.md section 9): out of its question's count and its author's profile. */
    deletedAt: at('deleted_at'),
    deletedBy: ref('deleted_by').references(() => accounts.id),
    heldFor: text('held_for'),
    /** It was the accepted answer when flags hid it: accepted again if a moderator shows it. */
    heldAccepted: boolean('held_accepted').notNull().default(false),
  },
  (t) => [
    heldCheck('answers', t),
    index('answers_awaiting_approval_idx')
      .on(t.ansDateTime)
      .where(sql`held_for = 'approval'`),
    index('answers_question_idx').on(t.questionId, t.ansDateTime),
    index('answers_ans_by_idx').on(t.ansBy, t.ansDateTime.desc()),
  ],
);

/** A comment belongs to exactly one question or one answer. */
export const comments = pgTable(
  'comments',
  {
    id: id(),
    questionId: ref('question_id').references(() => questions.id, { onDelete: 'cascade' }),
    answerId: ref('answer_id').references(() => answers.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    commentBy: ref('comment_by')
      .notNull()
      .references(() => accounts.id),
    commentDateTime: at('comment_date_time').notNull().defaultNow(),
    deletedAt: at('deleted_at'),
    deletedBy: ref('deleted_by').references(() => accounts.id),
    heldFor: text('held_for'),
  },
  (t) => [
    heldCheck('comments', t),
    check('comments_one_parent_check', sql`num_nonnulls(${t.questionId}, ${t.answerId}) = 1`),
    index('comments_question_idx')
      .on(t.questionId, t.commentDateTime)
      .where(sql`question_id is not null`),
    index('comments_answer_idx')
      .on(t.answerId, t.commentDateTime)
      .where(sql`answer_id is not null`),
  ],
);

/** One vote per user per question: +1 up, -1 down. */
export const votes = pgTable(
  'votes',
  {
    questionId: ref('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    accountId: ref('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    value: smallint('value').notNull(),
    votedAt: at('voted_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.questionId, t.accountId] }), check('votes_value_check', sql`${t.value} in (-1, 1)`)],
);

/**
 * Members' votes to close an open question, or to reopen a closed one (docs/product.md section
 * 13): one per member per question while its state stands; all go when it changes (by the third
 * vote or a moderator).
 */
export const closeVotes = pgTable(
  'close_votes',
  {
    questionId: ref('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    accountId: ref('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** 'close' or 'reopen'. */
    kind: text('kind').notNull(),
    /** A close vote's reason, and the original it names for a duplicate. */
    reason: text('reason'),
    duplicateOf: ref('duplicate_of'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.questionId, t.accountId] }),
    check('close_votes_kind_check', sql`${t.kind} in ('close', 'reopen')`),
    check(
      'close_votes_reason_check',
      sql`(${t.kind} = 'reopen' and ${t.reason} is null) or ${t.reason} in ('duplicate', 'off-topic', 'needs details')`,
    ),
  ],
);

/**
 * Every version of an edited post (docs/product.md section 9): revision 1 is the original, kept
 * from the post's first edit on (a post never edited has no rows: it is its own revision 1).
 * A question's revisions carry its title and tags; an answer's neither.
 */
export const revisions = pgTable(
  'revisions',
  {
    id: id(),
    questionId: ref('question_id').references(() => questions.id, { onDelete: 'cascade' }),
    answerId: ref('answer_id').references(() => answers.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    title: text('title'),
    text: text('text').notNull(),
    tags: jsonb('tags').$type<Array<{ name: string; description: string }>>(),
    editedBy: ref('edited_by')
      .notNull()
      .references(() => accounts.id),
    editedAt: at('edited_at').notNull().defaultNow(),
    reason: text('reason'),
  },
  (t) => [
    check('revisions_one_post_check', sql`num_nonnulls(${t.questionId}, ${t.answerId}) = 1`),
    uniqueIndex('revisions_question_key')
      .on(t.questionId, t.revision)
      .where(sql`question_id is not null`),
    uniqueIndex('revisions_answer_key')
      .on(t.answerId, t.revision)
      .where(sql`answer_id is not null`),
  ],
);

/** One vote per user per answer, like a question's: +1 up, -1 down. */
export const answerVotes = pgTable(
  'answer_votes',
  {
    answerId: ref('answer_id')
      .notNull()
      .references(() => answers.id, { onDelete: 'cascade' }),
    accountId: ref('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    value: smallint('value').notNull(),
    votedAt: at('voted_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.answerId, t.accountId] }),
    check('answer_votes_value_check', sql`${t.value} in (-1, 1)`),
  ],
);

/** One view per user per question. */
export const views = pgTable(
  'views',
  {
    questionId: ref('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    accountId: ref('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    viewedAt: at('viewed_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.questionId, t.accountId] }),
    // A page names its most recent viewers: read from this index's newest end.
    index('views_recent_idx').on(t.questionId, t.viewedAt.desc()),
  ],
);

/**
 * Exact counts for the unfiltered lists, kept by the commands in the same transaction, so
 * the home page's total is one row read instead of a count over every question.
 */
export const questionCounters = pgTable(
  'question_counters',
  {
    id: smallint('id').primaryKey().default(1),
    total: integer('total').notNull().default(0),
    unanswered: integer('unanswered').notNull().default(0),
  },
  (t) => [check('question_counters_single_row', sql`${t.id} = 1`)],
);
