import type { Account, ColorBlindness } from '@porpoise/core';
import type { AccountRow } from '../lib/sessions.ts';

/** The account as its owner sees it: never the password hash or internal id. */
export function presentAccount(row: AccountRow): Account {
  return {
    username: row.username,
    email: row.email,
    createdAt: row.createdAt.toISOString(),
    accessibilitySettings: {
      lowVision: row.lowVision,
      colorBlindness: row.colorBlindness as ColorBlindness,
    },
    accessibilitySettingsSaved: row.accessibilitySavedAt !== null,
  };
}
