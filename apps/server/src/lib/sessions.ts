import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accounts, sessions } from '../db/schema.ts';

export const SESSION_COOKIE = 'porpoise_session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
// Sliding expiry is written at most once an hour per session, not on every request.
const SLIDE_AFTER_MS = 60 * 60 * 1000;

export type AccountRow = typeof accounts.$inferSelect;

export interface SessionInfo {
  account: AccountRow;
  tokenHash: string;
}

/** Sessions are looked up by the SHA-256 of the cookie token, so a database leak holds no usable token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export async function createSession(db: Db, accountId: number): Promise<{ token: string; tokenHash: string }> {
  const token = randomBytes(32).toString('base64url');
  const tokenHash = hashToken(token);
  await db.insert(sessions).values({ tokenHash, accountId, expiresAt: new Date(Date.now() + SESSION_TTL_MS) });
  return { token, tokenHash };
}

/** The live session for a cookie token, sliding its expiry forward; null when unknown or expired. */
export async function findSession(db: Db, token: string | undefined): Promise<SessionInfo | null> {
  if (!token || token.length > 100) return null;
  const tokenHash = hashToken(token);
  const [row] = await db
    .select({ account: accounts, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, sql`now()`)))
    .limit(1);
  if (!row) return null;
  if (row.expiresAt.getTime() - Date.now() < SESSION_TTL_MS - SLIDE_AFTER_MS) {
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + SESSION_TTL_MS) })
      .where(eq(sessions.tokenHash, tokenHash));
  }
  return { account: row.account, tokenHash };
}

export async function revokeSession(db: Db, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteExpiredSessions(db: Db): Promise<void> {
  await db.delete(sessions).where(sql`${sessions.expiresAt} <= now()`);
}
