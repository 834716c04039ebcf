import type { ProfileDetail, QuestionSummary, UserAnswer, UserReputation } from '@porpoise/core';
import { deferred } from '@/lib/deferred';
import { getBio } from './get-bio';
import { getUserReputation } from './get-reputation';
import { getUserAnswers, getUserQuestions } from './get-user-posts';

/** What a profile screen shows, each part asked for at once and shown as it arrives. */
export interface ProfileData {
  profile: Promise<ProfileDetail>;
  questions: Promise<QuestionSummary[]>;
  answers: Promise<UserAnswer[]>;
  /** The member's reputation and its history (docs/product.md section 13). */
  reputation: Promise<UserReputation>;
}

/** A profile screen's data, for its route loader (the name may still be on its way: one's own). */
export function loadProfile(name: Promise<string>, signal: AbortSignal): ProfileData {
  return {
    profile: deferred(name.then((username) => getBio(username, signal))),
    questions: deferred(name.then((username) => getUserQuestions(username, signal))),
    answers: deferred(name.then((username) => getUserAnswers(username, signal))),
    reputation: deferred(name.then((username) => getUserReputation(username, signal))),
  };
}
