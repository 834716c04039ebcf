import type { Account, DigestFrequency } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** How often the member's email digest comes (docs/product.md section 11); resolves with the account. */
export function setDigest(digest: DigestFrequency): Promise<Account> {
  return callApi('PUT /account/digest', { body: { digest } });
}
