import type { ProfileDetail, QuestionSummary, UserAnswer } from '@porpoise/core';
import { deferred } from '@/lib/deferred';
import { getBio } from './get-bio';
import { getUserAnswers, getUserQuestions } from './get-user-posts';

/** What a profile screen shows, each part asked for at once and shown as it arrives. */
export interface ProfileData {
  profile: Promise<ProfileDetail>;
  questions: Promise<QuestionSummary[]>;
  answers: Promise<UserAnswer[]>;
}

/** A profile screen's data, for its route loader (the name may still be on its way: one's own). */
export function loadProfile(name: Promise<string>, signal: AbortSignal): ProfileData {
  return {
    profile: deferred(name.then((username) => getBio(username, signal))),
    questions: deferred(name.then((username) => getUserQuestions(username, signal))),
    answers: deferred(name.then((username) => getUserAnswers(username, signal))),
  };
}
