import { Outlet, redirect, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { Account } from '@porpoise/core';
import { getCurrentAccount } from '@/features/auth/api/me';
import { AccountProvider, useOptionalAccount } from '@/features/auth/hooks/use-account';
import { useStickyTop } from '@/hooks/use-sticky-top';
import { paths } from '@/config/paths';
import { AppHeader } from './app-header';
import { ContentLayout } from './content-layout';
import { MainContent, MAIN_CONTENT_ID } from './main-content';
import { MainNav } from './main-nav';

/**
 * Guards every signed-in screen: without a session the visitor goes to / (spec section 2),
 * which keeps the page they wanted so that signing in can return there (docs/product.md
 * section 2). /home, where signing in goes anyway, is left out of the address.
 */
export async function signedInLoader({ request }: LoaderFunctionArgs) {
  const account = await getCurrentAccount();
  if (account !== null) return account;
  const { pathname, search } = new URL(request.url);
  const wanted = `${pathname}${search}`;
  return redirect(paths.landing(wanted === paths.home() ? undefined : wanted));
}

/** What stays at the top of the window while the page scrolls: the header, and on phones the menu's tab bar. */
const STICKY_BARS = ['.app-header', '.main-nav'] as const;

/** Header, left menu and content area (spec section 2). */
export function SignedInLayout() {
  const account = useLoaderData<typeof signedInLoader>();
  return <SignedInShell account={account} />;
}

/**
 * An open screen that keeps the header and menu for a signed-in member (docs/product.md
 * section 5: /porpchat); signed-out visitors get the content-only layout of the spec.
 */
export function OpenOrSignedInLayout() {
  const account = useOptionalAccount();
  return account === null ? <ContentLayout /> : <SignedInShell account={account} />;
}

function SignedInShell({ account }: { account: Account }) {
  useStickyTop(STICKY_BARS);
  return (
    <AccountProvider account={account}>
      <a className="skip-link" href={`#${MAIN_CONTENT_ID}`}>
        Skip to main content
      </a>
      <AppHeader username={account.username} />
      <div className="shell">
        <MainNav />
        <MainContent className="content">
          <Outlet />
        </MainContent>
      </div>
    </AccountProvider>
  );
}
