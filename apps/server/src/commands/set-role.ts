import { MESSAGES, type Outcome, type Role } from '@porpoise/core';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accounts } from '../db/schema.ts';
import { badRequest, notFound } from '../http/http-error.ts';
import type { Actor } from '../policies/actor.ts';
import { recordModeration } from './moderation-log.ts';

export interface RoleRow {
  id: number;
  username: string;
  role: string;
  createdAt: Date;
}

/**
 * Sets an account's role (docs/product.md section 10). The admins' rows are locked first, so
 * two admins demoting each other at once cannot leave none: the last admin keeps the role.
 */
/** `actor`: the admin, whose change is logged; null from the server's command line. */
export async function setRole(db: Db, actor: Actor | null, username: string, role: Role): Promise<Outcome<RoleRow>> {
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
    if (actor !== null && target.role !== role) {
      const reason = `${target.role} to ${role}`;
      await recordModeration(tx, actor, {
        action: 'role',
        targetType: 'account',
        targetId: row.id,
        subjectId: row.id,
        reason,
      });
    }
    return { result: row, events: target.role === role ? [] : [{ type: 'roleChanged', accountId: row.id, role }] };
  });
}
