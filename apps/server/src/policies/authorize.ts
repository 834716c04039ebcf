import { MESSAGES } from '@porpoise/core';
import { forbidden, notFound, unauthorized } from '../lib/http-error.ts';
import type { Actor } from './actor.ts';
import type { ThreadAccess } from './threads.ts';

/**
 * Who may do what, for every resource (style.md: one module decides): the routes, the
 * route declarations (lib/contract-routes.ts) and the choice of rooms (audience.ts) all ask
 * here. Roles (product.md section 10) are read from the session's account on each request.
 */
export type Resource =
  | { type: 'question'; askerId?: number }
  | { type: 'answer'; authorId?: number }
  | { type: 'comment' | 'forum' }
  | { type: 'thread'; thread: ThreadAccess }
  | { type: 'account'; username: string }
  /** The installation itself: its roles. */
  | { type: 'site' };

export type Action = 'read' | 'create' | 'vote' | 'post' | 'markRead' | 'actAs' | 'accept' | 'edit' | 'administer';

/** Moderators and admins keep the place clean: they may edit (and later delete and close) any post. */
const moderates = (actor: Actor | null) => actor !== null && (actor.role === 'moderator' || actor.role === 'admin');

/** Whether `actor` (null: a visitor) may do `action` to `resource`. */
export function can(actor: Actor | null, action: Action, resource: Resource): boolean {
  switch (resource.type) {
    case 'thread': {
      // product.md section 4: PorpChat is open to anyone, even without an account; a
      // forum's thread to every signed-in member; a direct thread to its two participants.
      const { thread } = resource;
      const reads =
        thread.kind === 'porpchat' ||
        (actor !== null && (thread.kind === 'forum' || thread.participantIds.includes(actor.id)));
      // Read receipts belong to accounts: PorpChat keeps none (product.md section 6).
      if (action === 'markRead') return reads && actor !== null && thread.kind !== 'porpchat';
      return reads && (action === 'read' || action === 'post');
    }
    case 'account':
      // A payload may name its actor (askedBy, ansBy, sender, username...): only as itself.
      return actor !== null && actor.username.toLowerCase() === resource.username.toLowerCase();
    case 'site':
      // Roles are set by admins only (product.md section 10).
      return action === 'administer' && actor?.role === 'admin';
    case 'question':
      // Only the asker accepts an answer to their question (product.md section 7).
      if (action === 'accept') return actor !== null && actor.id === resource.askerId;
      // Its author edits a post, and so do moderators (product.md section 9).
      if (action === 'edit') return (actor !== null && actor.id === resource.askerId) || moderates(actor);
      return actor !== null;
    case 'answer':
      if (action === 'edit') return (actor !== null && actor.id === resource.authorId) || moderates(actor);
      return actor !== null;
    default:
      // Answers, comments, votes and forums: any signed-in member.
      return actor !== null;
  }
}

/** What a member is told when `action` is refused, where the product gives it its own words. */
const REFUSALS: Partial<Record<Action, string>> = {
  accept: MESSAGES.onlyAskerAccepts,
  edit: MESSAGES.editOwnOnly,
  administer: MESSAGES.onlyAdmins,
};

/**
 * Refuses what `can` does not allow: a visitor with 401, a member with 403, except that a
 * thread the caller may not see answers 404, exactly like a missing one.
 */
export function authorize(actor: Actor | null, action: Action, resource: Resource): void {
  if (can(actor, action, resource)) return;
  if (resource.type === 'thread') throw notFound('Thread not found');
  throw actor ? forbidden(REFUSALS[action]) : unauthorized();
}
