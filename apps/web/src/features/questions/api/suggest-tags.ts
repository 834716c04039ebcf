import type { TagSuggestion } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** Tags starting with `prefix` that shown questions carry, with their question counts (at most ten). */
export function suggestTags(prefix: string, signal?: AbortSignal): Promise<TagSuggestion[]> {
  return callApi('GET /tag/suggest', { query: { prefix }, signal });
}
