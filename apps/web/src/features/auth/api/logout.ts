import { callApi } from '@/lib/api-client';

/** Ends the session on the server, which also clears the cookie. */
export async function logout(): Promise<void> {
  await callApi('POST /account/logout');
}
