import type { Privilege, PrivilegeKey } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** The privileges with their current thresholds (docs/product.md section 13). */
export function getPrivilegeThresholds(signal?: AbortSignal): Promise<Privilege[]> {
  return callApi('GET /privileges', { signal });
}

/**
 * Sets privileges' thresholds; admins only. The server checks each (a whole number from 1 to
 * 1,000,000) and answers the privileges as they now stand.
 */
export function setPrivilegeThresholds(thresholds: Partial<Record<PrivilegeKey, number>>): Promise<Privilege[]> {
  return callApi('PUT /admin/privileges', { body: thresholds });
}
