import type { Account } from '@porpoise/core';
import { apiRequest } from '@/lib/api-client';

export interface LoginInput {
  username: string;
  password: string;
}

/** Signs in; the server answers with the account and sets the session cookie. */
export function login(input: LoginInput): Promise<Account> {
  return apiRequest<Account>('/account/login', { method: 'POST', body: input });
}
