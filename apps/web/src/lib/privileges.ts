import type { Privilege } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** Each privilege, its threshold and whether the signed-in member has it (docs/product.md section 13). */
export function getPrivileges(signal?: AbortSignal): Promise<Privilege[]> {
  return callApi('GET /privileges', { signal });
}
