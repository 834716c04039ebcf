import { Outlet, redirect, useLoaderData } from 'react-router';
import { getCurrentAccount } from '@/features/auth/api/me';
import { AccountProvider } from '@/features/auth/hooks/use-account';
import { paths } from '@/config/paths';
import { AppHeader } from './app-header';
import { MainContent, MAIN_CONTENT_ID } from './main-content';
import { MainNav } from './main-nav';

/** Guards every signed-in screen: without a session the visitor goes to / (spec section 2). */
export async function signedInLoader() {
  const account = await getCurrentAccount();
  if (account === null) return redirect(paths.landing());
  return account;
}

/** Header, left menu and content area (spec section 2). */
export function SignedInLayout() {
  const account = useLoaderData<typeof signedInLoader>();
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
