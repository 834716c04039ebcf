import type { Role, UserSummary } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** Accounts whose name contains `search` (every account when empty), by name; admins only. */
export function listUsers(search: string, signal?: AbortSignal): Promise<UserSummary[]> {
  return callApi('GET /admin/users', { query: { search }, signal });
}

/** Sets an account's role; refused for the last admin ('The last admin cannot be removed'). */
export function setRole(username: string, role: Role): Promise<UserSummary> {
  return callApi('PUT /admin/users/:username/role', { params: { username }, body: { role } });
}
