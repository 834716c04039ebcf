import { MESSAGES } from '@porpoise/core';
import { type RegisterInput } from '@porpoise/core/schemas';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accounts, profiles, type AccountRow } from '../db/schema.ts';
import { uniqueViolation } from '../db/errors.ts';
import { conflict } from '../http/http-error.ts';
import { hashPassword, type ScryptParams } from '../auth/password.ts';
import { accountsHolding } from '../queries/accounts.ts';

async function assertAvailable(db: Db, username: string, email: string): Promise<void> {
  const taken = await accountsHolding(db, username, email);
  if (taken.some((row) => row.username.toLowerCase() === username.toLowerCase()))
    throw conflict(MESSAGES.usernameInUse);
  if (taken.length > 0) throw conflict(MESSAGES.emailInUse);
}

/** Any number: the lock that makes one installation's first account its only first account. */
const FIRST_ACCOUNT_LOCK = 0x706f7270;

/**
 * Creates an account and its empty profile in one transaction. The first account of an
 * empty installation is its admin (docs/product.md section 10); registrations take a lock
 * for the moment of the insert, so two at once cannot both be first. No event: no cached
 * read or open page holds an account that did not exist.
 */
export async function registerAccount(db: Db, input: RegisterInput, hashing?: ScryptParams): Promise<AccountRow> {
  await assertAvailable(db, input.username, input.email);
  const passwordHash = await hashPassword(input.password, hashing);
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK})`);
      const role = sql`case when exists (select 1 from accounts) then 'member' else 'admin' end`;
      const [account] = await tx
        .insert(accounts)
        .values({ username: input.username, email: input.email, passwordHash, role })
        .returning();
      if (!account) throw new Error('insert returned no account');
      await tx.insert(profiles).values({ accountId: account.id });
      return account;
    });
  } catch (error) {
    // Two registrations racing for the same name: the unique index decides.
    const constraint = uniqueViolation(error);
    if (constraint === 'accounts_username_lower_key') throw conflict(MESSAGES.usernameInUse);
    if (constraint === 'accounts_email_lower_key') throw conflict(MESSAGES.emailInUse);
    throw error;
  }
}
