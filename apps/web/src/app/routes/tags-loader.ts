// In the first download, apart from the page's own module (router.tsx): the tags are asked for
// while that module is still on its way (issue 39).
import type { LoaderFunctionArgs } from 'react-router';
import { MESSAGES, type TagWithCount } from '@porpoise/core';
import { userFacingError } from '@/lib/api-client';
import { getTagsWithCounts } from '@/features/questions/api/get-tags';

export interface TagsData {
  tags: TagWithCount[];
  error: string | null;
}

export async function tagsLoader({ request }: LoaderFunctionArgs): Promise<TagsData> {
  try {
    return { tags: await getTagsWithCounts(request.signal), error: null };
  } catch (error) {
    return { tags: [], error: userFacingError(error, MESSAGES.unavailable) };
  }
}
