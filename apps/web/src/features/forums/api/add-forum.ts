import type { Forum } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** Creates a forum; the server also creates its discussion thread. */
export function addForum(name: string, description: string): Promise<Forum> {
  return callApi('POST /forum/addForum', {
    body: { name: name.trim(), description: description.trim(), thread: '' },
  });
}
