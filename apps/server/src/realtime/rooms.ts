import type { Audience } from '../policies/audience.ts';

/** Room names, made in one place. Clients never choose a room: the server joins them. */
export const rooms = {
  /** Every socket of one account (all its tabs and devices). */
  user: (accountId: number) => `user:${accountId}`,
  /** Every socket of one session, so signing out can disconnect exactly those. */
  session: (tokenHash: string) => `session:${tokenHash}`,
  /** The signed-in sockets showing one question (its page, or a list that loaded it): its events go here. */
  question: (questionId: number) => `question:${questionId}`,
  isQuestion: (room: string) => room.startsWith('question:'),
  /** Every signed-in socket: new questions and forum events go here. */
  signedIn: 'signed-in',
  /** Every socket, anonymous ones included: PorpChat's public room. */
  porpchat: 'porpchat',
  /** Moderators' and admins' sockets. */
  moderators: 'moderators',
  /** The rooms of an audience the policies chose. */
  of(audience: Audience): string | string[] {
    switch (audience.to) {
      case 'question':
        return rooms.question(audience.questionId);
      case 'signedIn':
        return rooms.signedIn;
      case 'accounts':
        return audience.accountIds.map((id) => rooms.user(id));
      case 'porpchat':
        return rooms.porpchat;
      case 'moderators':
        return rooms.moderators;
    }
  },
} as const;
