import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Role } from '@porpoise/core';
import { SESSION_TTL_MS } from '../config.ts';
import type { Db } from '../db/client.ts';
import { accounts, sessions } from '../db/schema.ts';
import type { Signals } from '../cache/signals.ts';
import { notSuspended } from '../queries/accounts.ts';

export const SESSION_COOKIE = 'porpoise_session';
// Sliding expiry is written at most once an hour per session, not on every request.
const SLIDE_AFTER_MS = 60 * 60 * 1000;
/** Expired sessions deleted per sweep, at most: a sweep is one short statement. */
export const SWEEP_BATCH = 1_000;

/** Who a session belongs to; the account's other fields are read fresh where needed. */
export interface SessionInfo {
  accountId: number;
  username: string;
  role: Role;
  tokenHash: string;
  /** When it ends unless used before (ms since the epoch): it never ends sooner. */
  expiresAt: number;
}

/** Sessions are looked up by the SHA-256 of the cookie token, so a database leak holds no usable token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

// A session checked within this long is taken from memory; sign-out reaches every
// process's memory through signals at once, so this bounds only other removals.
const REMEMBER_MS = 30_000;
const MAX_REMEMBERED = 50_000;
const CHANNEL = 'porpoise_session';
/** The signal to forget every remembered session ('*' is never in a token hash, which is base64url). */
const FORGET_ALL = '*';

interface Remembered {
  session: SessionInfo;
  expiresAt: number;
  until: number;
}

/**
 * Creates and finds sessions (commands end them). Finding is on every API request, so a session
 * seen in the last 30 s is answered from memory (only while signals are heard: a
 * revocation on any process removes it everywhere before sign-out answers).
 */
export class SessionStore {
  /** By cookie token (this process's memory only: hashing it on every request costs). */
  private readonly remembered = new Map<string, Remembered>();

  constructor(
    private readonly db: Db,
    private readonly signals: Signals,
    private readonly ttlMs = SESSION_TTL_MS,
  ) {
    signals.subscribe(CHANNEL, (tokenHash) => {
      if (tokenHash === null || tokenHash === FORGET_ALL) return this.remembered.clear();
      for (const [token, known] of this.remembered) {
        if (known.session.tokenHash === tokenHash) this.remembered.delete(token);
      }
    });
  }

  async create(accountId: number): Promise<{ token: string; tokenHash: string }> {
    const token = randomBytes(32).toString('base64url');
    const tokenHash = hashToken(token);
    await this.db.insert(sessions).values({ tokenHash, accountId, expiresAt: new Date(Date.now() + this.ttlMs) });
    return { token, tokenHash };
  }

  /**
   * A session for a sign-in, made only while the account's password hash is still the one
   * the sign-in verified: a password reset or change that committed while the sign-in was
   * checking the old password leaves it no session. Null when the password changed.
   */
  async createIfPasswordStill(
    accountId: number,
    passwordHash: string,
  ): Promise<{ token: string; tokenHash: string } | null> {
    const token = randomBytes(32).toString('base64url');
    const tokenHash = hashToken(token);
    const created = await this.db
      .insert(sessions)
      .select(
        this.db
          .select({
            tokenHash: sql<string>`${tokenHash}`.as('token_hash'),
            accountId: accounts.id,
            createdAt: sql<Date>`now()`.as('created_at'),
            expiresAt: sql<Date>`${new Date(Date.now() + this.ttlMs)}`.as('expires_at'),
          })
          .from(accounts)
          .where(
            and(
              eq(accounts.id, accountId),
              eq(accounts.passwordHash, passwordHash),
              // Not suspended meanwhile (docs/product.md section 10).
              notSuspended(),
            ),
          )
          // A reset or a suspension writing the row at this moment is waited for, and the
          // row read again: the session is never written beside one that ended them all.
          .for('share'),
      )
      .returning({ tokenHash: sessions.tokenHash });
    return created.length === 0 ? null : { token, tokenHash };
  }

  /** The live session for a cookie token, sliding its expiry forward; null when unknown or expired. */
  async find(token: string | undefined): Promise<SessionInfo | null> {
    if (!token || token.length > 100) return null;
    const now = Date.now();
    const known = this.remembered.get(token);
    if (known && known.until > now && known.expiresAt > now && this.signals.listening) {
      return { ...known.session, expiresAt: known.expiresAt };
    }
    const tokenHash = hashToken(token);

    const [row] = await this.db
      .select({
        accountId: accounts.id,
        username: accounts.username,
        role: accounts.role,
        expiresAt: sessions.expiresAt,
      })
      .from(sessions)
      .innerJoin(accounts, eq(accounts.id, sessions.accountId))
      .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, sql`now()`)))
      .limit(1);
    if (!row) {
      this.remembered.delete(token);
      return null;
    }
    let expiresAt = row.expiresAt.getTime();
    if (expiresAt - now < this.ttlMs - SLIDE_AFTER_MS) {
      expiresAt = now + this.ttlMs;
      await this.db
        .update(sessions)
        .set({ expiresAt: new Date(expiresAt) })
        .where(eq(sessions.tokenHash, tokenHash));
    }
    const session = { accountId: row.accountId, username: row.username, role: row.role as Role, tokenHash, expiresAt };
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
    this.remembered.set(token, { session, expiresAt, until: now + REMEMBER_MS });
    return session;
  }

  /**
   * Of these sessions, the ones still live, with when each ends, read from the database
   * (never from memory: a sign-out on another process may not have been heard yet).
   */
  async liveUntil(tokenHashes: string[]): Promise<Map<string, number>> {
    const live = new Map<string, number>();
    for (let i = 0; i < tokenHashes.length; i += SWEEP_BATCH) {
      const rows = await this.db
        .select({ tokenHash: sessions.tokenHash, expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(
          and(inArray(sessions.tokenHash, tokenHashes.slice(i, i + SWEEP_BATCH)), gt(sessions.expiresAt, sql`now()`)),
        );
      for (const row of rows) live.set(row.tokenHash, row.expiresAt.getTime());
    }
    return live;
  }

  /** Deletes expired sessions, at most `limit`; returns how many it deleted. */
  async sweepExpired(limit = SWEEP_BATCH): Promise<number> {
    // SKIP LOCKED: processes sweeping at once take different rows instead of waiting.
    const expired = this.db
      .select({ tokenHash: sessions.tokenHash })
      .from(sessions)
      .where(lt(sessions.expiresAt, sql`now()`))
      .limit(limit)
      .for('update', { skipLocked: true });
    const deleted = await this.db
      .delete(sessions)
      .where(inArray(sessions.tokenHash, expired))
      .returning({ tokenHash: sessions.tokenHash });
    return deleted.length;
  }

  /**
   * Forgets every remembered session here and on every other process before returning, so
   * that the next request of each reads its account again (a role just changed).
   */
  async forgetRemembered(): Promise<void> {
    await this.signals.publish(CHANNEL, FORGET_ALL);
  }

  /**
   * Forgets sessions already deleted from the database (a sign-out or a password change
   * ended them), here and on every other process before returning.
   */
  async forget(tokenHashes: readonly string[]): Promise<void> {
    if (tokenHashes.length > 20) return this.signals.publish(CHANNEL, FORGET_ALL);
    for (const tokenHash of tokenHashes) await this.signals.publish(CHANNEL, tokenHash);
  }
}
