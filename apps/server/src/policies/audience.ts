import type { ThreadAccess } from './threads.ts';

/**
 * Who hears an event (product.md section 3), decided here and nowhere else: a question's
 * events go to the sockets showing it, never to everyone online, so that the cost of a
 * vote or a view does not grow with everyone who is; a new question to every signed-in
 * socket (any list may gain it); a thread's to those who may read it.
 */
export type Audience =
  | { to: 'question'; questionId: number }
  | { to: 'signedIn' }
  | { to: 'accounts'; accountIds: number[] }
  | { to: 'porpchat' };

export const showingQuestion = (questionId: number): Audience => ({ to: 'question', questionId });

export const everySignedIn: Audience = { to: 'signedIn' };

/** A thread's readers: anyone for PorpChat, the signed-in for a forum, the two participants of a direct thread. */
export function readersOf(thread: ThreadAccess): Audience {
  if (thread.kind === 'porpchat') return { to: 'porpchat' };
  if (thread.kind === 'forum') return everySignedIn;
  return { to: 'accounts', accountIds: thread.participantIds };
}
