import { createContext, use, type ReactNode } from 'react';
import { MESSAGES, type Account } from '@porpoise/core';

const AccountContext = createContext<Account | null>(null);

/** Makes the current account (null when signed out) available to the screens below. */
export function AccountProvider({ account, children }: { account: Account | null; children: ReactNode }) {
  return <AccountContext value={account}>{children}</AccountContext>;
}

/** The signed-in account, or null on open screens when nobody is signed in. */
export function useOptionalAccount(): Account | null {
  return use(AccountContext);
}

/** The signed-in account; only for screens behind the signed-in layout, which guarantees one. */
export function useAccount(): Account {
  const account = use(AccountContext);
  if (account === null) throw new Error(MESSAGES.accountContextNull);
  return account;
}
