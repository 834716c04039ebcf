/**
 * The domain's words (roles, orders, reasons): constants the contract and the schemas build
 * on, importing nothing from them (the API shapes inferred from the contract: api-types.ts).
 */

export const COLOR_BLINDNESS = ['none', 'redgreen', 'blueyellow', 'grayscale'] as const;
export type ColorBlindness = (typeof COLOR_BLINDNESS)[number];
/** docs/product.md section 12: light, dark, or whichever the system prefers (live). */
export const COLOR_SCHEMES = ['light', 'dark', 'system'] as const;
export type ColorScheme = (typeof COLOR_SCHEMES)[number];
export const READING_FONTS = ['default', 'dyslexia'] as const;
export type ReadingFont = (typeof READING_FONTS)[number];
/** What a new account reads with (docs/product.md section 12), and a visitor signed out. */
export const READING_COMFORT_DEFAULTS = {
  colorScheme: 'system',
  readingFont: 'default',
  reducedMotion: false,
  liveAnnouncements: true,
  keyboardShortcuts: true,
} as const satisfies {
  colorScheme: ColorScheme;
  readingFont: ReadingFont;
  reducedMotion: boolean;
  liveAnnouncements: boolean;
  keyboardShortcuts: boolean;
};

/** Who may do what (docs/product.md section 10): every account has exactly one. */
export const ROLES = ['member', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The orders of a question page's answers (docs/product.md section 7); 'score' is the default. */
export const ANSWER_ORDERS = ['score', 'oldest', 'newest'] as const;
export type AnswerOrder = (typeof ANSWER_ORDERS)[number];

export const ORDERS = ['newest', 'unanswered', 'active', 'mostViewed'] as const;
export type Order = (typeof ORDERS)[number];

/** What a comment is on. */
/** Why a moderator closed a question (docs/product.md section 9). */
export const CLOSE_REASONS = ['duplicate', 'off-topic', 'needs details'] as const;
export type CloseReason = (typeof CLOSE_REASONS)[number];

/** The posts that can be deleted and undeleted (docs/product.md section 9). */
export const POST_KINDS = ['question', 'answer', 'comment'] as const;
export type PostKind = (typeof POST_KINDS)[number];

/** What a member may flag (docs/product.md section 10): posts, and forum and PorpChat messages. */
export const FLAG_TARGETS = ['question', 'answer', 'comment', 'message'] as const;
export type FlagTarget = (typeof FLAG_TARGETS)[number];

/** Why (docs/product.md section 10); three spam or rude flags hide an item at once. */
export const FLAG_REASONS = ['spam', 'rude', 'off-topic', 'other'] as const;
export type FlagReason = (typeof FLAG_REASONS)[number];

/** Flags of these reasons count toward hiding an item. */
export const HIDING_REASONS: readonly FlagReason[] = ['spam', 'rude'];

/** How many hiding flags from different members hide an item until a moderator decides. */
export const FLAGS_TO_HIDE = 3;

/**
 * Why an item is held from view with nobody having deleted it: three spam or rude flags,
 * or a new account's post waiting for approval (docs/product.md section 10).
 */
export const HELD_FOR = ['flags', 'approval'] as const;
export type HeldFor = (typeof HELD_FOR)[number];

export const COMMENT_TARGETS = ['question', 'answer'] as const;
export type CommentTarget = (typeof COMMENT_TARGETS)[number];

/** Which way a vote goes (docs/product.md section 7: each vote toggles). */
export type VoteDirection = 'up' | 'down';

/**
 * Why an account is told of a post (docs/product.md section 11), most specific first: a post
 * notifies an account once, with the first of these that applies.
 */
export const NOTIFICATION_KINDS = ['answer', 'comment', 'accept', 'mention', 'followedAnswer'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How often an account's email digest comes (docs/product.md section 11); weekly unless changed. */
/** Why a reputation event moved an account's reputation (docs/product.md section 13). */
export const REPUTATION_REASONS = [
  'questionUpvoted',
  'questionDownvoted',
  'answerUpvoted',
  'answerDownvoted',
  'answerAccepted',
  'acceptedAnswer',
  'downvotedAnswer',
  'adjustment',
] as const;
export type ReputationReason = (typeof REPUTATION_REASONS)[number];

/**
 * What reputation unlocks (docs/product.md section 13): each a threshold an admin sets, its
 * default here. Moderators and admins have every privilege.
 */
export const PRIVILEGES = [
  {
    key: 'flagToHide',
    name: 'Flag to hide',
    threshold: 15,
    allows: 'Your spam and rude flags count toward hiding a post',
  },
  {
    key: 'editAny',
    name: 'Edit any post',
    threshold: 2000,
    allows: "Edit others' questions and answers, as moderators can (the revision names you)",
  },
  { key: 'closeVote', name: 'Vote to close', threshold: 3000, allows: 'Vote to close and to reopen questions' },
] as const;
export type PrivilegeKey = (typeof PRIVILEGES)[number]['key'];
export const PRIVILEGE_KEYS = PRIVILEGES.map((privilege) => privilege.key) as [PrivilegeKey, ...PrivilegeKey[]];

export const DIGEST_FREQUENCIES = ['off', 'daily', 'weekly'] as const;
export type DigestFrequency = (typeof DIGEST_FREQUENCIES)[number];
