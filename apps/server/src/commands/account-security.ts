/**
 * Password resets, password changes and email changes (docs/product.md section 10). The links
 * these mail hold a random token; only its SHA-256 is stored, it works once, for an hour
 * (a link moving the account back to its old address: a week).
 * Each write returns the events that send its mail and end its sessions (events/processor.ts).
 */
import { MESSAGES, type DomainEvent, type Outcome } from '@porpoise/core';
import { randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../db/client.ts';
import { accounts, accountTokens, sessions } from '../db/schema.ts';
import { uniqueViolation } from '../db/errors.ts';
import { badRequest, conflict } from '../http/http-error.ts';
import { hashToken } from '../auth/sessions.ts';
import { notSuspended } from '../queries/accounts.ts';

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

/** A new link of the account; its token is for the mail only (the table keeps its hash). */
async function addLink(db: Db, accountId: number, purpose: Purpose, ttlMs: number, newEmail: string | null = null) {
  const token = newToken();
  await db.insert(accountTokens).values({
    tokenHash: hashToken(token),
    accountId,
    purpose,
    newEmail,
    expiresAt: new Date(Date.now() + ttlMs),
  });
  return token;
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
 * an account that got 3 links this hour gets no more (and the answer says nothing). A
 * suspended account gets none either, as an unknown email (docs/product.md section 10,
 * Account settings): sign-in refuses it, so a link must not open it.
 */
export async function requestPasswordReset(db: Db, email: string): Promise<Outcome<null>> {
  const token = newToken();
  const [account] = await queryRows<{ id: number; username: string; email: string }>(
    db,
    sql`with account as (
          select id, username, email from accounts
          where lower(email) = lower(${email}) and ${notSuspended()} limit 1),
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
  // No such email, or its account's hourly links used up: no link, no mail, the same answer.
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
 * Every link of the account not used yet, used up, but the links moving it back to an old
 * address: a password set or changed, or an email moved, leaves no older reset or
 * confirmation link able to take the account. A revert link is used up only by a revert
 * (docs/product.md section 10, Account settings): whoever took the account with its password
 * could otherwise cancel the link meant to stop them (see `afterRevert`).
 */
export async function useUpLinks(tx: Tx, accountId: number): Promise<void> {
  await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.accountId, accountId),
        isNull(accountTokens.usedAt),
        ne(accountTokens.purpose, 'revert' satisfies Purpose),
      ),
    );
}

/**
 * Sets the password a reset link was for: the link is used up (with every other link of
 * the account but its revert links) and every session of the account ends. Two uses of one link at once:
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

/**
 * Ends one session: a sign-out, or the session a sign-in or registration arrived with (so a
 * planted cookie never survives it). Every process forgets it and its sockets close.
 */
export async function dropSession(db: Db, session: { accountId: number; tokenHash: string }): Promise<Outcome<null>> {
  await db.delete(sessions).where(eq(sessions.tokenHash, session.tokenHash));
  // Named even when already gone (swept meanwhile): another process may still remember it.
  const ended: DomainEvent = { type: 'sessionsEnded', accountId: session.accountId, tokenHashes: [session.tokenHash] };
  return { result: null, events: [ended] };
}

/**
 * A new password for a signed-in member (its current one already checked): every session
 * of the account ends, the one that made the change too (docs/product.md section 10: a copied
 * cookie must not outlive the password). The route gives the member a new session.
 */
export async function changePassword(db: Db, accountId: number, passwordHash: string): Promise<Outcome<null>> {
  return db.transaction(async (tx) => {
    await tx.update(accounts).set({ passwordHash }).where(eq(accounts.id, accountId));
    await useUpLinks(tx, accountId);
    return { result: null, events: [await endSessions(tx, accountId)] };
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
  const token = await addLink(db, account.id, 'email', LINK_TTL_MS, newEmail);
  return {
    result: null,
    events: [{ type: 'emailChangeRequested', accountId: account.id, username: account.username, newEmail, token }],
  };
}

/**
 * What a revert link does once the email is back (docs/product.md section 10, Account
 * settings): whoever moved the email may hold the password and sessions, so every session
 * and socket of the account ends, and the restored address is mailed a reset link.
 * Using a revert link uses up every other link of the account except the revert links
 * made before it: of a chain A -> B -> C, B's link used first leaves A's working, and once
 * A's is used, B's (made after it) no longer works, so whoever holds B cannot move back.
 */
async function afterRevert(
  tx: Tx,
  account: { id: number; username: string; email: string },
  revertHash: string,
): Promise<DomainEvent[]> {
  const made = sql`(select ${accountTokens.createdAt} from ${accountTokens} where ${accountTokens.tokenHash} = ${revertHash})`;
  await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.accountId, account.id),
        isNull(accountTokens.usedAt),
        or(ne(accountTokens.purpose, 'revert' satisfies Purpose), sql`${accountTokens.createdAt} >= ${made}`),
      ),
    );
  const ended = await endSessions(tx, account.id);
  const token = await addLink(tx, account.id, 'password', LINK_TTL_MS);
  return [
    ended,
    { type: 'passwordResetRequested', accountId: account.id, username: account.username, email: account.email, token },
  ];
}

/**
 * Moves the account to the address its link confirms; the old address is told, with a
 * link back. A revert link moves it back (`afterRevert`).
 */
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
      const changed = {
        type: 'emailChanged',
        accountId: claimed.accountId,
        username: before.username,
        oldEmail: before.email,
        newEmail: claimed.newEmail,
      } as const;
      if (claimed.purpose === 'revert') {
        const account = { id: claimed.accountId, username: before.username, email: claimed.newEmail };
        const after = await afterRevert(tx, account, hashToken(token));
        // Moving back gives no link to the address left (no ping-pong).
        return { result: null, events: [{ ...changed, revertToken: null }, ...after] };
      }
      await useUpLinks(tx, claimed.accountId);
      // The old address is told, with a link that moves the account back to it: were the
      // change not its owner's, a reset from the new address would reach the wrong person.
      const revertToken = await addLink(tx, claimed.accountId, 'revert', REVERT_TTL_MS, before.email);
      return { result: null, events: [{ ...changed, revertToken }] };
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
