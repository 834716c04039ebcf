import type { Forum } from '@porpoise/core';
import { apiRequest } from '@/lib/api-client';

/** Creates a forum; the server also creates its discussion thread. */
export function addForum(name: string, description: string): Promise<Forum> {
  return apiRequest<Forum>('/forum/addForum', {
    method: 'POST',
    body: { name: name.trim(), description: description.trim(), thread: '' },
  });
}
