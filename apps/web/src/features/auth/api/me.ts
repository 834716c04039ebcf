import type { Account } from '@porpoise/core';
import { ApiError, callApi } from '@/lib/api-client';

let pending: Promise<Account | null> | null = null;

/**
 * The signed-in account, or null when there is no session (401). Calls made while one
 * is in flight share it: the root and the signed-in loaders both ask at the same time.
 */
export function getCurrentAccount(): Promise<Account | null> {
  pending ??= callApi('GET /account/me', { expectedStatuses: [401] })
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}
