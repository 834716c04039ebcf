/**
 * Password resets, password changes and email changes (product.md section 10). The links
 * these mail hold a random token; only its SHA-256 is stored, it works once, for an hour.
 * Each write returns the events that send its mail and end its sessions (events/processor.ts).
 */
import { MESSAGES, type DomainEvent, type Outcome } from '@porpoise/core';
import { randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../db/client.ts';
import { accounts, accountTokens, sessions } from '../db/schema.ts';
import { uniqueViolation } from '../lib/db-errors.ts';
import { badRequest, conflict } from '../lib/http-error.ts';
import { hashToken } from '../lib/sessions.ts';

/** How long a mailed link works. */
export const LINK_TTL_MS = 60 * 60_000;
/** How long the old address may move an account back after its email changed (a week: it may not be read at once). */
export const REVERT_TTL_MS = 7 * 24 * 60 * 60_000;

/** A reset, a new address to confirm, or the old address moving the account back. */
type Purpose = 'password' | 'email' | 'revert';

const newToken = () => randomBytes(32).toString('base64url');

const expired = () => badRequest(MESSAGES.linkExpired);

/** The link's row while it still works: its purpose, not used, not expired. */
const working = (token: string, purposes: readonly Purpose[]) =>
  and(
    eq(accountTokens.tokenHash, hashToken(token)),
    inArray(accountTokens.purpose, [...purposes]),
    isNull(accountTokens.usedAt),
    gt(accountTokens.expiresAt, sql`now()`),
  );

/** A link's token row while it still works, or null. */
export async function liveToken(db: Db, token: string, purpose: Purpose) {
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(working(token, [purpose]))
    .limit(1);
  return row ?? null;
}

/** Uses a working link up, in one statement: of two uses at once, one gets the row. */
async function claim(tx: Tx, token: string, purposes: readonly Purpose[]) {
  const [claimed] = await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(working(token, purposes))
    .returning({
      accountId: accountTokens.accountId,
      newEmail: accountTokens.newEmail,
      purpose: accountTokens.purpose,
    });
  if (!claimed) throw expired();
  return claimed;
}

/** Reset links one account gets an hour, however its email is spelled in the requests. */
const RESETS_PER_ACCOUNT_PER_HOUR = 3;

/**
 * A reset link for the account using `email`, if one does: the token goes to the mail
 * only (the event), its hash to the table. One statement finds the account and writes
 * the link, so an email no account uses costs about the same time and writes nothing;
 * an account that got 3 links this hour gets no more (and the answer says nothing).
 */
export async function requestPasswordReset(db: Db, email: string): Promise<Outcome<null>> {
  const token = newToken();
  const [account] = await queryRows<{ id: number; username: string; email: string }>(
    db,
    sql`with account as (
          select id, username, email from accounts where lower(email) = lower(${email}) limit 1),
        link as (
          insert into account_tokens (token_hash, account_id, purpose, expires_at)
          select ${hashToken(token)}, account.id, 'password', now() + make_interval(secs => ${LINK_TTL_MS / 1000})
          from account
          where (select count(*) from account_tokens recent
                 where recent.account_id = account.id and recent.purpose = 'password'
                   and recent.created_at > now() - interval '1 hour') < ${RESETS_PER_ACCOUNT_PER_HOUR}
          returning account_id)
        select account.id::int as id, account.username, account.email from account join link on link.account_id = account.id`,
  );
  if (!account) return { result: null, events: [] };
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
 * Every link of the account not used yet, used up: a password set or changed, or an email
 * moved, leaves no older link able to take the account.
 */
export async function useUpLinks(tx: Tx, accountId: number): Promise<void> {
  await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(accountTokens.accountId, accountId), isNull(accountTokens.usedAt)));
}

/**
 * Sets the password a reset link was for: the link is used up (with every other link of
 * the account) and every session of the account ends. Two uses of one link at once:
 * the first claims it, the second gets 'This link has expired or was already used.'
 */
export async function resetPassword(db: Db, token: string, passwordHash: string): Promise<Outcome<null>> {
  return db.transaction(async (tx) => {
    const claimed = await claim(tx, token, ['password']);
    await useUpLinks(tx, claimed.accountId);
    await tx.update(accounts).set({ passwordHash }).where(eq(accounts.id, claimed.accountId));
    return { result: null, events: [await endSessions(tx, claimed.accountId)] };
  });
}

/** Ends every session of an account (a password reset, a suspension): every process forgets them, their sockets close. */
export async function endSessions(tx: Tx, accountId: number): Promise<DomainEvent> {
  const ended = await tx
    .delete(sessions)
    .where(eq(sessions.accountId, accountId))
    .returning({ tokenHash: sessions.tokenHash });
  return { type: 'sessionsEnded', accountId, tokenHashes: ended.map((row) => row.tokenHash) };
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
    await useUpLinks(tx, accountId);
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
      const claimed = await claim(tx, token, ['email', 'revert']);
      if (!claimed.newEmail) throw expired();
      const [before] = await tx
        .select({ email: accounts.email, username: accounts.username })
        .from(accounts)
        .where(eq(accounts.id, claimed.accountId))
        .for('update');
      if (!before) throw expired();
      await tx.update(accounts).set({ email: claimed.newEmail }).where(eq(accounts.id, claimed.accountId));
      await useUpLinks(tx, claimed.accountId);
      // The old address is told, with a link that moves the account back to it: were the
      // change not its owner's, a reset from the new address would reach the wrong person.
      // Moving back gives no such link to the address left (no ping-pong).
      let revertToken: string | null = null;
      if (claimed.purpose === 'email') {
        revertToken = newToken();
        await tx.insert(accountTokens).values({
          tokenHash: hashToken(revertToken),
          accountId: claimed.accountId,
          purpose: 'revert',
          newEmail: before.email,
          expiresAt: new Date(Date.now() + REVERT_TTL_MS),
        });
      }
      return {
        result: null,
        events: [
          {
            type: 'emailChanged',
            accountId: claimed.accountId,
            username: before.username,
            oldEmail: before.email,
            newEmail: claimed.newEmail,
            revertToken,
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

/**
 * Deletes links that can no longer work (used or expired), at most `limit`, once the hour
 * that counts an account's reset links is over; returns how many. Rows taken with SKIP
 * LOCKED, so processes sweeping at once never wait on one another.
 */
export async function sweepDeadLinks(db: Db, limit = 1_000): Promise<number> {
  const dead = db
    .select({ tokenHash: accountTokens.tokenHash })
    .from(accountTokens)
    .where(
      and(
        sql`${accountTokens.createdAt} < now() - interval '1 hour'`,
        sql`(${accountTokens.usedAt} is not null or ${accountTokens.expiresAt} < now())`,
      ),
    )
    .limit(limit)
    .for('update', { skipLocked: true });
  const deleted = await db
    .delete(accountTokens)
    .where(inArray(accountTokens.tokenHash, dead))
    .returning({ tokenHash: accountTokens.tokenHash });
  return deleted.length;
}
