import { MESSAGES, type Account } from '@porpoise/core';
import { ApiError, callApi } from '@/lib/api-client';

let pending: Promise<Account | null> | null = null;
/** The last answer, kept for the loaders of screens under the signed-in layout (undefined: not asked yet). */
let known: Account | null | undefined;

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
    .then((account) => {
      known = account;
      return account;
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

/**
 * The account a screen under the signed-in layout belongs to, for its loader: the layout's
 * own question when it is in flight (the first load), else its last answer (the layout
 * asks again only when someone signs in or out). Rejects when nobody is signed in; the
 * layout's loader sends the visitor away then.
 */
export async function signedInAccount(): Promise<Account> {
  const account = await (pending ?? known ?? getCurrentAccount());
  if (account === null) throw new Error(MESSAGES.accountContextNull);
  return account;
}
