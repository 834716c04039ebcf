import { callApi } from '@/lib/api-client';

/** A new password, given the current one; the member's other sessions end, and this one gets a new cookie. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  await callApi('POST /account/changePassword', { body: { currentPassword, newPassword } });
}

/** Mails a confirmation link to a new address; the email changes when it is confirmed. */
export async function changeEmail(newEmail: string, currentPassword: string): Promise<void> {
  await callApi('POST /account/changeEmail', { body: { newEmail, currentPassword } });
}
