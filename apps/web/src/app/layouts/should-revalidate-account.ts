import type { ShouldRevalidateFunctionArgs } from 'react-router';

/**
 * The account changes only when someone signs in or out (which revalidates explicitly,
 * on the same URL) or after a form action; a new search or filter in the URL leaves it
 * as it is, so typing in the question search does not ask the server who is signed in.
 */
export function shouldRevalidateAccount({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs): boolean {
  if (formMethod !== undefined || currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  return false;
}
