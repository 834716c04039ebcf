import type { Account } from '@porpoise/core';
import type { BodyOf } from '@porpoise/core/contract';
import { callApi } from '@/lib/api-client';

export type RegisterInput = Omit<BodyOf<'addAccount'>, 'createdAt'>;

/** Creates the account and signs it in: the server answers with the account and sets the session cookie. */
export function register(input: RegisterInput): Promise<Account> {
  return callApi('POST /account/addAccount', {
    // The spec's registration payload carries createdAt; the server keeps its own clock.
    body: { ...input, createdAt: new Date().toISOString() },
  });
}
