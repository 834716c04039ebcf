import type { Tag } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** The spec's stand-in for a tag that could not be fetched (section 8). */
export const ERROR_TAG: Tag = { name: 'Error', description: 'Error' };

/** A tag's name and description; on failure the spec's tag named and described 'Error'. */
export async function getTag(name: string, signal?: AbortSignal): Promise<Tag> {
  try {
    return await callApi('GET /tag/getTagByName/:name', { params: { name }, signal, expectedStatuses: [404] });
  } catch {
    return ERROR_TAG;
  }
}
