import type {
  Answer,
  Closed,
  CloseReason,
  HeldFor,
  Comment,
  Question,
  QuestionSummary,
  Tag,
  TagWithCount,
  UserAnswer,
} from '@porpoise/core';
import { uploadUrl, type ImageSize } from '@porpoise/core';
import type { ResponseOf, SocketPayloads } from '@porpoise/core/contract';
import type { StoredImage } from '../db/schema.ts';

type Revision = ResponseOf<'questionRevisions'>[number];

/** Rows as the queries return them; presenters pick the fields the API promises. */
export interface SummaryRow {
  id: number;
  title: string;
  askedBy: string;
  askDateTime: Date;
  lastActivityAt: Date;
  answerCount: number;
  viewCount: number;
  upCount: number;
  downCount: number;
  acceptedAnswerId: number | null;
}

/** When a post was deleted (docs/product.md section 9); null or absent while it shows. */
interface Deletable {
  deletedAt?: Date | string | null;
  /** Why it is hidden while nobody deleted it (docs/product.md section 10). */
  heldFor?: HeldFor | null;
}

export interface CommentRow extends Deletable {
  id: number;
  text: string;
  commentBy: string;
  commentDateTime: Date;
}

export interface AnswerRow extends Deletable, WithImages {
  id: number;
  text: string;
  ansBy: string;
  /** The author's reputation beside their name (docs/product.md section 13). */
  ansByReputation: number;
  ansDateTime: Date;
  /** Its voters' names (a new answer has none). */
  upVotes: string[];
  downVotes: string[];
  /** Its last edit, if any: when, and the editor's name. */
  editedAt: Date | string | null;
  editedBy: string | null;
}

/** A post's text and the uploaded images it embeds (null or absent: none). */
interface WithImages {
  images?: StoredImage[] | null;
}

/** The images a post embeds, with their sizes (docs/product.md section 14): absent when none. */
const embeddedImages = (row: WithImages): { images?: ImageSize[] } =>
  row.images == null || row.images.length === 0
    ? {}
    : {
        images: row.images.map((image) => ({
          url: uploadUrl(image.name),
          width: Number(image.width),
          height: Number(image.height),
          ...(image.animated === true ? { animated: true as const } : {}),
        })),
      };

/** A time column as the API sends it: ISO 8601, or null. */
const timeOrNull = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

/** `deleted: true` on a deleted post (only its author and moderators are sent one), nothing on others. */
const deletedMark = (row: Deletable): { deleted?: true; held?: HeldFor } =>
  row.deletedAt === null || row.deletedAt === undefined
    ? {}
    : { deleted: true, ...(row.heldFor === null || row.heldFor === undefined ? {} : { held: row.heldFor }) };

/** An id column as the API sends it: a string, or null. */
const idOrNull = (value: number | string | null): string | null => (value === null ? null : String(value));

export interface TagRow {
  name: string;
  description: string;
}

/** A list row with its question's tags. */
export type TaggedSummaryRow = SummaryRow & { tags: readonly TagRow[] };

export const presentTag = (row: TagRow): Tag => ({
  name: row.name,
  description: row.description,
});

export const presentTagWithCount = (row: { name: string; description: string; qcnt: number }): TagWithCount => ({
  ...presentTag(row),
  qcnt: Number(row.qcnt),
});

export function presentSummary(row: TaggedSummaryRow): QuestionSummary {
  return {
    _id: String(row.id),
    title: row.title,
    tags: row.tags.map(presentTag),
    askedBy: row.askedBy,
    askDateTime: row.askDateTime.toISOString(),
    answerCount: row.answerCount,
    viewCount: row.viewCount,
    voteCount: row.upCount - row.downCount,
    lastActivity: row.lastActivityAt.toISOString(),
    acceptedAnswer: idOrNull(row.acceptedAnswerId),
  };
}

export const presentComment = (row: CommentRow): Comment => ({
  _id: String(row.id),
  text: row.text,
  commentBy: row.commentBy,
  commentDateTime: row.commentDateTime.toISOString(),
  ...deletedMark(row),
});

/** An answer with its question's id and title, as a profile or the answer's edit screen reads it. */
export interface UserAnswerRow extends WithImages {
  id: number;
  text: string;
  ansBy: string;
  ansDateTime: Date | string;
  qid: number;
  questionTitle: string;
}

/** An answer on a profile or its edit screen: with its question's id and title, without votes or comments. */
export const presentUserAnswer = (row: UserAnswerRow): UserAnswer => ({
  _id: String(row.id),
  text: row.text,
  ...embeddedImages(row),
  ansBy: row.ansBy,
  ansDateTime: new Date(row.ansDateTime).toISOString(),
  comments: [],
  qid: String(row.qid),
  questionTitle: row.questionTitle,
});

export const presentAnswer = (row: AnswerRow, comments: Comment[]): Answer => ({
  _id: String(row.id),
  text: row.text,
  ...embeddedImages(row),
  ansBy: row.ansBy,
  ansByReputation: Number(row.ansByReputation),
  ansDateTime: row.ansDateTime.toISOString(),
  comments,
  upVotes: row.upVotes,
  downVotes: row.downVotes,
  editedAt: timeOrNull(row.editedAt),
  editedBy: row.editedBy,
  ...deletedMark(row),
});

/** An answer with its comments, as the question page and the page of more answers read them. */
export type AnswerWithCommentsRow = AnswerRow & { comments: CommentRow[] };

export const presentAnswerWithComments = (row: AnswerWithCommentsRow): Answer =>
  presentAnswer(row, row.comments.map(presentComment));

/** A question's closing as the page query reads it. */
export interface ClosedRow {
  reason: CloseReason;
  closedBy: string;
  closedAt: Date | string;
  duplicateOf: { id: number; title: string } | null;
}

export const presentClosed = (row: ClosedRow | null): Closed | null =>
  row === null
    ? null
    : {
        reason: row.reason,
        duplicateOf:
          row.duplicateOf === null ? null : { _id: String(row.duplicateOf.id), title: row.duplicateOf.title },
        closedBy: row.closedBy,
        closedAt: new Date(row.closedAt).toISOString(),
      };

export interface QuestionDetail {
  question: SummaryRow &
    Deletable &
    WithImages & {
      text: string;
      editedAt: Date | string | null;
      editedBy: string | null;
      askerId: number;
      closed: ClosedRow | null;
      closeVotes: number;
      askedByReputation: number;
      /**
       * The accounts whose deleted answers or comments are on this page, who see them
       * marked (as moderators do); empty when it has none. Never sent.
       */
      hiddenAuthorIds: number[];
    };
  tags: TagRow[];
  answers: AnswerWithCommentsRow[];
  comments: CommentRow[];
  upVotes: string[];
  downVotes: string[];
  views: string[];
}

export function presentQuestion(detail: QuestionDetail): Question {
  const { question } = detail;
  return {
    _id: String(question.id),
    title: question.title,
    text: question.text,
    ...embeddedImages(question),
    tags: detail.tags.map(presentTag),
    askedBy: question.askedBy,
    askedByReputation: Number(question.askedByReputation),
    askDateTime: question.askDateTime.toISOString(),
    answers: detail.answers.map(presentAnswerWithComments),
    answerCount: Number(question.answerCount),
    upVotes: detail.upVotes,
    downVotes: detail.downVotes,
    views: detail.views,
    viewCount: Number(question.viewCount),
    comments: detail.comments.map(presentComment),
    acceptedAnswer: idOrNull(question.acceptedAnswerId),
    editedAt: timeOrNull(question.editedAt),
    editedBy: question.editedBy,
    closed: presentClosed(question.closed),
    closeVotes: Number(question.closeVotes),
    ...deletedMark(question),
  };
}

/** A question's title, text, tags and last edit, for questionEditUpdate. */
export function presentQuestionEdit(detail: QuestionDetail): SocketPayloads['questionEditUpdate'] {
  const question = presentQuestion(detail);
  return {
    qid: question._id,
    title: question.title,
    text: question.text,
    ...(question.images === undefined ? {} : { images: question.images }),
    tags: question.tags,
    editedAt: question.editedAt,
    editedBy: question.editedBy,
  };
}

/** A revision as the history query reads it (docs/product.md section 9). */
export interface RevisionRow {
  revision: number;
  title: string | null;
  text: string;
  tags: Tag[] | null;
  editedBy: string;
  editedAt: Date;
  reason: string | null;
}

/** A revision of a question (title and tags) or of an answer (neither), as the history lists it. */
export function presentRevision(row: RevisionRow, post: 'question' | 'answer'): Revision {
  return {
    revision: row.revision,
    ...(post === 'question' ? { title: row.title ?? '', tags: (row.tags ?? []).map(presentTag) } : {}),
    text: row.text,
    editedBy: row.editedBy,
    editedAt: row.editedAt.toISOString(),
    reason: row.reason,
  };
}
