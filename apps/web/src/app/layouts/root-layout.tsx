import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration, useLoaderData } from 'react-router';
import type { Account } from '@porpoise/core';
import { getCurrentAccount } from '@/features/auth/api/me';
import { AccountProvider } from '@/features/auth/hooks/use-account';
import { useBodyTheme } from '@/hooks/use-body-theme';
import { useFocusOnNavigation } from '@/hooks/use-focus-on-navigation';
import { useKeyboardShortcuts } from '@/hooks/use-keyboard-shortcuts';
import { useRevealFocus } from '@/hooks/use-reveal-focus';
import { MAIN_CONTENT_ID } from './main-content';

/**
 * The account, if any, for every screen: open screens adapt to it (theme, a link to
 * the questions). They must keep working when the API is down, so a failure here
 * counts as signed out (undefined: not known, so the look remembered last stays); the
 * signed-in layout's own loader reports real errors.
 */
export async function rootLoader(): Promise<Account | null | undefined> {
  try {
    return await getCurrentAccount();
  } catch {
    return undefined;
  }
}

// The shortcuts' list loads when first opened, not with the first page.
const ShortcutsDialog = lazy(() => import('@/components/shortcuts-dialog'));

export function RootLayout() {
  const account = useLoaderData<typeof rootLoader>();
  useBodyTheme(account);
  useFocusOnNavigation(MAIN_CONTENT_ID);
  useRevealFocus();
  const shortcuts = useKeyboardShortcuts(account?.accessibilitySettings.keyboardShortcuts ?? true);
  return (
    <AccountProvider account={account ?? null}>
      <ScrollRestoration />
      <Outlet />
      {shortcuts.listOpen ? (
        <Suspense fallback={null}>
          <ShortcutsDialog onClose={shortcuts.closeList} />
        </Suspense>
      ) : null}
    </AccountProvider>
  );
}

/** Shown while the first loaders run, before any screen can be drawn. */
export function AppLoading() {
  return (
    <p className="app-loading" role="status">
      Loading…
    </p>
  );
}
