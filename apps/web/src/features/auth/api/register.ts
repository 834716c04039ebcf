import type { Account } from '@porpoise/core';
import { apiRequest } from '@/lib/api-client';

export interface RegisterInput {
  username: string;
  email: string;
  password: string;
}

/** Creates the account and signs it in: the server answers with the account and sets the session cookie. */
export function register(input: RegisterInput): Promise<Account> {
  return apiRequest<Account>('/account/addAccount', {
    method: 'POST',
    // The spec's registration payload carries createdAt; the server keeps its own clock.
    body: { ...input, createdAt: new Date().toISOString() },
  });
}
