import type { Account } from '@porpoise/core';
import type { BodyOf } from '@porpoise/core/contract';
import { callApi } from '@/lib/api-client';

export type LoginInput = BodyOf<'login'>;

/** Signs in; the server answers with the account and sets the session cookie. */
export function login(input: LoginInput): Promise<Account> {
  return callApi('POST /account/login', { body: input });
}
