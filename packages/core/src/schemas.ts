/**
 * zod schemas for the server's input, built from the rules in validation.ts so that the
 * server answers with the very message the form shows. A separate entry point
 * (`@porpoise/core/schemas`) keeps zod out of the web app's bundle.
 */
import { z } from 'zod';
import { CLIENT_SOCKET_LIMITS } from './events.ts';
import { LIMITS } from './limits.ts';
import { MESSAGES, tooLongMessage } from './messages.ts';
import {
  CLOSE_REASONS,
  COLOR_BLINDNESS,
  COLOR_SCHEMES,
  READING_FONTS,
  COMMENT_TARGETS,
  DIGEST_FREQUENCIES,
  FLAG_REASONS,
  FLAG_TARGETS,
  ORDERS,
  ROLES,
} from './types.ts';
import {
  adjustmentReasonError,
  bioError,
  editReasonError,
  emailError,
  flagNoteError,
  forumDescriptionError,
  forumNameError,
  passwordError,
  porpNameError,
  suspensionReasonError,
  tagNamesError,
  titleError,
  usernameError,
  type Rule,
} from './validation.ts';
import { answerTextError, commentMarkdownError, messageMarkdownError, questionTextError } from './markdown/index.ts';

export { z };
/** Text that PostgreSQL can store: no NUL character and no lone surrogate. */
export const storableText = (field: string) =>
  z.string({ error: `${field} must be text` }).refine((value) => !value.includes('\u0000') && value.isWellFormed(), {
    error: `${field} contains characters that are not allowed`,
  });

const ruled = (field: string, rule: Rule) =>
  storableText(field).superRefine((value, ctx) => {
    const message = rule(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/**
 * A field of the spec's payloads that the server does not take from the client (a time,
 * counters, lists it keeps itself): accepted and ignored, so the contract says so.
 */
const ignored = z.unknown().optional().describe("Sent by the spec's clients and ignored: the server keeps its own");

export const registerInput = z.object({
  username: ruled('Username', usernameError),
  email: ruled('Email', emailError).transform((email) => email.trim()),
  password: ruled('Password', passwordError),
  createdAt: ignored,
});
export type RegisterInput = z.infer<typeof registerInput>;

/** A one-time link's token: what the mail carried (random, base64url). */
const linkToken = z
  .string({ error: MESSAGES.linkExpired })
  .min(1, { error: MESSAGES.linkExpired })
  .max(200, { error: MESSAGES.linkExpired });

export const requestPasswordResetInput = z.object({
  email: ruled('Email', emailError).transform((email) => email.trim()),
});
export const resetPasswordInput = z.object({ token: linkToken, password: ruled('Password', passwordError) });
export const changePasswordInput = z.object({
  currentPassword: storableText('Current password').max(1_000),
  newPassword: ruled('Password', passwordError),
});
export const changeEmailInput = z.object({
  newEmail: ruled('Email', emailError).transform((email) => email.trim()),
  currentPassword: storableText('Current password').max(1_000),
});
export const confirmEmailInput = z.object({ token: linkToken });

export const loginInput = z.object({
  username: storableText('Username').max(200),
  password: storableText('Password').max(1_000),
});
export type LoginInput = z.infer<typeof loginInput>;

/** Ids are positive integers sent as strings or numbers. */
export const idInput = z
  .union(
    [
      z.string().regex(/^[1-9][0-9]{0,15}$/, { error: 'Invalid id' }),
      z.number().int().positive().max(Number.MAX_SAFE_INTEGER, { error: 'Invalid id' }),
    ],
    { error: 'Invalid id' },
  )
  .transform((id) => String(id));

export const accessibilitySettingsInput = z.object({
  lowVision: z.boolean({ error: 'Low vision must be yes or no' }),
  colorBlindness: z.enum(COLOR_BLINDNESS, { error: 'Choose a colour-blindness option' }),
  // docs/product.md section 12: each optional; one left out keeps its stored value.
  colorScheme: z.enum(COLOR_SCHEMES, { error: 'Choose a colour scheme' }).optional(),
  readingFont: z.enum(READING_FONTS, { error: 'Choose a reading font' }).optional(),
  reducedMotion: z.boolean({ error: 'Reduced motion must be on or off' }).optional(),
  liveAnnouncements: z.boolean({ error: 'Live announcements must be on or off' }).optional(),
  keyboardShortcuts: z.boolean({ error: 'Keyboard shortcuts must be on or off' }).optional(),
});
export type AccessibilitySettingsInput = z.infer<typeof accessibilitySettingsInput>;

export const orderInput = z.enum(ORDERS, { error: 'Unknown order' });

export const questionInput = z.object({
  title: ruled('Title', titleError),
  text: ruled('Question text', questionTextError),
  tags: z
    .array(z.object({ name: storableText('Tag'), description: ignored }), { error: MESSAGES.tagsTooFew })
    .transform((tags) => [...new Set(tags.map((tag) => tag.name.trim().toLowerCase()))])
    .superRefine((names, ctx) => {
      const message =
        tagNamesError(names) ?? (names.some((name) => /\s/.test(name) || name === '') ? MESSAGES.tagsTooFew : null);
      if (message) ctx.addIssue({ code: 'custom', message });
    }),
  askedBy: z.string().optional(),
  askDateTime: ignored,
  answers: ignored,
  answerCount: ignored,
  upVotes: ignored,
  downVotes: ignored,
  views: ignored,
  comments: ignored,
});

const editReason = ruled('Reason for edit', editReasonError)
  .transform((reason) => reason.trim())
  .optional()
  .transform((reason) => (reason === undefined || reason === '' ? null : reason));

/** An edit of a question: as asking takes it, plus an optional reason (docs/product.md section 9). */
export const questionEditInput = z.object({
  title: questionInput.shape.title,
  text: questionInput.shape.text,
  tags: questionInput.shape.tags,
  reason: editReason,
});

export const answerEditInput = z.object({
  text: ruled('Answer text', answerTextError),
  reason: editReason,
});

export const answerInput = z.object({
  qid: idInput,
  ans: z.object({
    text: ruled('Answer text', answerTextError),
    ansBy: z.string().optional(),
    ansDateTime: ignored,
    comments: ignored,
  }),
});

export const commentInput = z.object({
  id: idInput,
  type: z.enum(COMMENT_TARGETS, { error: "type must be 'question' or 'answer'" }),
  comment: z.object({
    text: ruled('Comment', commentMarkdownError),
    commentBy: z.string().optional(),
    commentDateTime: ignored,
  }),
});

export const bioInput = z.object({ username: z.string(), bio: ruled('Bio', bioError) });

export const forumInput = z.object({
  name: ruled('Name', forumNameError).transform((name) => name.trim()),
  description: ruled('Description', forumDescriptionError).transform((text) => text.trim()),
  thread: ignored,
});

/** The first issue's message, which is what the server answers with. */
export function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid request';
}

/** A list's page: at most `limit` rows (default 50, max 100) after `offset`. */
const pageFields = {
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int()
    .min(1)
    .max(LIMITS.pageSizeMax)
    .default(LIMITS.pageSizeDefault),
  offset: z.coerce.number({ error: 'offset must be a number' }).int().min(0).max(1_000_000).default(0),
};

/**
 * GET /api/getQuestion's query: order, search, tag and paging (docs/product.md section 3). An
 * offset goes at most LIMITS.listOffsetMax deep (each one is another cached page and a
 * longer index walk); past it, `cursor` continues from the X-Next-Cursor of the page before.
 */
export const questionListQuery = z
  .object({
    order: orderInput.default('newest'),
    search: storableText('search').max(500).optional(),
    tag: storableText('tag').max(LIMITS.tagNameMax).optional(),
    ...pageFields,
    offset: z.coerce
      .number({ error: 'offset must be a number' })
      .int()
      .min(0)
      .max(LIMITS.listOffsetMax, { error: MESSAGES.offsetTooDeep })
      .default(0),
    /** 'true': questions in the tags the signed-in member follows (docs/product.md section 11). */
    myTags: z
      .enum(['true', 'false'], { error: "myTags must be 'true' or 'false'" })
      .optional()
      .transform((value) => value === 'true'),
    /** Opaque: made and checked by the server. */
    cursor: z
      .string({ error: MESSAGES.invalidCursor })
      .min(1, { error: MESSAGES.invalidCursor })
      .max(200, { error: MESSAGES.invalidCursor })
      .optional(),
  })
  .refine((query) => query.cursor === undefined || query.offset === 0, { error: MESSAGES.offsetAndCursor })
  .refine((query) => !query.myTags || query.tag === undefined, { error: MESSAGES.myTagsAndTag });
export type QuestionListQuery = z.infer<typeof questionListQuery>;

/** GET /api/question/{qid}/answers: the page of answers after the answer `after` (the first page without it). */
export const answerPageQuery = z.object({ after: idInput.optional() });

export const voteInput = z.object({ qid: idInput, username: z.string().optional() });

export const answerVoteInput = z.object({ aid: idInput, username: z.string().optional() });

export const acceptInput = z.object({ qid: idInput, aid: idInput });

/** POST /api/question/{qid}/close: a reason and, for a duplicate, the original's id. */
export const closeInput = z
  .object({
    reason: z.enum(CLOSE_REASONS, { error: `Reason must be one of ${CLOSE_REASONS.join(', ')}` }),
    duplicateOf: idInput.optional(),
  })
  .refine((input) => input.reason !== 'duplicate' || input.duplicateOf !== undefined, {
    error: MESSAGES.duplicateNeeded,
    path: ['duplicateOf'],
  })
  .transform((input) => ({
    reason: input.reason,
    duplicateOf: input.reason === 'duplicate' ? (input.duplicateOf ?? null) : null,
  }));

/** What a flag or a moderator's decision is about: a post, or a forum or PorpChat message. */
const flagTarget = {
  targetType: z.enum(FLAG_TARGETS, { error: `targetType must be one of ${FLAG_TARGETS.join(', ')}` }),
  targetId: idInput,
};

/** POST /api/flag (docs/product.md section 10): one flag per member per item. */
export const flagInput = z.object({
  ...flagTarget,
  reason: z.enum(FLAG_REASONS, { error: `Reason must be one of ${FLAG_REASONS.join(', ')}` }),
  note: ruled('Note', flagNoteError).optional(),
});

/** POST /api/moderation/dismiss and /delete: the item decided on. */
export const reviewTargetInput = z.object(flagTarget);

/**
 * POST /api/moderation/suspend: the author of an item, for some days or (`forever: true`)
 * for good, with a reason. Days are required unless `forever` is set, never both (docs/product.md
 * section 5: a forgotten 'Days' never bans for good). Parsed to `days` (null: for good).
 */
export const suspendInput = z
  .object({
    // A member by name, or (the review queue) the author of an item, which the server looks
    // up so a PorpChat message's account is never named to the moderator (docs/product.md section 10).
    username: z.string().min(1).max(LIMITS.usernameMax).optional(),
    targetType: flagTarget.targetType.optional(),
    targetId: flagTarget.targetId.optional(),
    reason: ruled('Reason', suspensionReasonError),
    days: z
      .number({ error: MESSAGES.suspensionDays })
      .int({ error: MESSAGES.suspensionDays })
      .min(1, { error: MESSAGES.suspensionDays })
      .max(LIMITS.suspensionDaysMax, { error: MESSAGES.suspensionDays })
      .nullable()
      .optional(),
    forever: z.boolean({ error: 'forever must be true or false' }).optional(),
  })
  .superRefine(({ days, forever, username, targetType, targetId }, ctx) => {
    const byItem = targetType !== undefined && targetId !== undefined;
    if ((username === undefined) === !byItem) ctx.addIssue({ code: 'custom', message: MESSAGES.suspendWhom });
    const hasDays = days !== undefined && days !== null;
    if (forever === true && hasDays) ctx.addIssue({ code: 'custom', message: MESSAGES.suspensionDaysAndForever });
    if (forever !== true && !hasDays) ctx.addIssue({ code: 'custom', message: MESSAGES.suspensionDaysRequired });
  })
  .transform(({ days, forever, ...rest }) => ({ ...rest, days: forever === true ? null : (days ?? null) }));

/** GET /api/moderation/log: the page of entries older than `before` (the newest without it). */
export const moderationLogQuery = z.object({ before: idInput.optional() });

/** POST /api/admin/users/{username}/reputation (docs/product.md section 13). */
export const reputationAdjustmentInput = z.object({
  delta: z
    .number({ error: MESSAGES.adjustmentDelta })
    .int({ error: MESSAGES.adjustmentDelta })
    .min(-LIMITS.reputationAdjustmentMax, { error: MESSAGES.adjustmentDelta })
    .max(LIMITS.reputationAdjustmentMax, { error: MESSAGES.adjustmentDelta })
    .refine((delta) => delta !== 0, { error: MESSAGES.adjustmentDelta }),
  reason: ruled('Reason', adjustmentReasonError),
});

const threshold = z
  .number({ error: MESSAGES.privilegeThreshold })
  .int({ error: MESSAGES.privilegeThreshold })
  .min(1, { error: MESSAGES.privilegeThreshold })
  .max(LIMITS.privilegeThresholdMax, { error: MESSAGES.privilegeThreshold });

/** PUT /api/admin/privileges: the thresholds to change (docs/product.md section 13). */
export const privilegeThresholdsInput = z.strictObject({
  flagToHide: threshold.optional(),
  editAny: threshold.optional(),
  closeVote: threshold.optional(),
});

export const roleInput = z.object({
  role: z.enum(ROLES, { error: `Role must be one of ${ROLES.join(', ')}` }),
});

export const userSearchQuery = z.object({
  search: z.string().max(100).optional(),
});

/** A suggestion list's query (docs/product.md section 5): the start of a name, at most as long as a name. */
const suggestQuery = (max: number) =>
  z.object({
    prefix: storableText('Prefix')
      .min(1, { error: MESSAGES.prefixEmpty })
      .max(max, { error: tooLongMessage('Prefix', max) }),
  });
export const tagSuggestQuery = suggestQuery(LIMITS.tagNameMax);
export const userSuggestQuery = suggestQuery(LIMITS.usernameMax);

export const saveAccessibilityInput = z.object({
  username: z.string({ error: 'username is required' }),
  email: ignored,
  createdAt: ignored,
  accessibilitySettings: accessibilitySettingsInput,
});

export const threadInput = z.object({
  accounts: z
    .array(z.string(), { error: MESSAGES.recipientEmpty })
    .length(2, { error: 'A thread has exactly two accounts' }),
  messages: ignored,
  threadUpdatedDateTime: ignored,
});

/** A thread id: a numeric id, or PorpChat's fixed id. */
export const threadIdInput = z.union([z.literal('porpchat'), idInput], { error: 'Invalid thread id' });

/** GET /api/forum/getForums's query: one page of forums, newest first, or the forum of one thread. */
export const forumListQuery = z.object({
  username: z.string().optional(),
  thread: threadIdInput.optional(),
  ...pageFields,
});

export const messageInput = z.object({
  tid: threadIdInput,
  msg: z.object({
    content: ruled('Message', messageMarkdownError),
    sender: storableText('Sender').optional(),
    messageDateTime: ignored,
    views: ignored,
    likes: ignored,
  }),
});

export const readMessageInput = z.object({ mid: idInput, username: z.string().optional() });

export const porpNameInput = ruled('Username', porpNameError).transform((name) => name.trim());

/** POST /api/porpchat/checkName: the name a visitor is about to join PorpChat with. */
export const porpNameCheckInput = z.object({ name: porpNameInput });

/** The socket event `showQuestions`: at most 300 question ids (PostgreSQL integers). */
export const showQuestionsInput = z
  .array(z.number().int().positive().max(2_147_483_647))
  .max(CLIENT_SOCKET_LIMITS.shownQuestionsMax);

/** GET /api/notifications: a page of the newest, or of those older than the notification `before`. */
export const notificationListQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int()
    .min(1)
    .max(LIMITS.notificationsPageMax)
    .default(LIMITS.notificationsPageDefault),
  before: idInput.optional(),
});

/** POST /api/notifications/markRead: some of one's notifications by id, or all of them. */
export const markReadInput = z
  .object({
    ids: z.array(idInput).min(1).max(LIMITS.notificationsPageMax).optional(),
    all: z.literal(true).optional(),
  })
  .refine((input) => (input.ids === undefined) !== (input.all === undefined), { error: MESSAGES.markReadWhich });

/** PUT /api/account/digest. */
export const digestInput = z.object({
  digest: z.enum(DIGEST_FREQUENCIES, { error: MESSAGES.digestChoice }),
});

/** The unsubscribe link's token (in the address, so a one-click POST needs nothing else). */
export const unsubscribeQuery = z.object({
  token: z
    .string({ error: MESSAGES.unsubscribeInvalid })
    .regex(/^[0-9a-f]{32}$/, { error: MESSAGES.unsubscribeInvalid }),
});
