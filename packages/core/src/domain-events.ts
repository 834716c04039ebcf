import type { CommentTarget, FlagTarget, HeldFor, Role } from './types.ts';

/**
 * What a write changed, as the command that made it reports it (docs/style.md, "The write path").
 * Commands return these with their result; one processor on the server acts on them:
 * it invalidates exactly the cached reads they touch, asks the policies who hears each,
 * presents the payloads and emits. Later features (notifications, mail, moderation) hang
 * off the same processor. Events carry ids and the facts invalidation needs, not payloads.
 */
export type DomainEvent =
  | QuestionAsked
  | AnswerAdded
  | CommentAdded
  | VoteChanged
  | AnswerVoteChanged
  | AnswerAccepted
  | QuestionEdited
  | AnswerEdited
  | QuestionDeleted
  | AnswerDeleted
  | CommentDeleted
  | QuestionClosed
  | QuestionViewed
  | MessagePosted
  | ThreadStarted
  | ForumCreated
  | RoleChanged
  | PasswordResetRequested
  | EmailChangeRequested
  | EmailChanged
  | SessionsEnded
  | MessageDeleted
  | ReviewChanged
  | UnreadNotificationsChanged
  | ReputationAdjusted
  | CloseVoteCast;

export interface QuestionAsked {
  type: 'questionAsked';
  questionId: number;
  /** Its tag names, lower case: the tag-filtered lists it joins. */
  tags: string[];
  /** The usernames its text mentions (markdown mentionedUsernames): who hears of it (docs/product.md section 11). */
  mentions: string[];
  /** The uploaded images its text embeds, by name (docs/product.md section 14): the posts that use each are kept. */
  images: string[];
}

export interface AnswerAdded {
  type: 'answerAdded';
  questionId: number;
  answerId: number;
  /** The question's tag names, lower case. */
  tags: string[];
  /** The question's first answer: it leaves the unanswered lists. */
  firstAnswer: boolean;
  /** The usernames its text mentions (markdown mentionedUsernames): who hears of it (docs/product.md section 11). */
  mentions: string[];
  /** The uploaded images its text embeds, by name (docs/product.md section 14): the posts that use each are kept. */
  images: string[];
}

export interface CommentAdded {
  type: 'commentAdded';
  questionId: number;
  commentId: number;
  target: CommentTarget;
  parentId: number;
  /** The usernames its text mentions (markdown mentionedUsernames): who hears of it (docs/product.md section 11). */
  mentions: string[];
}

/** A vote added, moved or taken back (never sent for a write that changed nothing). */
export interface VoteChanged {
  type: 'voteChanged';
  questionId: number;
  /** Who voted: the ledger's row for their vote follows it (docs/product.md section 13). */
  voterId: number;
}

/** A vote on an answer added, moved or taken back. */
export interface AnswerVoteChanged {
  type: 'answerVoteChanged';
  questionId: number;
  answerId: number;
  voterId: number;
}

/** The question's accepted answer set, moved or taken back (null). */
export interface AnswerAccepted {
  type: 'answerAccepted';
  questionId: number;
  acceptedAnswerId: number | null;
}

/** A question's title, text or tags edited. */
export interface QuestionEdited {
  type: 'questionEdited';
  questionId: number;
  /** Its tag names before and after, lower case: the tag lists it may have joined or left. */
  tags: string[];
  tagsChanged: boolean;
  /** The uploaded images its text embeds, by name (docs/product.md section 14): the posts that use each are kept. */
  images: string[];
}

export interface AnswerEdited {
  type: 'answerEdited';
  questionId: number;
  answerId: number;
  /** The uploaded images its text embeds, by name (docs/product.md section 14): the posts that use each are kept. */
  images: string[];
}

/** A question deleted (`deleted`) or undeleted: it leaves or rejoins every list, search and count. */
export interface QuestionDeleted {
  type: 'questionDeleted';
  questionId: number;
  deleted: boolean;
  /** Hidden while nobody deleted it (docs/product.md section 10), and why; null otherwise. */
  held: HeldFor | null;
  /** Its tag names, lower case: the tag lists it leaves or rejoins. */
  tags: string[];
}

/** An answer deleted or undeleted: its question's answer count moves. */
export interface AnswerDeleted {
  type: 'answerDeleted';
  questionId: number;
  answerId: number;
  deleted: boolean;
  /** Hidden while nobody deleted it (docs/product.md section 10), and why; null otherwise. */
  held: HeldFor | null;
  /** The question's tag names, lower case. */
  tags: string[];
  /** The question's count moved to or from 0: it joins or leaves the unanswered lists. */
  unansweredChanged: boolean;
}

/** A comment deleted or undeleted. */
export interface CommentDeleted {
  type: 'commentDeleted';
  questionId: number;
  commentId: number;
  deleted: boolean;
  /** Hidden while nobody deleted it (docs/product.md section 10), and why; null otherwise. */
  held: HeldFor | null;
}

/** A question closed, closed again with another reason, or reopened. */
export interface QuestionClosed {
  type: 'questionClosed';
  questionId: number;
}

/** A member's first view of a question (repeat views are no event). */
export interface QuestionViewed {
  type: 'questionViewed';
  questionId: number;
}

export interface MessagePosted {
  type: 'messagePosted';
  threadId: number;
  messageId: number;
  /** The usernames its text mentions (markdown mentionedUsernames): who hears of it (docs/product.md section 11). */
  mentions: string[];
}

export interface ThreadStarted {
  type: 'threadStarted';
  threadId: number;
}

export interface ForumCreated {
  type: 'forumCreated';
  forumId: number;
}

/** An account's role changed: what its sessions may do changes with their next request. */
export interface RoleChanged {
  type: 'roleChanged';
  accountId: number;
  role: Role;
}

/**
 * A password reset was asked for an account that exists: its mail goes out. The token is
 * the link's secret, here only on its way to the mail (the database holds its hash).
 */
export interface PasswordResetRequested {
  type: 'passwordResetRequested';
  accountId: number;
  username: string;
  email: string;
  token: string;
}

/** A member asked to move to a new email: the confirmation link goes to that address. */
export interface EmailChangeRequested {
  type: 'emailChangeRequested';
  accountId: number;
  username: string;
  newEmail: string;
  token: string;
}

/**
 * A new email was confirmed: the old address is told, with a link that moves the account
 * back (`revertToken`); null when the account was moved back by such a link (nothing is sent).
 */
export interface EmailChanged {
  type: 'emailChanged';
  accountId: number;
  username: string;
  oldEmail: string;
  newEmail: string;
  revertToken: string | null;
}

/**
 * Sessions of an account ended: by a sign-out, by a sign-in or registration over the session
 * a browser arrived with, or by a password set or changed, an email moved back or a
 * suspension. Every process forgets them, and their sockets close.
 */
export interface SessionsEnded {
  type: 'sessionsEnded';
  accountId: number;
  tokenHashes: string[];
}

/** A forum or PorpChat message hidden by flags, deleted by a moderator, or shown again. */
export interface MessageDeleted {
  type: 'messageDeleted';
  threadId: number;
  messageId: number;
  deleted: boolean;
  /** Why it is hidden while nobody deleted it; null when a moderator deleted it, or it shows. */
  held: HeldFor | null;
}

/**
 * An item of the review queue changed (docs/product.md section 10): flagged, hidden, posted for
 * approval, or decided on. Moderators' sockets hear it as it now is.
 */
export interface ReviewChanged {
  type: 'reviewChanged';
  targetType: FlagTarget;
  targetId: number;
}

/**
 * An account's unread notification count moved other than by a new notification: some were
 * marked read, or the posts they are about were hidden or shown again. Its own sockets hear
 * the new count (`notificationCount`), so a bell open in another tab follows.
 */
export interface UnreadNotificationsChanged {
  type: 'unreadNotificationsChanged';
  accountId: number;
  count: number;
}

/** An admin moved an account's reputation, with a reason (docs/product.md section 13). */
export interface ReputationAdjusted {
  type: 'reputationAdjusted';
  accountId: number;
  adminId: number;
  delta: number;
  note: string;
}

/** A member voted to close or reopen a question, short of deciding it (docs/product.md section 13). */
export interface CloseVoteCast {
  type: 'closeVoteCast';
  questionId: number;
}

/** A command's outcome: what it answers, and what it changed. */
export interface Outcome<T> {
  result: T;
  events: DomainEvent[];
}
