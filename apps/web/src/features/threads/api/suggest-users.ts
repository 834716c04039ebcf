import type { UserSuggestion } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** Other members whose username starts with `prefix` (at most ten). */
export function suggestUsers(prefix: string, signal?: AbortSignal): Promise<UserSuggestion[]> {
  return callApi('GET /profile/suggest', { query: { prefix }, signal });
}
