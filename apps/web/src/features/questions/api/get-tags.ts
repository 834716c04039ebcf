import type { TagWithCount } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** Every tag with the number of questions carrying it. */
export function getTagsWithCounts(signal?: AbortSignal): Promise<TagWithCount[]> {
  return callApi('GET /tag/getTagsWithQuestionNumber', { signal });
}
