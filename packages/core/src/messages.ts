/** Every user-visible message of the spec and docs/product.md, written once. */
export const MESSAGES = {
  usernameInUse: 'Username already in use',
  emailInUse: 'Email already in use',
  passwordTooShort: 'Password should be at least 6 characters',
  passwordTooLong: 'Password cannot be more than 128 characters',
  usernameFormat: 'Username must be 3-30 characters: letters, digits, dot, dash or underscore',
  emailInvalid: 'Email must be a valid email address',
  emailRequired: 'Email cannot be empty',
  usernameRequired: 'Username cannot be empty',
  passwordRequired: 'Password cannot be empty',
  registerFailed: 'Failed to register account. Please try again.',
  invalidLogin: 'Invalid username or password',
  titleEmpty: 'Title cannot be empty',
  titleTooLong: 'Title cannot be more than 100 characters',
  questionTextEmpty: 'Question text cannot be empty',
  invalidHyperlink: 'Invalid hyperlink format.',
  tagsTooFew: 'Should have at least 1 tag',
  tagsTooMany: 'Cannot have more than 5 tags',
  tagTooLong: 'New tag length cannot be more than 20',
  answerTextEmpty: 'Answer text cannot be empty',
  commentEmpty: 'Comment text cannot be empty',
  recipientEmpty: 'Recipient cannot be empty',
  threadFailed: 'User does not exist or thread already exists',
  forumNameEmpty: 'Name cannot be empty',
  forumDescriptionEmpty: 'Description cannot be empty',
  forumNameTaken: 'Forum name already exists',
  porpNameRequired: 'Username cannot be empty',
  porpNameTaken: 'That name belongs to a member',
  messageEmpty: 'Message cannot be empty',
  notSignedIn: 'You must be signed in',
  forbidden: 'You may not do that',
  notFound: 'Not found',
  tooManyRequests: 'Too many requests, please try again later',
  offsetTooDeep: 'offset cannot be more than 1000: follow the X-Next-Cursor header for later pages',
  invalidCursor: 'Invalid cursor',
  offsetAndCursor: 'Send offset or cursor, not both',
  internal: 'Internal server error',
  unavailable: 'Service temporarily unavailable',
  foreignOrigin: 'Cross-site request refused',
  unknownHost: 'This server does not answer to that host name',
  notForScripts: 'The API answers scripts only, not images, pages or frames',
  userContextNull: 'User context is null.',
  accountContextNull: 'Account context is null.',
  loginContextNull: 'Login context is null.',
  porpContextNull: 'Porp context is null.',
  unexpectedError: 'Unexpected Application Error!',
  onlyAskerAccepts: 'Only the asker can accept an answer',
  answerNotOfQuestion: 'That answer does not belong to this question',
  onlyAdmins: 'Only admins can do that',
  lastAdmin: 'The last admin cannot be removed',
  userNotFound: 'User not found',
  questionNotFound: 'Question not found',
  answerNotFound: 'Answer not found',
  commentNotFound: 'Comment not found',
  messageNotFound: 'Message not found',
  editOwnOnly: 'You can only edit your own posts',
  reasonTooLong: 'Reason for edit cannot be more than 300 characters',
  deleteOwnOnly: 'You can only delete your own posts',
  questionHasAnswers: 'A question with answers cannot be deleted',
  deletedNotEditable: 'Undelete this post before changing it',
  questionClosed: 'This question is closed',
  onlyModeratorsClose: 'Only moderators can close or reopen questions',
  duplicateNeeded: 'Choose the question this one duplicates',
  duplicateOfItself: 'A question cannot duplicate itself',
  duplicateNotFound: 'The original question was not found',
  notClosed: 'This question is not closed',
  undeleteModerated: 'Only a moderator can undelete what a moderator deleted',
  resetLinkSent: 'If an account uses that email, we sent it a link.',
  linkExpired: 'This link has expired or was already used.',
  currentPasswordIncorrect: 'Current password is incorrect',
  passwordChanged: 'Your password was changed. Sign in with it.',
  confirmEmailSent: 'We sent a link to your new address. Your email changes when you open it and confirm.',
  emailConfirmed: 'Your email address was changed.',
  emailUnchanged: 'That is already your email address',
  alreadyFlagged: 'You already flagged this',
  flagOwn: 'You cannot flag your own post',
  flagSent: 'Thanks: a moderator will look at it.',
  onlyModerators: 'Only moderators can do that',
  notInQueue: 'This item is no longer waiting for a moderator',
  waitingForModerator: 'Your post is waiting for a moderator',
  heldForModerator: 'A moderator decides on this post now',
  onlyMembersSuspended: 'Only members can be suspended',
  noAccountToSuspend: 'This was posted without an account',
  suspendWhom: 'Give a username or an item (targetType and targetId), not both',
  suspensionReasonEmpty: 'Reason cannot be empty',
  suspensionDays: 'Days must be a whole number from 1 to 3650',
  // docs/product.md section 5: 'Suspend' needs a number of days or 'Suspend for good' checked.
  suspensionDaysRequired: "Enter a number of days, or check 'Suspend for good'",
  suspensionDaysAndForever: "Enter a number of days or check 'Suspend for good', not both",
  prefixEmpty: 'Prefix cannot be empty',
  // docs/product.md section 11 (our words where it gives none).
  markReadWhich: 'Give ids, or all: true',
  digestChoice: "Digest must be one of 'off', 'daily', 'weekly'",
  /** An admin's reputation adjustment (docs/product.md section 13). */
  adjustmentDelta: 'The change must be a whole number from -100,000 to 100,000, and not 0',
  adjustmentReasonEmpty: 'Reason cannot be empty',
  privilegeThreshold: 'A threshold must be a whole number from 1 to 1,000,000',
  /** Close and reopen votes (docs/product.md section 13). */
  closeVoteTwice: 'You already voted to close this',
  reopenVoteTwice: 'You already voted to reopen this',
  alreadyClosed: 'This question is already closed',
  unsubscribeInvalid: 'This unsubscribe link is not valid.',
  followedTagsFull: 'You can follow at most 100 tags',
  myTagsAndTag: 'Choose a tag or My tags, not both',
  /** Images in posts (docs/product.md section 14). */
  imageType: 'Only PNG, JPEG, GIF and WebP images can be uploaded',
  imageTooLarge: 'Images can be at most 5 MB',
  imageTooManyPixels: 'Images can have at most 40 megapixels',
  imageUnreadable: 'This image could not be read',
  imageDescription: 'Images need a description',
  imageGone: 'An image in this post is no longer available: add it again',
  imageFileMissing: 'Choose an image to upload',
  uploadsBusy: 'Too many images are being processed: try again in a moment',
  /** The composer's own (a post's form held while its image is not in the text yet). */
  imageNotInserted: 'Insert or discard the image before posting',
  imageStillUploading: 'Wait for the image to upload, or cancel it, before posting',
} as const;

/**
 * Signing in to a suspended account (docs/product.md section 10): 'This account is suspended
 * until {date}: {reason}', or for good 'This account is suspended: {reason}'. The date is
 * the day it ends (UTC), as 2026-12-04.
 */
export function suspendedMessage(until: Date | null, reason: string): string {
  return until === null
    ? `This account is suspended: ${reason}`
    : `This account is suspended until ${until.toISOString().slice(0, 10)}: ${reason}`;
}

/** '{Field} cannot be more than N characters' (docs/product.md section 3). */
/** A close or reopen vote without the 'Vote to close' privilege (docs/product.md section 13). */
export function closeVoteNeedsMessage(threshold: number): string {
  return `You need ${threshold} reputation to vote to close`;
}

export function tooLongMessage(field: string, max: number): string {
  return `${field} cannot be more than ${max} characters`;
}

/**
 * Every error answer's `code` (issue 17): stable and machine-readable, while the `error`
 * text beside it is for people and may be reworded.
 */
export const ERROR_CODES = [
  'invalid_input',
  'not_signed_in',
  'invalid_login',
  'forbidden',
  'cross_site',
  'not_for_scripts',
  'not_found',
  'conflict',
  'username_taken',
  'email_taken',
  'forum_name_taken',
  'porp_name_taken',
  'thread_failed',
  'body_too_large',
  'unsupported_media_type',
  'unknown_host',
  'too_many_requests',
  'internal',
  'unavailable',
  'only_asker_accepts',
  'last_admin',
  'edit_own_only',
  'delete_own_only',
  'question_has_answers',
  'question_closed',
  'only_moderators_close',
  'already_flagged',
  'only_moderators',
  'suspended',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Codes of the refusals that have a message of their own. */
const CODE_OF_MESSAGE: Partial<Record<string, ErrorCode>> = {
  [MESSAGES.notSignedIn]: 'not_signed_in',
  [MESSAGES.invalidLogin]: 'invalid_login',
  [MESSAGES.foreignOrigin]: 'cross_site',
  [MESSAGES.notForScripts]: 'not_for_scripts',
  [MESSAGES.usernameInUse]: 'username_taken',
  [MESSAGES.emailInUse]: 'email_taken',
  [MESSAGES.forumNameTaken]: 'forum_name_taken',
  [MESSAGES.porpNameTaken]: 'porp_name_taken',
  [MESSAGES.threadFailed]: 'thread_failed',
  [MESSAGES.unknownHost]: 'unknown_host',
  [MESSAGES.onlyAskerAccepts]: 'only_asker_accepts',
  [MESSAGES.lastAdmin]: 'last_admin',
  [MESSAGES.editOwnOnly]: 'edit_own_only',
  [MESSAGES.deleteOwnOnly]: 'delete_own_only',
  [MESSAGES.questionHasAnswers]: 'question_has_answers',
  [MESSAGES.questionClosed]: 'question_closed',
  [MESSAGES.onlyModeratorsClose]: 'only_moderators_close',
  [MESSAGES.alreadyFlagged]: 'already_flagged',
  [MESSAGES.onlyModerators]: 'only_moderators',
};

const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'invalid_input',
  401: 'not_signed_in',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'body_too_large',
  415: 'unsupported_media_type',
  421: 'unknown_host',
  429: 'too_many_requests',
  503: 'unavailable',
};

/** The code of an error answer with this status and text. */
export function errorCodeOf(status: number, message: string): ErrorCode {
  if (status === 403 && message.startsWith('This account is suspended')) return 'suspended';
  return CODE_OF_MESSAGE[message] ?? CODE_OF_STATUS[status] ?? (status < 500 ? 'invalid_input' : 'internal');
}
