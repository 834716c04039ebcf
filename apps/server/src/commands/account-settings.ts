import type { AccessibilitySettings } from '@porpoise/core';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accounts, profiles } from '../db/schema.ts';
import type { AccountRow } from '../lib/sessions.ts';

export async function saveAccessibilitySettings(
  db: Db,
  accountId: number,
  settings: AccessibilitySettings,
): Promise<AccountRow> {
  const [row] = await db
    .update(accounts)
    .set({ lowVision: settings.lowVision, colorBlindness: settings.colorBlindness, accessibilitySavedAt: new Date() })
    .where(eq(accounts.id, accountId))
    .returning();
  if (!row) throw new Error('account vanished');
  return row;
}

export async function updateBio(db: Db, accountId: number, bio: string): Promise<string> {
  const [row] = await db
    .insert(profiles)
    .values({ accountId, bio })
    .onConflictDoUpdate({ target: profiles.accountId, set: { bio } })
    .returning({ bio: profiles.bio });
  return row?.bio ?? bio;
}
