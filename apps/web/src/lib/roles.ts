import type { Account } from '@porpoise/core';

/** Whose role is asked about: an account, or null for a visitor. */
type Holder = Pick<Account, 'role'> | null | undefined;

/**
 * Moderators and admins keep the place clean (docs/product.md section 10): the review queue,
 * the log, any post's edit, delete and close, hidden items kept in view. The web's copy of
 * the server's `moderates` (policies/authorize.ts), which checks again.
 */
export const moderates = (account: Holder): boolean => account?.role === 'moderator' || account?.role === 'admin';

/** Admins alone set roles (docs/product.md section 10): the server's 'administer'. */
export const administers = (account: Holder): boolean => account?.role === 'admin';
