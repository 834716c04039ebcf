import type { UserReputation } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/**
 * A member's reputation and its newest events, newest first (docs/product.md section 13).
 * Rejects with 404 'User not found' for an unknown user.
 */
export function getUserReputation(username: string, signal?: AbortSignal): Promise<UserReputation> {
  return callApi('GET /profile/reputation/:username', { params: { username }, signal });
}
