/** Socket event names, the one list both sides use (spec section 7). */
export const SOCKET_EVENTS = {
  questionUpdate: 'questionUpdate',
  answerUpdate: 'answerUpdate',
  viewsUpdate: 'viewsUpdate',
  voteUpdate: 'voteUpdate',
  commentUpdate: 'commentUpdate',
  threadUpdate: 'threadUpdate',
  messageUpdate: 'messageUpdate',
  forumUpdate: 'forumUpdate',
} as const;

export type SocketEventName = (typeof SOCKET_EVENTS)[keyof typeof SOCKET_EVENTS];
