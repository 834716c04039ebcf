// In the first download, apart from the pages' own modules (router.tsx): the profile is asked
// for while those modules are still on their way (issue 39).
import type { LoaderFunctionArgs, ShouldRevalidateFunctionArgs } from 'react-router';
import { signedInAccount } from '@/features/auth/api/me';
import { loadProfile, type ProfileData } from '@/features/profile/api/profile-data';

/**
 * /profile/:username: anyone's (their bio, questions and answers, asked for at once, each shown
 * as it arrives: 'Loading user profile...' until the profile does, spec section 2).
 */
export function userProfileLoader({ params, request }: LoaderFunctionArgs): ProfileData {
  const name = params.username ?? '';
  return loadProfile(
    name === '' ? signedInAccount().then((account) => account.username) : Promise.resolve(name),
    request.signal,
  );
}

/**
 * /profile: one's own. Its card's parts (when they joined, their counts, their reputation) are
 * waited for, so the card is drawn whole instead of growing and pushing the page down (issue 39);
 * the lists below still arrive on their own.
 */
export async function profileLoader(args: LoaderFunctionArgs): Promise<ProfileData> {
  const data = userProfileLoader(args);
  await Promise.allSettled([data.profile, data.reputation]);
  return data;
}

/**
 * Saving a setting here (the email digest) loads the account again; the bio and posts stay as
 * they are, so nothing on the page flickers back to 'Loading' and a bio being edited is kept.
 */
export function profileShouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs): boolean {
  if (formMethod === undefined && currentUrl.href === nextUrl.href) return false;
  return defaultShouldRevalidate;
}
