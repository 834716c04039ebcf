import type { Role } from '@porpoise/core';
import { can } from './authorize.ts';
import type { ThreadAccess } from './threads.ts';

/**
 * Who hears an event (docs/product.md section 3), decided here and nowhere else: a question's
 * events go to the sockets showing it, never to everyone online, so that the cost of a
 * vote or a view does not grow with everyone who is; a new question to every signed-in
 * socket (any list may gain it); a thread's to those who may read it.
 */
export type Audience =
  | { to: 'question'; questionId: number }
  | { to: 'signedIn' }
  | { to: 'accounts'; accountIds: number[] }
  | { to: 'porpchat' }
  /** Moderators' and admins' sockets: the review queue's changes (docs/product.md section 10). */
  | { to: 'moderators' };

export const showingQuestion = (questionId: number): Audience => ({ to: 'question', questionId });

export const everySignedIn: Audience = { to: 'signedIn' };

export const moderating: Audience = { to: 'moderators' };

/** Whether a socket of an account with this role hears the moderators' events. */
export const hearsModeration = (role: Role) => can({ id: 0, username: '', role }, 'moderate', { type: 'site' });

/** One account's own sockets (its notifications and unread count). */
export const ownSockets = (accountId: number): Audience => ({ to: 'accounts', accountIds: [accountId] });

/**
 * A thread's readers, as the thread policy (authorize.ts) has them: anyone for PorpChat
 * (a visitor may read it), every signed-in socket for a forum (any member may), else the
 * participants it lets read.
 */
export function readersOf(thread: ThreadAccess): Audience {
  const resource = { type: 'thread', thread } as const;
  if (can(null, 'read', resource)) return { to: 'porpchat' };
  if (thread.kind === 'forum') return everySignedIn;
  const accountIds = thread.participantIds.filter((id) => can({ id, username: '', role: 'member' }, 'read', resource));
  return { to: 'accounts', accountIds };
}
