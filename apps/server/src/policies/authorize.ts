import {
  closeVoteNeedsMessage,
  HIDING_REASONS,
  MESSAGES,
  type FlagReason,
  type PrivilegeKey,
  type Role,
} from '@porpoise/core';
import { forbidden, notFound, postNotFound, unauthorized } from '../http/http-error.ts';
import type { ThreadAccess } from './threads.ts';

/** Who is acting: the session's account, never a name from the request body. */
export interface Actor {
  id: number;
  username: string;
  /** Read with the session on each request, never taken from the client. */
  role: Role;
}

/**
 * Who may do what, for every resource (docs/style.md: one module decides): the routes, the
 * route declarations (http/contract-routes.ts) and the choice of rooms (audience.ts) all ask
 * here. Roles (docs/product.md section 10) are read from the session's account on each request.
 */
export type Resource =
  | { type: 'question'; askerId?: number; deletedBy?: number | null; held?: boolean }
  | { type: 'answer'; authorId?: number; deletedBy?: number | null; held?: boolean }
  | { type: 'comment'; authorId?: number; deletedBy?: number | null; held?: boolean }
  /** A message of a thread, and the account that sent it (null: an anonymous PorpChat post). */
  | { type: 'message'; senderId: number | null; thread: ThreadAccess }
  | { type: 'forum' }
  | { type: 'thread'; thread: ThreadAccess }
  | { type: 'account'; username: string }
  /** The installation itself: its roles. */
  | { type: 'site' };

export type Action =
  | 'read'
  | 'create'
  | 'vote'
  | 'post'
  | 'markRead'
  | 'actAs'
  | 'accept'
  | 'edit'
  | 'delete'
  | 'undelete'
  | 'seeDeleted'
  | 'deleteAnswered'
  | 'close'
  | 'flag'
  | 'moderate'
  | 'administer';

/**
 * An account's reputation and the privileges' thresholds as they stand (queries/privileges.ts):
 * what a privilege is weighed by (docs/product.md section 13).
 */
export interface Standing {
  reputation: number;
  thresholds: Record<PrivilegeKey, number>;
}

/** Whether the actor has a privilege: moderators and admins every one, members by reputation. */
export function hasPrivilege(actor: Actor | null, key: PrivilegeKey, standing: Standing | undefined): boolean {
  if (actor === null) return false;
  return moderates(actor) || (standing !== undefined && standing.reputation >= standing.thresholds[key]);
}

/**
 * What a flag weighs toward hiding its item (docs/product.md sections 10 and 13): a
 * moderator's or admin's spam or rude flag hides at once; a member's counts toward the three
 * only with 'Flag to hide'; any other flag only reaches the review queue.
 */
export function flagWeight(actor: Actor, reason: FlagReason, standing: Standing): 'hides' | 'counts' | 'none' {
  if (!HIDING_REASONS.includes(reason)) return 'none';
  if (moderates(actor)) return 'hides';
  return hasPrivilege(actor, 'flagToHide', standing) ? 'counts' : 'none';
}

/** Whether flags may hide an item by this author: never a moderator's or admin's (null: an anonymous message). */
export const flagsMayHide = (authorRole: Role | null) => authorRole === null || authorRole === 'member';

/** A close or reopen vote needs 'Vote to close': 403 naming its threshold otherwise. */
export function authorizeCloseVote(actor: Actor, standing: Standing): void {
  if (!hasPrivilege(actor, 'closeVote', standing))
    throw forbidden(closeVoteNeedsMessage(standing.thresholds.closeVote));
}

/** Moderators and admins keep the place clean: they may edit, delete and close any post. */
const moderates = (actor: Actor | null) => actor !== null && (actor.role === 'moderator' || actor.role === 'admin');

/** Its author edits, deletes and undeletes a post, and sees it while deleted; so do moderators (docs/product.md section 9). */
const AUTHOR_OR_MODERATOR: ReadonlySet<Action> = new Set(['edit', 'delete', 'seeDeleted']);

/**
 * Undeleting: moderators anything; an author only what they deleted themselves, so that a
 * moderator's removal is not undone by the author it removed.
 */
function mayUndelete(actor: Actor | null, authorId: number | undefined, deletedBy: number | null | undefined) {
  return moderates(actor) || (actor !== null && actor.id === authorId && deletedBy === actor.id);
}

/**
 * Whose deleted posts a reader sees among a question's (docs/product.md section 9): a
 * moderator every one, a member their own, a visitor none. The queries take it as it is.
 */
export interface HiddenPostsSeen {
  /** The reader's account (0: nobody's). */
  authorId: number;
  /** Every deleted post (moderators). */
  all: boolean;
}

export const PUBLIC_VIEW: HiddenPostsSeen = { authorId: 0, all: false };

export function hiddenPostsSeenBy(actor: Actor | null): HiddenPostsSeen {
  return actor === null ? PUBLIC_VIEW : { authorId: actor.id, all: moderates(actor) };
}

/** Whether a page whose deleted posts are by these authors shows this reader any of them. */
export function seesHiddenPosts(actor: Actor | null, authorIds: readonly number[]): boolean {
  return authorIds.length > 0 && actor !== null && (moderates(actor) || authorIds.includes(actor.id));
}

/**
 * Whether `actor` (null: a visitor) may do `action` to `resource`; `standing` (the actor's
 * reputation and the thresholds) where a privilege may allow it: editing others' questions
 * and answers ('Edit any post').
 */
export function can(actor: Actor | null, action: Action, resource: Resource, standing?: Standing): boolean {
  // Any member flags what others posted (docs/product.md section 10), never their own.
  if (action === 'flag') return actor !== null && actor.id !== authorOf(resource) && flaggable(resource);
  // A post hidden by flags or waiting for approval is the moderators' to decide on.
  if (action === 'delete' && 'held' in resource && resource.held === true) return moderates(actor);
  switch (resource.type) {
    case 'message':
      // A hidden message: moderators and the account that sent it see it.
      if (action === 'seeDeleted') return moderates(actor) || (actor !== null && actor.id === resource.senderId);
      return false;
    case 'thread': {
      // docs/product.md section 4: PorpChat is open to anyone, even without an account; a
      // forum's thread to every signed-in member; a direct thread to its two participants.
      const { thread } = resource;
      const reads =
        thread.kind === 'porpchat' ||
        (actor !== null && (thread.kind === 'forum' || thread.participantIds.includes(actor.id)));
      // Read receipts belong to accounts: PorpChat keeps none (docs/product.md section 6).
      if (action === 'markRead') return reads && actor !== null && thread.kind !== 'porpchat';
      return reads && (action === 'read' || action === 'post');
    }
    case 'account':
      // A payload may name its actor (askedBy, ansBy, sender, username...): only as itself.
      return actor !== null && actor.username.toLowerCase() === resource.username.toLowerCase();
    case 'site':
      // The review queue, its decisions, suspensions and the log: moderators and admins.
      if (action === 'moderate') return moderates(actor);
      // Roles are set by admins only (docs/product.md section 10).
      return action === 'administer' && actor?.role === 'admin';
    case 'question':
      // Only the asker accepts an answer to their question (docs/product.md section 7).
      if (action === 'accept') return actor !== null && actor.id === resource.askerId;
      // Moderators close and reopen, the asker included only if a moderator (docs/product.md section 9).
      if (action === 'close') return moderates(actor);
      // Its author deletes a question while it has no answers; moderators any time.
      if (action === 'deleteAnswered') return moderates(actor);
      if (action === 'undelete') return mayUndelete(actor, resource.askerId, resource.deletedBy);
      if (action === 'edit' && hasPrivilege(actor, 'editAny', standing)) return true;
      if (AUTHOR_OR_MODERATOR.has(action)) return (actor !== null && actor.id === resource.askerId) || moderates(actor);
      return actor !== null;
    case 'answer':
    case 'comment':
      if (action === 'undelete') return mayUndelete(actor, resource.authorId, resource.deletedBy);
      if (action === 'edit' && resource.type === 'answer' && hasPrivilege(actor, 'editAny', standing)) return true;
      if (AUTHOR_OR_MODERATOR.has(action))
        return (actor !== null && actor.id === resource.authorId) || moderates(actor);
      return actor !== null;
    default:
      // Answers, comments, votes and forums: any signed-in member.
      return actor !== null;
  }
}

/** Who posted an item (undefined: no one, or not a post). */
function authorOf(resource: Resource): number | null | undefined {
  switch (resource.type) {
    case 'question':
      return resource.askerId;
    case 'answer':
    case 'comment':
      return resource.authorId;
    case 'message':
      return resource.senderId;
    default:
      return undefined;
  }
}

/** Posts, and forum and PorpChat messages, may be flagged; a direct thread's messages not. */
const flaggable = (resource: Resource) =>
  resource.type === 'message'
    ? resource.thread.kind !== 'direct'
    : ['question', 'answer', 'comment'].includes(resource.type);

/** What a member is told when `action` is refused, where the product gives it its own words. */
const REFUSALS: Partial<Record<Action, string>> = {
  accept: MESSAGES.onlyAskerAccepts,
  edit: MESSAGES.editOwnOnly,
  delete: MESSAGES.deleteOwnOnly,
  undelete: MESSAGES.undeleteModerated,
  close: MESSAGES.onlyModeratorsClose,
  flag: MESSAGES.flagOwn,
  moderate: MESSAGES.onlyModerators,
  administer: MESSAGES.onlyAdmins,
};

/** A deleted post is not there (404) for whoever may not see it; a post that shows passes. */
export function refuseHidden(actor: Actor | null, resource: Resource, deleted: boolean): void {
  if (deleted) authorize(actor, 'seeDeleted', resource);
}

/** A post or message not there for this reader; anything else, plainly not found. */
function notThere({ type }: Resource) {
  const post = type === 'question' || type === 'answer' || type === 'comment' || type === 'message';
  return post ? postNotFound(type) : notFound();
}

/**
 * Refuses what `can` does not allow: a visitor with 401, a member with 403, except that a
 * thread the caller may not see answers 404, exactly like a missing one.
 */
export function authorize(actor: Actor | null, action: Action, resource: Resource, standing?: Standing): void {
  if (can(actor, action, resource, standing)) return;
  if (resource.type === 'thread') throw notFound('Thread not found');
  // A direct thread's message cannot be flagged: for a flag, it is not there.
  if (action === 'flag' && !flaggable(resource)) throw notThere(resource);
  if (action === 'delete' && actor !== null && 'held' in resource && resource.held === true) {
    throw forbidden(MESSAGES.heldForModerator);
  }
  // A deleted post is not there for whoever may not see it.
  if (action === 'seeDeleted') throw notThere(resource);
  throw actor ? forbidden(REFUSALS[action]) : unauthorized();
}
