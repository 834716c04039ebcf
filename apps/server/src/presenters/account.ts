import type { Account, ColorBlindness, DigestFrequency, ProfileDetail, Role, UserSummary } from '@porpoise/core';
import type { AccountRow } from '../db/schema.ts';
import type { ProfileRow } from '../queries/profiles.ts';

/** The account as its owner sees it, with the names of the tags it follows: never the password hash or internal id. */
export function presentAccount(row: AccountRow, followedTags: string[]): Account {
  return {
    username: row.username,
    email: row.email,
    role: row.role as Role,
    createdAt: row.createdAt.toISOString(),
    accessibilitySettings: {
      lowVision: row.lowVision,
      colorBlindness: row.colorBlindness as ColorBlindness,
    },
    accessibilitySettingsSaved: row.accessibilitySavedAt !== null,
    followedTags,
    digest: row.digest as DigestFrequency,
  };
}

/** An account in the admin's user list: its name, role and age, nothing private. */
export const presentUserSummary = (row: { username: string; role: string; createdAt: Date }): UserSummary => ({
  username: row.username,
  role: row.role as Role,
  createdAt: row.createdAt.toISOString(),
});

/** A member's profile as any member sees it: never their email or internal id. */
export const presentProfile = (row: ProfileRow): ProfileDetail => ({
  username: row.username,
  bio: row.bio,
  createdAt: row.createdAt.toISOString(),
  questionCount: row.questionCount,
  answerCount: row.answerCount,
  threadId: row.threadId === null ? null : String(row.threadId),
});
