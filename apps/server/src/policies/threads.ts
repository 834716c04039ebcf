import type { Actor } from './actor.ts';

export type ThreadKind = 'direct' | 'forum' | 'porpchat';

/** What the policy needs to know about a thread. */
export interface ThreadAccess {
  id: number;
  kind: ThreadKind;
  participantIds: number[];
}

/**
 * Who may read and post (product.md section 4): PorpChat is open to anyone, even without
 * an account; a forum's thread to every signed-in user; a direct thread to its two
 * participants only. Anyone else is told the thread does not exist.
 */
export function canReadThread(actor: Actor | null, thread: ThreadAccess): boolean {
  if (thread.kind === 'porpchat') return true;
  if (!actor) return false;
  return thread.kind === 'forum' || thread.participantIds.includes(actor.id);
}

export const canPostToThread = canReadThread;

/** Read receipts belong to accounts, so only signed-in readers of a forum or direct thread keep them. */
export function canMarkThreadRead(actor: Actor | null, thread: ThreadAccess): actor is Actor {
  return actor !== null && thread.kind !== 'porpchat' && canReadThread(actor, thread);
}
