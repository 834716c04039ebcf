import { READING_COMFORT_DEFAULTS } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, id, ref } from './columns.ts';

export const accounts = pgTable(
  'accounts',
  {
    id: id(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    lowVision: boolean('low_vision').notNull().default(false),
    colorBlindness: text('color_blindness').notNull().default('none'),
    /** When the account last saved its accessibility settings; null until it has (docs/product.md section 12). */
    accessibilitySavedAt: at('accessibility_saved_at'),
    /** Reading comfort (docs/product.md section 12): 'light', 'dark' or 'system'. */
    colorScheme: text('color_scheme').notNull().default(READING_COMFORT_DEFAULTS.colorScheme),
    /** 'default' or 'dyslexia'. */
    readingFont: text('reading_font').notNull().default(READING_COMFORT_DEFAULTS.readingFont),
    reducedMotion: boolean('reduced_motion').notNull().default(READING_COMFORT_DEFAULTS.reducedMotion),
    liveAnnouncements: boolean('live_announcements').notNull().default(READING_COMFORT_DEFAULTS.liveAnnouncements),
    keyboardShortcuts: boolean('keyboard_shortcuts').notNull().default(READING_COMFORT_DEFAULTS.keyboardShortcuts),
    createdAt: at('created_at').notNull().defaultNow(),
    /** member, moderator or admin (docs/product.md section 10); the policies read it on every request. */
    role: text('role').notNull().default('member'),
    /**
     * Suspended by a moderator (docs/product.md section 10) until this time ('infinity': for
     * good), with the reason given; signing in is refused until then. Null: not suspended.
     */
    suspendedUntil: at('suspended_until'),
    suspensionReason: text('suspension_reason'),
    /** Its notifications that are unread and shown, kept with them (docs/product.md section 11). */
    unreadNotifications: integer('unread_notifications').notNull().default(0),
    /**
     * The sum of its shown reputation events (schema/reputation.ts), kept with them: its
     * reputation is max(1, 1 + this) (docs/product.md section 13).
     */
    reputationSum: bigint('reputation_sum', { mode: 'number' }).notNull().default(0),
    /** 'off', 'daily' or 'weekly' (docs/product.md section 11). */
    digest: text('digest').notNull().default('weekly'),
    /** When its last digest was sent; null until one has been. */
    lastDigestAt: at('last_digest_at'),
    /**
     * The one-click unsubscribe link's token (a random 128-bit value, made with the first
     * digest): it can only turn the digest off, so it is kept as it is, not hashed.
     */
    digestToken: text('digest_token'),
    /**
     * nameSkeleton(username) from packages/core/src/skeleton.ts, written out for the characters
     * a username may hold (A-Z, a-z, 0-9, dot, dash, underscore): PorpChat names that look
     * like a member's are found by this index, not by scanning accounts.
     */
    usernameSkeleton: text('username_skeleton')
      .notNull()
      .generatedAlwaysAs(sql`replace(translate(lower(username), '01l', 'oii'), 'm', 'rn')`),
  },
  (t) => [
    uniqueIndex('accounts_username_lower_key').on(sql`lower(${t.username})`),
    index('accounts_username_skeleton_idx').on(t.usernameSkeleton),
    // Username suggestions (queries/suggestions.ts): a prefix of the lower-case name is a
    // range of this index, read in its order, whatever the database's collation.
    index('accounts_username_prefix_idx').on(sql`(lower(${t.username}) collate "C")`),
    uniqueIndex('accounts_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('accounts_digest_token_key').on(t.digestToken),
    check('accounts_digest_check', sql`${t.digest} in ('off', 'daily', 'weekly')`),
    check('accounts_role_check', sql`${t.role} in ('member', 'moderator', 'admin')`),
    check(
      'accounts_color_blindness_check',
      sql`${t.colorBlindness} in ('none', 'redgreen', 'blueyellow', 'grayscale')`,
    ),
    check('accounts_color_scheme_check', sql`${t.colorScheme} in ('light', 'dark', 'system')`),
    check('accounts_reading_font_check', sql`${t.readingFont} in ('default', 'dyslexia')`),
  ],
);

/** An account as its row reads. */
export type AccountRow = typeof accounts.$inferSelect;

export const profiles = pgTable('profiles', {
  accountId: ref('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  bio: text('bio').notNull().default(''),
});

/** Server-side sessions; the cookie holds a random token, the table only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: ref('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('sessions_account_idx').on(t.accountId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** Fixed-window rate-limit counters, shared by every server process. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: at('reset_at').notNull(),
});

/**
 * One-time links sent by mail (docs/product.md section 10): a password reset, or the
 * confirmation of a new email address. The mail holds a random token; the table only its
 * SHA-256, so a copy of the database opens no account. Used up when its change is made;
 * good for an hour.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: ref('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** 'password' (a reset), 'email' (a new address to confirm) or 'revert' (the old address moving the account back). */
    purpose: text('purpose').notNull(),
    /** The address an 'email' or 'revert' token moves the account to. */
    newEmail: text('new_email'),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [
    index('account_tokens_account_idx').on(t.accountId),
    index('account_tokens_expires_idx').on(t.expiresAt),
    check('account_tokens_purpose_check', sql`${t.purpose} in ('password', 'email', 'revert')`),
  ],
);
