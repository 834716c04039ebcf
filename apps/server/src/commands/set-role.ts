import { MESSAGES, type Outcome, type Role } from '@porpoise/core';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accounts } from '../db/schema.ts';
import { badRequest, notFound } from '../lib/http-error.ts';

export interface RoleRow {
  id: number;
  username: string;
  role: string;
  createdAt: Date;
}

/**
 * Sets an account's role (product.md section 10). The admins' rows are locked first, so
 * two admins demoting each other at once cannot leave none: the last admin keeps the role.
 */
export async function setRole(db: Db, username: string, role: Role): Promise<Outcome<RoleRow>> {
  return db.transaction(async (tx) => {
    const admins = await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.role, 'admin'))
      .orderBy(accounts.id)
      .for('update');
    const [target] = await tx
      .select({ id: accounts.id, role: accounts.role })
      .from(accounts)
      .where(sql`lower(${accounts.username}) = lower(${username})`);
    if (!target) throw notFound(MESSAGES.userNotFound);
    if (target.role === 'admin' && role !== 'admin' && admins.length <= 1) throw badRequest(MESSAGES.lastAdmin);
    const [row] = await tx
      .update(accounts)
      .set({ role })
      .where(eq(accounts.id, target.id))
      .returning({ id: accounts.id, username: accounts.username, role: accounts.role, createdAt: accounts.createdAt });
    if (!row) throw notFound(MESSAGES.userNotFound);
    return { result: row, events: target.role === role ? [] : [{ type: 'roleChanged', accountId: row.id }] };
  });
}
