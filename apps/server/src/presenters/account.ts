import { PRIVILEGES } from '@porpoise/core';
import type {
  Account,
  Privilege,
  ColorBlindness,
  ColorScheme,
  ReadingFont,
  DigestFrequency,
  ProfileDetail,
  ReputationEvent,
  ReputationReason,
  Role,
  UserSummary,
} from '@porpoise/core';
import type { AccountRow } from '../db/schema.ts';
import type { ProfileRow } from '../queries/profiles.ts';
import { hasPrivilege, type Actor, type Standing } from '../policies/authorize.ts';
import { reputationOf, type ReputationEventRow } from '../queries/reputation.ts';

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
      colorScheme: row.colorScheme as ColorScheme,
      readingFont: row.readingFont as ReadingFont,
      reducedMotion: row.reducedMotion,
      liveAnnouncements: row.liveAnnouncements,
      keyboardShortcuts: row.keyboardShortcuts,
    },
    accessibilitySettingsSaved: row.accessibilitySavedAt !== null,
    followedTags,
    digest: row.digest as DigestFrequency,
    reputation: reputationOf(row.reputationSum),
  };
}

/** A reputation history's row as the API lists it. */
export const presentReputationEvent = (row: ReputationEventRow): ReputationEvent => ({
  delta: row.delta,
  reason: row.reason as ReputationReason,
  qid: row.questionId === null ? null : String(row.questionId),
  aid: row.answerId === null ? null : String(row.answerId),
  createdAt: new Date(row.createdAt).toISOString(),
});

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

/** The privileges as a member sees them: each with its threshold and whether they have it. */
export const presentPrivileges = (actor: Actor, standing: Standing): Privilege[] =>
  PRIVILEGES.map(({ key, name }) => ({
    key,
    name,
    threshold: standing.thresholds[key],
    has: hasPrivilege(actor, key, standing),
  }));
