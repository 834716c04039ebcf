import type { ProfileDetail } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/**
 * A user's profile: their bio ('' when they never wrote one), when they joined, their shown
 * posts' numbers and the caller's thread with them. Rejects with 404 for an unknown user.
 */
export function getBio(username: string, signal?: AbortSignal): Promise<ProfileDetail> {
  return callApi('GET /profile/getBio', { query: { username }, signal });
}
