import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accounts } from '../db/schema.ts';
import { hashPassword, type ScryptParams } from '../auth/password.ts';

/**
 * Rewrites an account's password hash with `params` (at a sign-in whose password was
 * right, the only time we hold it), unless the hash changed meanwhile; returns the hash
 * now stored when it wrote it, else null. No event: the password is the same, so no
 * session ends.
 */
export async function upgradePasswordHash(
  db: Db,
  account: { id: number; passwordHash: string },
  password: string,
  params: ScryptParams,
): Promise<string | null> {
  const upgraded = await hashPassword(password, params);
  const written = await db
    .update(accounts)
    .set({ passwordHash: upgraded })
    .where(and(eq(accounts.id, account.id), eq(accounts.passwordHash, account.passwordHash)))
    .returning({ id: accounts.id });
  return written.length > 0 ? upgraded : null;
}
