/**
 * Password resets, password changes and email changes (product.md section 10). The links
 * these mail hold a random token; only its SHA-256 is stored, it works once, for an hour.
 * Each write returns the events that send its mail and end its sessions (events/processor.ts).
 */
import { MESSAGES, type Outcome } from '@porpoise/core';
import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accounts, accountTokens, sessions } from '../db/schema.ts';
import { uniqueViolation } from '../lib/db-errors.ts';
import { badRequest, conflict } from '../lib/http-error.ts';
import { hashToken } from '../lib/sessions.ts';

/** How long a mailed link works. */
export const LINK_TTL_MS = 60 * 60_000;

type Purpose = 'password' | 'email';

const newToken = () => randomBytes(32).toString('base64url');

const expired = () => badRequest(MESSAGES.linkExpired);

/** A link's token row while it still works (not used, not expired), or null. */
export async function liveToken(db: Db, token: string, purpose: Purpose) {
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(token)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * A reset link for the account using `email`, if one does: the token goes to the mail
 * only (the event), its hash to the table. No account: nothing is written, and the
 * route answers the same.
 */
export async function requestPasswordReset(db: Db, email: string): Promise<Outcome<null>> {
  const [account] = await db
    .select({ id: accounts.id, username: accounts.username, email: accounts.email })
    .from(accounts)
    .where(sql`lower(${accounts.email}) = lower(${email})`)
    .limit(1);
  if (!account) return { result: null, events: [] };
  const token = newToken();
  await db.insert(accountTokens).values({
    tokenHash: hashToken(token),
    accountId: account.id,
    purpose: 'password',
    expiresAt: new Date(Date.now() + LINK_TTL_MS),
  });
  return {
    result: null,
    events: [
      {
        type: 'passwordResetRequested',
        accountId: account.id,
        username: account.username,
        email: account.email,
        token,
      },
    ],
  };
}

/**
 * Sets the password a reset link was for: the link is used up (with any other reset link
 * of the account) and every session of the account ends. Two uses of one link at once:
 * the first claims it, the second gets 'This link has expired or was already used.'
 */
export async function resetPassword(db: Db, token: string, passwordHash: string): Promise<Outcome<null>> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(accountTokens)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(accountTokens.tokenHash, hashToken(token)),
          eq(accountTokens.purpose, 'password'),
          isNull(accountTokens.usedAt),
          gt(accountTokens.expiresAt, sql`now()`),
        ),
      )
      .returning({ accountId: accountTokens.accountId });
    if (!claimed) throw expired();
    await tx
      .update(accountTokens)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(accountTokens.accountId, claimed.accountId),
          eq(accountTokens.purpose, 'password'),
          isNull(accountTokens.usedAt),
        ),
      );
    await tx.update(accounts).set({ passwordHash }).where(eq(accounts.id, claimed.accountId));
    const ended = await tx
      .delete(sessions)
      .where(eq(sessions.accountId, claimed.accountId))
      .returning({ tokenHash: sessions.tokenHash });
    return {
      result: null,
      events: [{ type: 'sessionsEnded', accountId: claimed.accountId, tokenHashes: ended.map((row) => row.tokenHash) }],
    };
  });
}

/** A new password for a signed-in member (its current one already checked): every other session ends. */
export async function changePassword(
  db: Db,
  accountId: number,
  passwordHash: string,
  keepTokenHash: string,
): Promise<Outcome<null>> {
  return db.transaction(async (tx) => {
    await tx.update(accounts).set({ passwordHash }).where(eq(accounts.id, accountId));
    const ended = await tx
      .delete(sessions)
      .where(and(eq(sessions.accountId, accountId), ne(sessions.tokenHash, keepTokenHash)))
      .returning({ tokenHash: sessions.tokenHash });
    return {
      result: null,
      events: [{ type: 'sessionsEnded', accountId, tokenHashes: ended.map((row) => row.tokenHash) }],
    };
  });
}

async function assertEmailFree(db: Db, accountId: number, email: string): Promise<void> {
  const [holder] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(sql`lower(${accounts.email}) = lower(${email})`)
    .limit(1);
  if (holder === undefined) return;
  throw holder.id === accountId ? badRequest(MESSAGES.emailUnchanged) : conflict(MESSAGES.emailInUse);
}

/**
 * A confirmation link for a new address (its current password already checked). The
 * email changes only when the link is confirmed, so a typo never locks anyone out.
 */
export async function requestEmailChange(
  db: Db,
  account: { id: number; username: string },
  newEmail: string,
): Promise<Outcome<null>> {
  await assertEmailFree(db, account.id, newEmail);
  const token = newToken();
  await db.insert(accountTokens).values({
    tokenHash: hashToken(token),
    accountId: account.id,
    purpose: 'email',
    newEmail,
    expiresAt: new Date(Date.now() + LINK_TTL_MS),
  });
  return {
    result: null,
    events: [{ type: 'emailChangeRequested', accountId: account.id, username: account.username, newEmail, token }],
  };
}

/** Moves the account to the address its link confirms; the old address is told. */
export async function confirmEmail(db: Db, token: string): Promise<Outcome<null>> {
  try {
    return await db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(accountTokens)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(accountTokens.tokenHash, hashToken(token)),
            eq(accountTokens.purpose, 'email'),
            isNull(accountTokens.usedAt),
            gt(accountTokens.expiresAt, sql`now()`),
          ),
        )
        .returning({ accountId: accountTokens.accountId, newEmail: accountTokens.newEmail });
      if (!claimed?.newEmail) throw expired();
      const [before] = await tx
        .select({ email: accounts.email, username: accounts.username })
        .from(accounts)
        .where(eq(accounts.id, claimed.accountId))
        .for('update');
      if (!before) throw expired();
      await tx.update(accounts).set({ email: claimed.newEmail }).where(eq(accounts.id, claimed.accountId));
      return {
        result: null,
        events: [
          {
            type: 'emailChanged',
            accountId: claimed.accountId,
            username: before.username,
            oldEmail: before.email,
            newEmail: claimed.newEmail,
          },
        ],
      };
    });
  } catch (error) {
    // Another account took the address since the link was sent.
    if (uniqueViolation(error) === 'accounts_email_lower_key') throw conflict(MESSAGES.emailInUse);
    throw error;
  }
}
