/**
 * Every API endpoint's method and path under /api, by name: declared once here (contract.ts
 * adds each one's schemas). The web app calls an endpoint by its route, 'GET /path', whose
 * type is derived from this table, so the table itself stays out of its bundle.
 */
export const API_ROUTES = {
  healthz: { method: 'GET', path: '/healthz' },
  readyz: { method: 'GET', path: '/readyz' },
  metrics: { method: 'GET', path: '/metrics' },
  openApi: { method: 'GET', path: '/openapi.json' },
  docs: { method: 'GET', path: '/docs' },
  addAccount: { method: 'POST', path: '/account/addAccount' },
  login: { method: 'POST', path: '/account/login' },
  logout: { method: 'POST', path: '/account/logout' },
  me: { method: 'GET', path: '/account/me' },
  setDigest: { method: 'PUT', path: '/account/digest' },
  unsubscribeDigest: { method: 'POST', path: '/digest/unsubscribe' },
  runDigests: { method: 'POST', path: '/admin/digests/run' },
  notifications: { method: 'GET', path: '/notifications' },
  unreadNotifications: { method: 'GET', path: '/notifications/unreadCount' },
  markNotificationsRead: { method: 'POST', path: '/notifications/markRead' },
  followQuestion: { method: 'POST', path: '/question/:id/follow' },
  questionFollowing: { method: 'GET', path: '/question/:id/follow' },
  followTag: { method: 'POST', path: '/tag/:name/follow' },
  saveAccessibilitySettings: { method: 'POST', path: '/account/saveAccessibilitySettings' },
  requestPasswordReset: { method: 'POST', path: '/account/requestPasswordReset' },
  resetPassword: { method: 'POST', path: '/account/resetPassword' },
  changePassword: { method: 'POST', path: '/account/changePassword' },
  changeEmail: { method: 'POST', path: '/account/changeEmail' },
  confirmEmail: { method: 'POST', path: '/account/confirmEmail' },
  getQuestions: { method: 'GET', path: '/getQuestion' },
  getQuestionById: { method: 'GET', path: '/getQuestionById/:id' },
  getAnswers: { method: 'GET', path: '/question/:id/answers' },
  addQuestion: { method: 'POST', path: '/addQuestion' },
  upvoteQuestion: { method: 'POST', path: '/upvoteQuestion' },
  downvoteQuestion: { method: 'POST', path: '/downvoteQuestion' },
  addAnswer: { method: 'POST', path: '/answer/addAnswer' },
  upvoteAnswer: { method: 'POST', path: '/answer/upvoteAnswer' },
  downvoteAnswer: { method: 'POST', path: '/answer/downvoteAnswer' },
  acceptAnswer: { method: 'POST', path: '/answer/acceptAnswer' },
  editQuestion: { method: 'PUT', path: '/question/:id' },
  questionRevisions: { method: 'GET', path: '/question/:id/revisions' },
  getAnswer: { method: 'GET', path: '/answer/:id' },
  editAnswer: { method: 'PUT', path: '/answer/:id' },
  answerRevisions: { method: 'GET', path: '/answer/:id/revisions' },
  deleteQuestion: { method: 'DELETE', path: '/question/:id' },
  undeleteQuestion: { method: 'POST', path: '/question/:id/undelete' },
  deleteAnswer: { method: 'DELETE', path: '/answer/:id' },
  undeleteAnswer: { method: 'POST', path: '/answer/:id/undelete' },
  deleteComment: { method: 'DELETE', path: '/comment/:id' },
  undeleteComment: { method: 'POST', path: '/comment/:id/undelete' },
  closeQuestion: { method: 'POST', path: '/question/:id/close' },
  reopenQuestion: { method: 'POST', path: '/question/:id/reopen' },
  flag: { method: 'POST', path: '/flag' },
  reviewQueue: { method: 'GET', path: '/moderation/queue' },
  dismissReview: { method: 'POST', path: '/moderation/dismiss' },
  deleteReviewed: { method: 'POST', path: '/moderation/delete' },
  suspendAccount: { method: 'POST', path: '/moderation/suspend' },
  moderationLog: { method: 'GET', path: '/moderation/log' },
  listUsers: { method: 'GET', path: '/admin/users' },
  setRole: { method: 'PUT', path: '/admin/users/:username/role' },
  addComment: { method: 'POST', path: '/comment/addComment' },
  getTagByName: { method: 'GET', path: '/tag/getTagByName/:name' },
  getTagsWithQuestionNumber: { method: 'GET', path: '/tag/getTagsWithQuestionNumber' },
  suggestTags: { method: 'GET', path: '/tag/suggest' },
  getUserQuestions: { method: 'GET', path: '/profile/getQuestions' },
  getUserAnswers: { method: 'GET', path: '/profile/getAnswers' },
  getBio: { method: 'GET', path: '/profile/getBio' },
  updateBio: { method: 'PUT', path: '/profile/updateBio' },
  suggestUsers: { method: 'GET', path: '/profile/suggest' },
  getThreads: { method: 'GET', path: '/thread/getThreads' },
  getThreadById: { method: 'GET', path: '/thread/getThreadById/:id' },
  addThread: { method: 'POST', path: '/thread/addThread' },
  addMessage: { method: 'POST', path: '/message/addMessage' },
  checkPorpName: { method: 'POST', path: '/porpchat/checkName' },
  readMessage: { method: 'POST', path: '/message/readMessage' },
  getForums: { method: 'GET', path: '/forum/getForums' },
  addForum: { method: 'POST', path: '/forum/addForum' },
} as const satisfies Record<string, { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string }>;

export type EndpointRoute = {
  [N in keyof typeof API_ROUTES]: `${(typeof API_ROUTES)[N]['method']} ${(typeof API_ROUTES)[N]['path']}`;
}[keyof typeof API_ROUTES];

/** The endpoint's name from its route ('GET /getQuestionById/:id' -> 'getQuestionById'). */
export type EndpointAt<R extends EndpointRoute> = {
  [N in keyof typeof API_ROUTES]: `${(typeof API_ROUTES)[N]['method']} ${(typeof API_ROUTES)[N]['path']}` extends R
    ? N
    : never;
}[keyof typeof API_ROUTES];
