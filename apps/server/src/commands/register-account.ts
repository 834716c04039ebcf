import { MESSAGES } from '@porpoise/core';
import { type RegisterInput } from '@porpoise/core/schemas';
import type { Db } from '../db/client.ts';
import { accounts, profiles } from '../db/schema.ts';
import { uniqueViolation } from '../lib/db-errors.ts';
import { conflict } from '../lib/http-error.ts';
import { hashPassword, type ScryptParams } from '../lib/password.ts';
import type { AccountRow } from '../lib/sessions.ts';
import { accountsHolding } from '../queries/accounts.ts';

async function assertAvailable(db: Db, username: string, email: string): Promise<void> {
  const taken = await accountsHolding(db, username, email);
  if (taken.some((row) => row.username.toLowerCase() === username.toLowerCase()))
    throw conflict(MESSAGES.usernameInUse);
  if (taken.length > 0) throw conflict(MESSAGES.emailInUse);
}

/** Creates an account and its empty profile in one transaction. */
export async function registerAccount(db: Db, input: RegisterInput, hashing?: ScryptParams): Promise<AccountRow> {
  await assertAvailable(db, input.username, input.email);
  const passwordHash = await hashPassword(input.password, hashing);
  try {
    return await db.transaction(async (tx) => {
      const [account] = await tx
        .insert(accounts)
        .values({ username: input.username, email: input.email, passwordHash })
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
