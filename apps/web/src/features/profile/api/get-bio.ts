import type { Profile } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** A user's bio; '' when they never wrote one. Rejects with 404 for an unknown user. */
export function getBio(username: string, signal?: AbortSignal): Promise<Profile> {
  return callApi('GET /profile/getBio', { query: { username }, signal });
}
