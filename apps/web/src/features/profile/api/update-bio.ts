import type { Profile } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** Saves the signed-in user's bio; the reply holds the bio as stored. */
export function updateBio(username: string, bio: string): Promise<Profile> {
  return callApi('PUT /profile/updateBio', { body: { username, bio } });
}
