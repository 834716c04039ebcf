import type { TagWithCount } from '@porpoise/core';
import { apiRequest } from '@/lib/api-client';

/** Every tag with the number of questions carrying it. */
export function getTagsWithCounts(signal?: AbortSignal): Promise<TagWithCount[]> {
  return apiRequest<TagWithCount[]>('/tag/getTagsWithQuestionNumber', { signal });
}
