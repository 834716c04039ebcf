/**
 * The API contract (issue 17): every endpoint's method, path, who may call it, its input
 * schemas and its answer's schema, and every socket event's payload schema, in one table.
 * The server takes its validation and its response checks from it, the OpenAPI document
 * is generated from it, and the web app's fetchers and socket listeners are typed from it.
 * The API shapes in types.ts are inferred from the schemas here: a type is declared once.
 *
 * A separate entry point (`@porpoise/core/contract`): the web app imports only its types,
 * so zod stays out of its bundle.
 */
import { z } from 'zod';
import { API_ROUTES } from './api-routes.ts';
import { ERROR_CODES } from './messages.ts';
import { LIMITS } from './limits.ts';
import {
  CLOSE_REASONS,
  COLOR_BLINDNESS,
  COLOR_SCHEMES,
  READING_FONTS,
  COMMENT_TARGETS,
  DIGEST_FREQUENCIES,
  FLAG_REASONS,
  FLAG_TARGETS,
  HELD_FOR,
  NOTIFICATION_KINDS,
  POST_KINDS,
  PRIVILEGE_KEYS,
  REPUTATION_REASONS,
  ROLES,
} from './types.ts';
import {
  digestInput,
  markReadInput,
  notificationListQuery,
  unsubscribeQuery,
  acceptInput,
  changeEmailInput,
  changePasswordInput,
  confirmEmailInput,
  requestPasswordResetInput,
  resetPasswordInput,
  answerInput,
  answerPageQuery,
  answerVoteInput,
  answerEditInput,
  bioInput,
  closeInput,
  commentInput,
  flagInput,
  moderationLogQuery,
  reviewTargetInput,
  suspendInput,
  forumInput,
  forumListQuery,
  idInput,
  loginInput,
  messageInput,
  porpNameCheckInput,
  questionEditInput,
  questionInput,
  questionListQuery,
  readMessageInput,
  registerInput,
  roleInput,
  saveAccessibilityInput,
  threadIdInput,
  threadInput,
  userSearchQuery,
  tagSuggestQuery,
  userSuggestQuery,
  voteInput,
  reputationAdjustmentInput,
  privilegeThresholdsInput,
} from './schemas.ts';

// Answers are strict: a field the schema does not list (an email, a hash) fails the check
// on the server instead of being sent.
const time = z.string().describe('An ISO 8601 time in UTC');
const id = z.string().describe('An id: decimal digits');
const usernames = z.array(z.string());

export const tagSchema = z.strictObject({ name: z.string(), description: z.string() });
export const tagWithCountSchema = z.strictObject({ ...tagSchema.shape, qcnt: z.number().int() });

/**
 * On a deleted post, true: only its author and moderators are ever sent one (docs/product.md
 * section 9); absent on every post that shows.
 */
const deleted = {
  deleted: z
    .literal(true)
    .optional()
    .describe('Present (true) on a deleted post, which only its author and moderators see'),
  held: z
    .enum(HELD_FOR)
    .optional()
    .describe(
      "Present on a post hidden while nobody deleted it (docs/product.md section 10): 'flags' (three spam or rude flags) or 'approval' (a new account's post waiting for a moderator)",
    ),
};

export const commentSchema = z.strictObject({
  _id: id,
  text: z.string(),
  commentBy: z.string(),
  commentDateTime: time,
  ...deleted,
});

/** An image uploaded to Porpoise: its address and size in pixels (docs/product.md section 14). */
export const imageSizeSchema = z.strictObject({
  url: z.string().describe('/uploads/{sha256 of the stored bytes}.webp'),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
  animated: z
    .literal(true)
    .optional()
    .describe('An animation (absent for a still): pages offer to pause it, and start it paused under reduced motion'),
});

/** The uploaded images a post's text embeds, so a page reserves their space before they load. */
const embeddedImages = {
  images: z
    .array(imageSizeSchema)
    .optional()
    .describe('The uploaded images its text embeds, with their sizes (docs/product.md section 14); absent when none'),
};

const answerFields = {
  _id: id,
  text: z.string(),
  ...embeddedImages,
  ansBy: z.string(),
  ansDateTime: time,
  comments: z.array(commentSchema),
};

/** The last edit of a post: when (null: never edited) and by whom. */
const edited = {
  editedAt: time.nullable(),
  editedBy: z.string().nullable(),
};

/** An author's reputation as their posts show it beside their name (docs/product.md section 13). */
const reputationBeside = z.number().int().min(1).describe("The author's reputation, as of the page's last change");

export const answerSchema = z.strictObject({
  ...answerFields,
  ansByReputation: reputationBeside,
  upVotes: usernames,
  downVotes: usernames,
  ...edited,
  ...deleted,
});

/** An answer on its author's profile, with its question. */
export const userAnswerSchema = z.strictObject({ ...answerFields, qid: id, questionTitle: z.string() });

const acceptedAnswer = id.nullable().describe("The accepted answer's id, or null");

export const questionSummarySchema = z.strictObject({
  _id: id,
  title: z.string(),
  tags: z.array(tagSchema),
  askedBy: z.string(),
  askDateTime: time,
  answerCount: z.number().int(),
  viewCount: z.number().int(),
  voteCount: z.number().int(),
  lastActivity: time,
  acceptedAnswer,
});

/** Why and by whom a question was closed (docs/product.md section 9). */
export const closedSchema = z.strictObject({
  reason: z.enum(CLOSE_REASONS),
  duplicateOf: z
    .strictObject({ _id: id, title: z.string() })
    .nullable()
    .describe('For a duplicate, the original (null if it no longer shows)'),
  closedBy: z.string(),
  closedAt: time,
});

export const questionSchema = z.strictObject({
  _id: id,
  title: z.string(),
  text: z.string(),
  ...embeddedImages,
  tags: z.array(tagSchema),
  askedBy: z.string(),
  askedByReputation: reputationBeside,
  askDateTime: time,
  answers: z.array(answerSchema).describe('The first answers (a page), oldest first; the rest by the answers endpoint'),
  answerCount: z.number().int(),
  upVotes: usernames,
  downVotes: usernames,
  views: usernames.describe('The most recent viewers (at most 100), oldest of them first'),
  viewCount: z.number().int(),
  comments: z.array(commentSchema),
  acceptedAnswer,
  ...edited,
  closed: closedSchema.nullable().describe('Null while the question is open'),
  closeVotes: z
    .number()
    .int()
    .describe('Members’ votes waiting to change its state: to close it while open, to reopen it while closed'),
  ...deleted,
});

/** A question closed (with why) or reopened (null): closeQuestion's and reopenQuestion's answer, and closeUpdate. */
export const closingSchema = z.strictObject({ qid: id, closed: closedSchema.nullable() });

/** A close or reopen vote's answer, and closeVoteUpdate: the question's state and the votes waiting to change it. */
export const closeVotesSchema = z.strictObject({
  qid: id,
  closed: closedSchema.nullable(),
  closeVotes: z.number().int(),
});

/** A post deleted or undeleted: the delete and undelete routes' answer. */
export const deletionSchema = z.strictObject({ _id: id, deleted: z.boolean() });

/** One version of a post (docs/product.md section 9); a question's carry its title and tags, an answer's neither. */
export const revisionSchema = z.strictObject({
  revision: z.number().int().describe('1 is the original'),
  title: z.string().optional(),
  text: z.string(),
  tags: z.array(tagSchema).optional(),
  editedBy: z.string(),
  editedAt: time,
  reason: z.string().nullable(),
});

/** A question's new title, text and tags, as its page and lists take them live. */
export const questionEditSchema = z.strictObject({
  qid: id,
  title: z.string(),
  text: z.string(),
  ...embeddedImages,
  tags: z.array(tagSchema),
  ...edited,
});

export const accessibilitySettingsSchema = z.strictObject({
  lowVision: z.boolean(),
  colorBlindness: z.enum(COLOR_BLINDNESS),
  // docs/product.md section 12: reading comfort.
  colorScheme: z.enum(COLOR_SCHEMES),
  readingFont: z.enum(READING_FONTS),
  reducedMotion: z.boolean(),
  liveAnnouncements: z.boolean(),
  keyboardShortcuts: z.boolean(),
});

export const accountSchema = z.strictObject({
  username: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  createdAt: time,
  accessibilitySettings: accessibilitySettingsSchema,
  accessibilitySettingsSaved: z.boolean(),
  followedTags: z.array(z.string()).describe('The tags it follows, by name (docs/product.md section 11)'),
  digest: z.enum(DIGEST_FREQUENCIES),
  reputation: z
    .number()
    .int()
    .min(1)
    .describe('max(1, 1 + the sum of its shown reputation events) (docs/product.md section 13)'),
});

/** One of an account's notifications, as its inbox lists it and `notificationUpdate` brings it (docs/product.md section 11). */
export const notificationSchema = z.strictObject({
  _id: id,
  kind: z.enum(NOTIFICATION_KINDS),
  actor: z.string().describe('The acting username'),
  qid: id.nullable(),
  aid: id.nullable().describe('The new answer, the one commented on or accepted, or the one holding the mention'),
  tid: id.nullable().describe("A forum mention's thread"),
  snippet: z.string().min(1),
  createdAt: time,
  read: z.boolean(),
});

const countSchema = z.strictObject({ count: z.number().int() });
const followingSchema = z.strictObject({ following: z.boolean() });

export const messageSchema = z.strictObject({
  _id: id,
  content: z.string(),
  sender: z.string(),
  messageDateTime: time,
  views: usernames,
  likes: usernames,
  ...deleted,
});

export const threadSchema = z.strictObject({
  _id: z.string().describe("An id, or 'porpchat'"),
  accounts: usernames,
  messages: z.array(messageSchema),
  threadUpdatedDateTime: time,
});

export const forumSchema = z.strictObject({
  _id: id,
  name: z.string(),
  description: z.string(),
  thread: z.string().describe("Its discussion thread's id ('' while it has none)"),
});

export const profileSchema = z.strictObject({ username: z.string(), bio: z.string() });

/** A profile as its page shows it (docs/product.md section 5): the bio, when the member joined, their shown posts. */
export const profileDetailSchema = z.strictObject({
  ...profileSchema.shape,
  createdAt: time,
  questionCount: z.number().int().describe('Their questions that show (deleted and held ones left out)'),
  answerCount: z.number().int().describe('Their answers that show, on questions that show'),
  threadId: id
    .nullable()
    .describe("The direct thread between the caller and this member, if any (null on one's own profile)"),
});

/** A tag suggested as one types (docs/product.md section 5): its name and how many shown questions carry it. */
export const tagSuggestionSchema = z.strictObject({ name: z.string(), count: z.number().int() });
export const userSuggestionSchema = z.strictObject({ username: z.string() });

export const votersSchema = z.strictObject({ qid: id, upVotes: usernames, downVotes: usernames });

export const answerVotersSchema = z.strictObject({ qid: id, aid: id, upVotes: usernames, downVotes: usernames });

export const acceptanceSchema = z.strictObject({ qid: id, acceptedAnswer });

/** An account as the admin's user list shows it. */
/** An item in the review queue (docs/product.md section 10): what it is, its flags, and its author. */
export const reviewItemSchema = z.strictObject({
  targetType: z.enum(FLAG_TARGETS),
  targetId: id,
  since: time.describe('Its oldest open flag, or when it was posted (a post waiting for approval)'),
  heldFor: z.enum(HELD_FOR).nullable().describe('Why it is hidden while nobody deleted it; null while it shows'),
  flagCounts: z.strictObject(Object.fromEntries(FLAG_REASONS.map((reason) => [reason, z.number().int()]))),
  flags: z
    .array(z.strictObject({ reason: z.enum(FLAG_REASONS), note: z.string().nullable(), by: z.string(), at: time }))
    .describe('Its open flags, oldest first'),
  author: z.string().describe("Its author's name (a PorpChat message: the name typed)"),
  suspendable: z
    .boolean()
    .describe(
      'Whether an account posted it: Suspend (given the item) acts on that account, which is never named for a PorpChat message',
    ),
  authorSuspended: z.boolean(),
  context: z.string().describe("The question's title; for a message, its forum's name or 'PorpChat'"),
  text: z.string(),
  questionId: id.nullable().describe('The question it is (or is on); null for a message'),
  threadId: z.string().nullable().describe("A message's thread ('porpchat' or an id); null for a post"),
});

/** The review queue: its oldest items (at most LIMITS.queuePage) and how many wait in all. */
export const reviewQueueSchema = z.strictObject({
  items: z.array(reviewItemSchema).max(LIMITS.queuePage),
  open: z.number().int().describe('Items waiting in all'),
});

export const MODERATION_ACTIONS = [
  'dismiss',
  'approve',
  'delete',
  'undelete',
  'edit',
  'close',
  'reopen',
  'suspend',
  'unsuspend',
  'role',
  'reputation',
] as const;

/** One moderator action (docs/product.md section 10): who, what, on what, when, why. */
export const moderationLogEntrySchema = z.strictObject({
  _id: id,
  moderator: z.string(),
  action: z.enum(MODERATION_ACTIONS),
  targetType: z.enum([...FLAG_TARGETS, 'account']),
  targetId: id,
  subject: z.string().nullable().describe("The account it concerned (a post's author, a suspended member)"),
  reason: z.string().nullable(),
  at: time,
  questionId: id.nullable(),
  threadId: z.string().nullable(),
});

/** A suspension: whose, and until when (null: for good). */
export const suspensionSchema = z.strictObject({
  username: z.string().nullable().describe('The member suspended; null when suspended through an item (never named)'),
  suspendedUntil: time.nullable(),
});

export const userSummarySchema = z.strictObject({ username: z.string(), role: z.enum(ROLES), createdAt: time });

/** One row of a reputation history (docs/product.md section 13): `aid` null for a question's events, both null for an adjustment. */
export const reputationEventSchema = z.strictObject({
  delta: z.number().int(),
  reason: z.enum(REPUTATION_REASONS),
  qid: id.nullable(),
  aid: id.nullable(),
  createdAt: time,
});

/** A privilege as the signed-in member sees it (docs/product.md section 13): whether they have it. */
export const privilegeSchema = z.strictObject({
  key: z.enum(PRIVILEGE_KEYS),
  name: z.string(),
  threshold: z.number().int(),
  has: z.boolean(),
});

export const userReputationSchema = z.strictObject({
  username: z.string(),
  reputation: z.number().int().min(1),
  history: z.array(reputationEventSchema).max(LIMITS.reputationHistory),
});

const okSchema = z.strictObject({ ok: z.literal(true) });

/** Every refusal and fault: the text to show, and a code that stays the same when the text changes. */
export const apiErrorSchema = z.strictObject({ error: z.string(), code: z.enum(ERROR_CODES) });

/** The API's version, as the OpenAPI document states it: the major part changes when a client would break. */
export const API_VERSION = '1.0.0';

/**
 * Who may call an endpoint: any visitor, a signed-in member (a visitor gets 401), or an
 * admin (a visitor gets 401, anyone else 403; policies/authorize.ts decides).
 */
export type Access = 'anyone' | 'member' | 'moderator' | 'admin';

export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under /api, in Fastify's syntax (`:id` for a path parameter). */
  path: string;
  summary: string;
  /** The OpenAPI tag it is listed under. */
  group: string;
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The 200 answer. */
  response: z.ZodType;
  /** Its media type, when not JSON (the reference page is HTML, the metrics Prometheus's text). */
  produces?: 'text/html' | 'text/plain' | 'application/gzip';
  /** The body's media type, when not JSON: an upload is one file, field `file`. */
  consumes?: 'multipart/form-data';
}

const byId = z.object({ id: idInput });
const byUsername = z.object({ username: z.string({ error: 'username is required' }).min(1).max(100) });
const optionalUsername = z.object({ username: z.string().optional() });

/** A backup's file name, as the server makes them (docs/product.md section 15). */
export const BACKUP_NAME = /^porpoise-\d{8}-\d{6}(?:-\d{1,3})?\.porpoise-backup$/;
const backupNameParams = z.object({ name: z.string().max(60).regex(BACKUP_NAME, 'not a backup') });

/** A backup the server keeps, as /admin lists it (read from its header). */
export const backupSummarySchema = z.strictObject({
  name: z.string(),
  createdAt: z.string(),
  size: z.number().int(),
  database: z.enum(['pglite', 'postgres']),
  migration: z.string(),
  questions: z.number().int(),
  images: z.number().int(),
});
export type BackupSummary = z.infer<typeof backupSummarySchema>;

export const backupListSchema = z.strictObject({
  backups: z.array(backupSummarySchema),
  running: z.strictObject({ name: z.string(), startedAt: z.string() }).nullable(),
  lastFailure: z.strictObject({ at: z.string(), message: z.string() }).nullable(),
  /** BACKUP_DIR is set: the server backs up daily, and admins may start one. */
  scheduled: z.boolean(),
});
export type BackupList = z.infer<typeof backupListSchema>;

/** Every endpoint of the API, by a stable name (the OpenAPI operationId). */
export const ENDPOINTS = {
  healthz: {
    ...API_ROUTES.healthz,
    summary: 'Liveness: the process answers',
    group: 'operations',
    access: 'anyone',
    response: z.strictObject({ status: z.literal('ok') }),
  },
  readyz: {
    ...API_ROUTES.readyz,
    summary: 'Readiness: the database answers (503 with status unavailable when it does not)',
    group: 'operations',
    access: 'anyone',
    response: z.strictObject({ status: z.literal('ready'), database: z.enum(['pglite', 'postgres']) }),
  },
  metrics: {
    ...API_ROUTES.metrics,
    summary:
      "This process's metrics in Prometheus's text format (from the loopback address, or with the METRICS_TOKEN bearer)",
    group: 'operations',
    access: 'anyone',
    produces: 'text/plain',
    response: z.string(),
  },
  openApi: {
    ...API_ROUTES.openApi,
    summary: 'This description of the API (OpenAPI 3.1)',
    group: 'operations',
    access: 'anyone',
    response: z.record(z.string(), z.unknown()),
  },
  docs: {
    ...API_ROUTES.docs,
    summary: 'A readable reference of the API, made from this description',
    group: 'operations',
    access: 'anyone',
    produces: 'text/html',
    response: z.string(),
  },
  addAccount: {
    ...API_ROUTES.addAccount,
    summary: 'Register an account and sign in',
    group: 'accounts',
    access: 'anyone',
    body: registerInput,
    response: accountSchema,
  },
  login: {
    ...API_ROUTES.login,
    summary: 'Sign in',
    group: 'accounts',
    access: 'anyone',
    body: loginInput,
    response: accountSchema,
  },
  logout: {
    ...API_ROUTES.logout,
    summary: 'Sign out (ends the session)',
    group: 'accounts',
    access: 'anyone',
    response: okSchema,
  },
  me: {
    ...API_ROUTES.me,
    summary: "The signed-in member's account",
    group: 'accounts',
    access: 'member',
    response: accountSchema,
  },
  setDigest: {
    ...API_ROUTES.setDigest,
    summary: "Set how often the member's email digest comes: 'off', 'daily' or 'weekly'",
    group: 'accounts',
    access: 'member',
    body: digestInput,
    response: accountSchema,
  },
  unsubscribeDigest: {
    ...API_ROUTES.unsubscribeDigest,
    summary:
      "Turn a digest off from its mail's link, with no session (the unsubscribe page's button, or a List-Unsubscribe one-click POST)",
    group: 'accounts',
    access: 'anyone',
    query: unsubscribeQuery,
    response: okSchema,
  },
  runDigests: {
    ...API_ROUTES.runDigests,
    summary: 'Send every due email digest now; admins only',
    group: 'admin',
    access: 'admin',
    response: z.strictObject({ sent: z.number().int() }),
  },
  listBackups: {
    ...API_ROUTES.listBackups,
    summary: "The server's own backups in BACKUP_DIR, newest first, and the one running; admins only",
    group: 'admin',
    access: 'admin',
    response: backupListSchema,
  },
  runBackup: {
    ...API_ROUTES.runBackup,
    summary: 'Start a backup into BACKUP_DIR now (202 with its name; 409 while one runs); admins only',
    group: 'admin',
    access: 'admin',
    response: z.strictObject({ name: z.string() }),
  },
  downloadBackup: {
    ...API_ROUTES.downloadBackup,
    summary: 'One backup file of BACKUP_DIR, as an attachment; admins only',
    group: 'admin',
    access: 'admin',
    params: backupNameParams,
    produces: 'application/gzip',
    response: z.string(),
  },
  startOperatorBackup: {
    ...API_ROUTES.startOperatorBackup,
    summary:
      "`npm run backup` on the server's machine: start a backup of the embedded database (202 with its name); the loopback address with the server's own token only",
    group: 'operations',
    access: 'anyone',
    response: z.strictObject({ name: z.string() }),
  },
  operatorBackup: {
    ...API_ROUTES.operatorBackup,
    summary:
      "`npm run backup`: the operator's backup once written (202 while it runs), then deleted from the server; the loopback address with the server's own token only",
    group: 'operations',
    access: 'anyone',
    params: backupNameParams,
    produces: 'application/gzip',
    response: z.string(),
  },
  notifications: {
    ...API_ROUTES.notifications,
    summary: "The member's notifications, newest first: a page of `limit`, older than the notification `before`",
    group: 'notifications',
    access: 'member',
    query: notificationListQuery,
    response: z.array(notificationSchema),
  },
  unreadNotifications: {
    ...API_ROUTES.unreadNotifications,
    summary: "How many of the member's notifications are unread",
    group: 'notifications',
    access: 'member',
    response: countSchema,
  },
  markNotificationsRead: {
    ...API_ROUTES.markNotificationsRead,
    summary: "Mark some of the member's notifications (`ids`) or all of them read; answers the unread count",
    group: 'notifications',
    access: 'member',
    body: markReadInput,
    response: countSchema,
  },
  followQuestion: {
    ...API_ROUTES.followQuestion,
    summary: 'Follow a question, or stop following it (a toggle); answers the state after',
    group: 'questions',
    access: 'member',
    params: byId,
    response: followingSchema,
  },
  questionFollowing: {
    ...API_ROUTES.questionFollowing,
    summary: 'Whether the member follows a question',
    group: 'questions',
    access: 'member',
    params: byId,
    response: followingSchema,
  },
  followTag: {
    ...API_ROUTES.followTag,
    summary: 'Follow a tag, or stop following it (a toggle); answers the state after',
    group: 'questions',
    access: 'member',
    params: z.object({ name: z.string().min(1).max(100) }),
    response: followingSchema,
  },
  saveAccessibilitySettings: {
    ...API_ROUTES.saveAccessibilitySettings,
    summary: "Save the member's accessibility settings",
    group: 'accounts',
    access: 'member',
    body: saveAccessibilityInput,
    response: accountSchema,
  },
  requestPasswordReset: {
    ...API_ROUTES.requestPasswordReset,
    summary: 'Mail a one-time password reset link to the account using this email, if any (always 200)',
    group: 'accounts',
    access: 'anyone',
    body: requestPasswordResetInput,
    response: okSchema,
  },
  resetPassword: {
    ...API_ROUTES.resetPassword,
    summary: "Set a new password with a reset link's token; every session of the account ends",
    group: 'accounts',
    access: 'anyone',
    body: resetPasswordInput,
    response: okSchema,
  },
  changePassword: {
    ...API_ROUTES.changePassword,
    summary: "Change the signed-in member's password; their other sessions end",
    group: 'accounts',
    access: 'member',
    body: changePasswordInput,
    response: okSchema,
  },
  changeEmail: {
    ...API_ROUTES.changeEmail,
    summary: 'Mail a confirmation link to a new email address (the email changes when it is confirmed)',
    group: 'accounts',
    access: 'member',
    body: changeEmailInput,
    response: okSchema,
  },
  confirmEmail: {
    ...API_ROUTES.confirmEmail,
    summary: "Confirm a new email address with its link's token; the old address is told",
    group: 'accounts',
    access: 'anyone',
    body: confirmEmailInput,
    response: okSchema,
  },
  getQuestions: {
    ...API_ROUTES.getQuestions,
    summary: 'A page of the question list (order, tag, search); X-Total-Count and X-Next-Cursor headers',
    group: 'questions',
    access: 'member',
    query: questionListQuery,
    response: z.array(questionSummarySchema),
  },
  getQuestionById: {
    ...API_ROUTES.getQuestionById,
    summary: "A question's page (records the reader's view)",
    group: 'questions',
    access: 'member',
    params: byId,
    query: optionalUsername,
    response: questionSchema,
  },
  getAnswers: {
    ...API_ROUTES.getAnswers,
    summary: "The next page of a question's answers, after the answer `after`",
    group: 'questions',
    access: 'member',
    params: byId,
    query: answerPageQuery,
    response: z.array(answerSchema),
  },
  addQuestion: {
    ...API_ROUTES.addQuestion,
    summary: 'Ask a question',
    group: 'questions',
    access: 'member',
    body: questionInput,
    response: questionSchema,
  },
  upvoteQuestion: {
    ...API_ROUTES.upvoteQuestion,
    summary: 'Vote a question up, or take that vote back',
    group: 'questions',
    access: 'member',
    body: voteInput,
    response: votersSchema,
  },
  downvoteQuestion: {
    ...API_ROUTES.downvoteQuestion,
    summary: 'Vote a question down, or take that vote back',
    group: 'questions',
    access: 'member',
    body: voteInput,
    response: votersSchema,
  },
  upvoteAnswer: {
    ...API_ROUTES.upvoteAnswer,
    summary: 'Vote an answer up, or take that vote back',
    group: 'questions',
    access: 'member',
    body: answerVoteInput,
    response: answerVotersSchema,
  },
  downvoteAnswer: {
    ...API_ROUTES.downvoteAnswer,
    summary: 'Vote an answer down, or take that vote back',
    group: 'questions',
    access: 'member',
    body: answerVoteInput,
    response: answerVotersSchema,
  },
  acceptAnswer: {
    ...API_ROUTES.acceptAnswer,
    summary: "Accept an answer to one's own question (accepting the accepted one takes it back)",
    group: 'questions',
    access: 'member',
    body: acceptInput,
    response: acceptanceSchema,
  },
  listUsers: {
    ...API_ROUTES.listUsers,
    summary: 'Accounts whose name contains `search` (all when empty), by name; admins only',
    group: 'admin',
    access: 'admin',
    query: userSearchQuery,
    response: z.array(userSummarySchema),
  },
  privileges: {
    ...API_ROUTES.privileges,
    summary: 'What reputation unlocks: each privilege, its threshold and whether the signed-in member has it',
    group: 'profiles',
    access: 'member',
    response: z.array(privilegeSchema),
  },
  setPrivileges: {
    ...API_ROUTES.setPrivileges,
    summary: "Change privileges' thresholds; admins only. Answers the privileges as the admin sees them",
    group: 'admin',
    access: 'admin',
    body: privilegeThresholdsInput,
    response: z.array(privilegeSchema),
  },
  adjustReputation: {
    ...API_ROUTES.adjustReputation,
    summary: "Move an account's reputation by `delta`, with a reason kept in the moderation log; admins only",
    group: 'admin',
    access: 'admin',
    params: byUsername,
    body: reputationAdjustmentInput,
    response: userReputationSchema.pick({ username: true, reputation: true }),
  },
  userReputation: {
    ...API_ROUTES.userReputation,
    summary: `A member's reputation and its ${LIMITS.reputationHistory} newest events, newest first`,
    group: 'profiles',
    access: 'member',
    params: byUsername,
    response: userReputationSchema,
  },
  setRole: {
    ...API_ROUTES.setRole,
    summary: "Set an account's role; admins only (the last admin keeps theirs)",
    group: 'admin',
    access: 'admin',
    params: byUsername,
    body: roleInput,
    response: userSummarySchema,
  },
  editQuestion: {
    ...API_ROUTES.editQuestion,
    summary: 'Edit a question (its author, or a moderator); the edit is kept as a revision',
    group: 'questions',
    access: 'member',
    params: byId,
    body: questionEditInput,
    response: questionSchema,
  },
  questionRevisions: {
    ...API_ROUTES.questionRevisions,
    summary: "A question's revisions, newest first (1 is the original)",
    group: 'questions',
    access: 'member',
    params: byId,
    response: z.array(revisionSchema),
  },
  getAnswer: {
    ...API_ROUTES.getAnswer,
    summary: 'One answer, with its question',
    group: 'questions',
    access: 'member',
    params: byId,
    response: userAnswerSchema,
  },
  editAnswer: {
    ...API_ROUTES.editAnswer,
    summary: "Edit an answer's text (its author, or a moderator); the edit is kept as a revision",
    group: 'questions',
    access: 'member',
    params: byId,
    body: answerEditInput,
    response: answerSchema,
  },
  answerRevisions: {
    ...API_ROUTES.answerRevisions,
    summary: "An answer's revisions, newest first (1 is the original)",
    group: 'questions',
    access: 'member',
    params: byId,
    response: z.array(revisionSchema),
  },
  deleteQuestion: {
    ...API_ROUTES.deleteQuestion,
    summary: 'Delete a question (its author while it has no answers, or a moderator): it shows to them only, marked',
    group: 'questions',
    access: 'member',
    params: byId,
    response: deletionSchema,
  },
  undeleteQuestion: {
    ...API_ROUTES.undeleteQuestion,
    summary: 'Undelete a question (its author or a moderator)',
    group: 'questions',
    access: 'member',
    params: byId,
    response: deletionSchema,
  },
  deleteAnswer: {
    ...API_ROUTES.deleteAnswer,
    summary: 'Delete an answer (its author, or a moderator)',
    group: 'questions',
    access: 'member',
    params: byId,
    response: deletionSchema,
  },
  undeleteAnswer: {
    ...API_ROUTES.undeleteAnswer,
    summary: 'Undelete an answer (its author, or a moderator)',
    group: 'questions',
    access: 'member',
    params: byId,
    response: deletionSchema,
  },
  deleteComment: {
    ...API_ROUTES.deleteComment,
    summary: 'Delete a comment (its author, or a moderator)',
    group: 'questions',
    access: 'member',
    params: byId,
    response: deletionSchema,
  },
  undeleteComment: {
    ...API_ROUTES.undeleteComment,
    summary: 'Undelete a comment (its author, or a moderator)',
    group: 'questions',
    access: 'member',
    params: byId,
    response: deletionSchema,
  },
  closeVote: {
    ...API_ROUTES.closeVote,
    summary:
      "A vote to close an open question ('Vote to close' privilege), with a reason as a moderator's close: the third closes it",
    group: 'questions',
    access: 'member',
    params: byId,
    body: closeInput,
    response: closeVotesSchema,
  },
  reopenVote: {
    ...API_ROUTES.reopenVote,
    summary: "A vote to reopen a closed question ('Vote to close' privilege): the third reopens it",
    group: 'questions',
    access: 'member',
    params: byId,
    response: closeVotesSchema,
  },
  closeQuestion: {
    ...API_ROUTES.closeQuestion,
    summary: "Close a question (moderators): a reason and, for a duplicate, the original's id; no new answers",
    group: 'questions',
    access: 'member',
    params: byId,
    body: closeInput,
    response: closingSchema,
  },
  reopenQuestion: {
    ...API_ROUTES.reopenQuestion,
    summary: 'Reopen a closed question (moderators)',
    group: 'questions',
    access: 'member',
    params: byId,
    response: closingSchema,
  },
  uploadImage: {
    ...API_ROUTES.uploadImage,
    summary:
      'Upload an image for a question or answer (multipart, one file field `file`: PNG, JPEG, GIF or WebP, at most 5 MB and 40 megapixels); it is stored re-encoded as WebP, without metadata, at most 2560 px',
    group: 'questions',
    access: 'member',
    consumes: 'multipart/form-data',
    response: imageSizeSchema,
  },
  addAnswer: {
    ...API_ROUTES.addAnswer,
    summary: 'Answer a question',
    group: 'questions',
    access: 'member',
    body: answerInput,
    response: answerSchema,
  },
  addComment: {
    ...API_ROUTES.addComment,
    summary: 'Comment on a question or an answer',
    group: 'questions',
    access: 'member',
    body: commentInput,
    response: commentSchema,
  },
  getTagByName: {
    ...API_ROUTES.getTagByName,
    summary: 'One tag',
    group: 'questions',
    access: 'member',
    params: z.object({ name: z.string().min(1).max(100) }),
    response: tagSchema,
  },
  getTagsWithQuestionNumber: {
    ...API_ROUTES.getTagsWithQuestionNumber,
    summary: 'Every tag with its number of questions',
    group: 'questions',
    access: 'member',
    response: z.array(tagWithCountSchema),
  },
  suggestTags: {
    ...API_ROUTES.suggestTags,
    summary: `Tags whose name starts with \`prefix\` (any case) that a shown question carries, by name, at most ${LIMITS.suggestionsMax}`,
    group: 'questions',
    access: 'member',
    query: tagSuggestQuery,
    response: z.array(tagSuggestionSchema).max(LIMITS.suggestionsMax),
  },
  getUserQuestions: {
    ...API_ROUTES.getUserQuestions,
    summary: "A member's questions, newest first",
    group: 'profiles',
    access: 'member',
    query: byUsername,
    response: z.array(questionSummarySchema),
  },
  getUserAnswers: {
    ...API_ROUTES.getUserAnswers,
    summary: "A member's answers, newest first",
    group: 'profiles',
    access: 'member',
    query: byUsername,
    response: z.array(userAnswerSchema),
  },
  getBio: {
    ...API_ROUTES.getBio,
    summary:
      "A member's bio, when they joined, their numbers of shown questions and answers, and the caller's thread with them",
    group: 'profiles',
    access: 'member',
    query: byUsername,
    response: profileDetailSchema,
  },
  updateBio: {
    ...API_ROUTES.updateBio,
    summary: "Change the signed-in member's bio",
    group: 'profiles',
    access: 'member',
    body: bioInput,
    response: profileSchema,
  },
  suggestUsers: {
    ...API_ROUTES.suggestUsers,
    summary: `Other members whose username starts with \`prefix\` (any case), not suspended, by name, at most ${LIMITS.suggestionsMax}`,
    group: 'profiles',
    access: 'member',
    query: userSuggestQuery,
    response: z.array(userSuggestionSchema).max(LIMITS.suggestionsMax),
  },
  getThreads: {
    ...API_ROUTES.getThreads,
    summary: "The member's direct threads, each with its last message",
    group: 'conversations',
    access: 'member',
    query: optionalUsername,
    response: z.array(threadSchema),
  },
  getThreadById: {
    ...API_ROUTES.getThreadById,
    summary: 'A thread with its messages (PorpChat is open to visitors)',
    group: 'conversations',
    access: 'anyone',
    params: z.object({ id: threadIdInput }),
    query: optionalUsername,
    response: threadSchema,
  },
  addThread: {
    ...API_ROUTES.addThread,
    summary: 'Start (or find) the direct thread with another member',
    group: 'conversations',
    access: 'member',
    body: threadInput,
    response: threadSchema,
  },
  addMessage: {
    ...API_ROUTES.addMessage,
    summary: 'Post a message to a thread (to PorpChat as a visitor too)',
    group: 'conversations',
    access: 'anyone',
    body: messageInput,
    response: messageSchema,
  },
  checkPorpName: {
    ...API_ROUTES.checkPorpName,
    summary:
      "Whether a visitor may join PorpChat under a name: 409 when it looks like a member's (rate limited per address, like registration)",
    group: 'conversations',
    access: 'anyone',
    body: porpNameCheckInput,
    response: okSchema,
  },
  readMessage: {
    ...API_ROUTES.readMessage,
    summary: 'Mark a message read',
    group: 'conversations',
    access: 'member',
    body: readMessageInput,
    response: okSchema,
  },
  getForums: {
    ...API_ROUTES.getForums,
    summary: 'A page of forums, newest first, or the forum of one thread',
    group: 'forums',
    access: 'member',
    query: forumListQuery,
    response: z.array(forumSchema),
  },
  addForum: {
    ...API_ROUTES.addForum,
    summary: 'Create a forum and its discussion thread',
    group: 'forums',
    access: 'member',
    body: forumInput,
    response: forumSchema,
  },
  flag: {
    ...API_ROUTES.flag,
    summary:
      'Flag a post or a forum or PorpChat message (one flag per member per item); three spam or rude flags hide it',
    group: 'moderation',
    access: 'member',
    body: flagInput,
    response: okSchema,
  },
  reviewQueue: {
    ...API_ROUTES.reviewQueue,
    summary: 'The review queue, oldest first: flagged and hidden items, and posts waiting for approval (moderators)',
    group: 'moderation',
    access: 'moderator',
    response: reviewQueueSchema,
  },
  dismissReview: {
    ...API_ROUTES.dismissReview,
    summary: "Dismiss an item's flags, or approve a post waiting for approval: it shows again (moderators)",
    group: 'moderation',
    access: 'moderator',
    body: reviewTargetInput,
    response: okSchema,
  },
  deleteReviewed: {
    ...API_ROUTES.deleteReviewed,
    summary: 'Delete an item of the review queue, closing its flags (moderators)',
    group: 'moderation',
    access: 'moderator',
    body: reviewTargetInput,
    response: okSchema,
  },
  suspendAccount: {
    ...API_ROUTES.suspendAccount,
    summary:
      'Suspend a member (username) or the author of an item (targetType, targetId) for some days or (forever: true, no days) for good, with a reason: its sessions end, its sockets close (moderators)',
    group: 'moderation',
    access: 'moderator',
    body: suspendInput,
    response: suspensionSchema,
  },
  moderationLog: {
    ...API_ROUTES.moderationLog,
    summary: 'Every moderator action, newest first, a page at a time (moderators)',
    group: 'moderation',
    access: 'moderator',
    query: moderationLogQuery,
    response: z.array(moderationLogEntrySchema).max(LIMITS.logPage),
  },
} as const satisfies Record<keyof typeof API_ROUTES, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;
/** What an endpoint answers with. */
export type ResponseOf<N extends EndpointName> = z.output<(typeof ENDPOINTS)[N]['response']>;
/** What an endpoint takes in its body, query and path, as the client sends them. */
export type BodyOf<N extends EndpointName> =
  (typeof ENDPOINTS)[N] extends Record<'body', infer S extends z.ZodType> ? z.input<S> : undefined;
export type ParamsOf<N extends EndpointName> =
  (typeof ENDPOINTS)[N] extends Record<'params', infer S extends z.ZodType> ? z.input<S> : undefined;
export type QueryOf<N extends EndpointName> =
  (typeof ENDPOINTS)[N] extends Record<'query', infer S extends z.ZodType> ? z.input<S> : undefined;

/**
 * What each socket event carries (spec section 7). `viewsUpdate` frames carry one or more
 * such payloads as their arguments.
 */
export const SOCKET_PAYLOADS = {
  questionUpdate: questionSummarySchema,
  answerUpdate: z.strictObject({ qid: id, answer: answerSchema }),
  viewsUpdate: z.strictObject({ qid: id, views: usernames, viewCount: z.number().int() }),
  voteUpdate: votersSchema,
  answerVoteUpdate: answerVotersSchema,
  acceptUpdate: acceptanceSchema,
  questionEditUpdate: questionEditSchema,
  closeUpdate: closingSchema,
  /** To pages showing the question: a close or reopen vote cast, short of deciding it. */
  closeVoteUpdate: closeVotesSchema,
  /**
   * A post deleted or undeleted, with no content: a page removes a deleted post (its author
   * and moderators mark it instead); an undeleted one comes back by its own update.
   */
  deleteUpdate: z.strictObject({
    qid: id,
    post: z.enum(POST_KINDS),
    id,
    deleted: z.boolean(),
    held: z.enum(HELD_FOR).optional().describe('Hidden while nobody deleted it, and why'),
  }),
  /** A forum or PorpChat message hidden, deleted or shown again; one shown again comes back by messageUpdate. */
  messageDeleteUpdate: z.strictObject({
    tid: z.string(),
    id,
    deleted: z.boolean(),
    held: z.enum(HELD_FOR).optional(),
  }),
  /** To moderators: an item of the review queue as it is now (null once decided), and how many wait. */
  reviewUpdate: z.strictObject({
    targetType: z.enum(FLAG_TARGETS),
    targetId: id,
    item: reviewItemSchema.nullable(),
    open: z.number().int(),
  }),
  commentUpdate: z.strictObject({
    result: z.strictObject({ qid: id, parentId: id, comment: commentSchema }),
    type: z.enum(COMMENT_TARGETS),
  }),
  threadUpdate: threadSchema,
  messageUpdate: z.strictObject({ result: z.strictObject({ tid: z.string(), message: messageSchema }) }),
  forumUpdate: forumSchema,
  /** To the recipient's own sockets: a new notification, as the inbox lists it. */
  notificationUpdate: notificationSchema,
  /** To the account's own sockets: its unread count after some were marked read, or their posts hidden or shown again. */
  notificationCount: z.strictObject({ count: z.number().int().nonnegative() }),
} as const;

export type SocketPayloads = { [E in keyof typeof SOCKET_PAYLOADS]: z.output<(typeof SOCKET_PAYLOADS)[E]> };
