/** Room names, made in one place. Clients never choose a room: the server joins them. */
export const rooms = {
  /** Every socket of one account (all its tabs and devices). */
  user: (accountId: number) => `user:${accountId}`,
  /** Every socket of one session, so signing out can disconnect exactly those. */
  session: (tokenHash: string) => `session:${tokenHash}`,
  /** Every signed-in socket: question and forum events go here. */
  signedIn: 'signed-in',
  /** Every socket, anonymous ones included: PorpChat's public room. */
  porpchat: 'porpchat',
} as const;
