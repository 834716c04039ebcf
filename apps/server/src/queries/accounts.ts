import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accounts, profiles, type AccountRow } from '../db/schema.ts';

/** Usernames are unique without regard to case (the accounts_username_lower_key index). */
const named = (username: string) => sql`lower(${accounts.username}) = lower(${username})`;

/**
 * Not suspended now (docs/product.md section 10): never suspended, or the suspension has ended.
 * Sign-in's sessions and reset links both ask this.
 */
export const notSuspended = () => sql`coalesce(${accounts.suspendedUntil} <= now(), true)`;

/** The account with this username, in any case; null when there is none. */
export async function findAccountByName(db: Db, username: string): Promise<AccountRow | null> {
  const [account] = await db.select().from(accounts).where(named(username)).limit(1);
  return account ?? null;
}

/** The account's id, by username in any case; null when there is none. */
export async function accountIdByName(db: Db, username: string): Promise<number | null> {
  const [account] = await db.select({ id: accounts.id }).from(accounts).where(named(username)).limit(1);
  return account?.id ?? null;
}

export async function getAccount(db: Db, accountId: number): Promise<AccountRow | null> {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  return account ?? null;
}

/** The accounts holding this username or this email (each in any case): at most two. */
export async function accountsHolding(db: Db, username: string, email: string) {
  return db
    .select({ username: accounts.username, email: accounts.email })
    .from(accounts)
    .where(sql`${named(username)} or lower(${accounts.email}) = lower(${email})`);
}

/** A member's name as stored and their bio ('' when they never wrote one); null for an unknown name. */
export async function getProfile(db: Db, username: string): Promise<{ username: string; bio: string } | null> {
  const [row] = await db
    .select({ username: accounts.username, bio: profiles.bio })
    .from(accounts)
    .leftJoin(profiles, eq(profiles.accountId, accounts.id))
    .where(named(username));
  return row ? { username: row.username, bio: row.bio ?? '' } : null;
}

/** Whether a member's name has this skeleton (PorpChat names: lib skeleton, an indexed column). */
export async function memberWithSkeleton(db: Db, skeleton: string): Promise<boolean> {
  const [owner] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.usernameSkeleton, skeleton))
    .limit(1);
  return owner !== undefined;
}

/** Accounts whose name contains `search` (any case; every account when empty), by name, at most 100. */
export async function searchAccounts(db: Db, search: string) {
  const contains = search === '' ? sql`true` : sql`strpos(lower(${accounts.username}), lower(${search})) > 0`;
  return db
    .select({ username: accounts.username, role: accounts.role, createdAt: accounts.createdAt })
    .from(accounts)
    .where(contains)
    .orderBy(sql`lower(${accounts.username})`)
    .limit(100);
}
