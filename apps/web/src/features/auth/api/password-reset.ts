import { callApi } from '@/lib/api-client';

/** Asks for a reset link; the server answers the same whether or not an account uses the email. */
export async function requestPasswordReset(email: string): Promise<void> {
  await callApi('POST /account/requestPasswordReset', { body: { email } });
}

/** Sets a new password with a reset link's token; every session of the account ends. */
export async function resetPassword(token: string, password: string): Promise<void> {
  await callApi('POST /account/resetPassword', { body: { token, password } });
}

/** Confirms a new email address with its link's token. */
export async function confirmEmail(token: string): Promise<void> {
  await callApi('POST /account/confirmEmail', { body: { token } });
}
