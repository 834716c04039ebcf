/** Socket event names, the one list both sides use (spec section 7). */
export const SOCKET_EVENTS = {
  questionUpdate: 'questionUpdate',
  answerUpdate: 'answerUpdate',
  viewsUpdate: 'viewsUpdate',
  voteUpdate: 'voteUpdate',
  answerVoteUpdate: 'answerVoteUpdate',
  acceptUpdate: 'acceptUpdate',
  questionEditUpdate: 'questionEditUpdate',
  closeUpdate: 'closeUpdate',
  closeVoteUpdate: 'closeVoteUpdate',
  deleteUpdate: 'deleteUpdate',
  commentUpdate: 'commentUpdate',
  threadUpdate: 'threadUpdate',
  messageUpdate: 'messageUpdate',
  forumUpdate: 'forumUpdate',
  messageDeleteUpdate: 'messageDeleteUpdate',
  reviewUpdate: 'reviewUpdate',
  notificationUpdate: 'notificationUpdate',
  notificationCount: 'notificationCount',
} as const;

export type SocketEventName = (typeof SOCKET_EVENTS)[keyof typeof SOCKET_EVENTS];

/**
 * The events a client may send, and their bounds (docs/product.md section 6): anything else,
 * a bad payload, a frame over `frameBytesMax` or more than `perWindow` events in
 * `windowMs` disconnects that socket.
 */
export const CLIENT_SOCKET_EVENTS = {
  /**
   * The question ids this page shows (a question page's one, or the list's loaded rows),
   * replacing the previous set: the socket hears those questions' events. Sent again
   * whenever the set changes and after every (re)connection.
   */
  showQuestions: 'showQuestions',
} as const;

export const CLIENT_SOCKET_LIMITS = {
  shownQuestionsMax: 300,
  frameBytesMax: 4_096,
  perWindow: 10,
  windowMs: 10_000,
  /** The web app spaces its events this far apart, which keeps it under `perWindow` in `windowMs`. */
  spacingMs: 1_200,
} as const;
