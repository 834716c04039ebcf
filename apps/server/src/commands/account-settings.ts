import type { AccessibilitySettingsInput } from '@porpoise/core/schemas';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accounts, profiles, type AccountRow } from '../db/schema.ts';

/**
 * No event: the settings are the account's own, read fresh with it (nothing caches or shows
 * them). The spec's two are always given; reading comfort's (docs/product.md section 12) each
 * keep their stored value when left out, so a client that knows only the spec's keeps working.
 */
export async function saveAccessibilitySettings(
  db: Db,
  accountId: number,
  settings: AccessibilitySettingsInput,
): Promise<AccountRow> {
  const { lowVision, colorBlindness, colorScheme, readingFont, reducedMotion, liveAnnouncements, keyboardShortcuts } =
    settings;
  const [row] = await db
    .update(accounts)
    .set({
      lowVision,
      colorBlindness,
      colorScheme,
      readingFont,
      reducedMotion,
      liveAnnouncements,
      keyboardShortcuts,
      accessibilitySavedAt: new Date(),
    })
    .where(eq(accounts.id, accountId))
    .returning();
  if (!row) throw new Error('account vanished');
  return row;
}

/** No event: a profile is read fresh each time (neither cached nor live). */
export async function updateBio(db: Db, accountId: number, bio: string): Promise<string> {
  const [row] = await db
    .insert(profiles)
    .values({ accountId, bio })
    .onConflictDoUpdate({ target: profiles.accountId, set: { bio } })
    .returning({ bio: profiles.bio });
  return row?.bio ?? bio;
}
