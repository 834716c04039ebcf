import { LIMITS } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import type { Actor } from '../policies/actor.ts';
import { can } from '../policies/authorize.ts';
import { countApprovedPosts } from '../queries/moderation.ts';

/**
 * Whether a member's new question or answer waits for a moderator (docs/product.md section 10):
 * only when the site enables the post queue (NEW_ACCOUNT_APPROVAL=true), never for
 * moderators, and only until LIMITS.firstPostsApproved of the member's posts were let through.
 */
export async function awaitsApproval(app: FastifyInstance, actor: Actor): Promise<boolean> {
  if (!app.config.newAccountApproval || can(actor, 'moderate', { type: 'site' })) return false;
  const approved = await countApprovedPosts(app.db, actor.id, LIMITS.firstPostsApproved);
  return approved < LIMITS.firstPostsApproved;
}

/**
 * Whether an edit holds the edited post again until a moderator approves it (docs/product.md
 * section 10, "Post queue"): only its author's own edit, while their posts still wait.
 */
export async function editAwaitsApproval(app: FastifyInstance, actor: Actor, authorId: number): Promise<boolean> {
  if (actor.id !== authorId) return false;
  return awaitsApproval(app, actor);
}
