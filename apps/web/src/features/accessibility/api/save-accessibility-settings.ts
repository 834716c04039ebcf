import type { AccessibilitySettings, Account } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** Saves the preferences; the spec sends the whole account with them (section 7). */
export function saveAccessibilitySettings(account: Account, settings: AccessibilitySettings): Promise<Account> {
  return callApi('POST /account/saveAccessibilitySettings', {
    body: {
      username: account.username,
      email: account.email,
      createdAt: account.createdAt,
      accessibilitySettings: settings,
    },
  });
}
