import { accountIdByName } from '../queries/accounts.ts';
import { registerAccount } from '../commands/register-account.ts';
import type { Db } from '../db/client.ts';

export const DEMO_PASSWORD = 'porpoise-demo';
export const DEMO_USERNAMES = ['alice', 'bob', 'carol', 'dave', 'erin'] as const;

/** One of the demo accounts. */
export type DemoAuthor = (typeof DEMO_USERNAMES)[number];

/** Creates the demo accounts that do not exist yet; running it twice changes nothing. */
export async function seedDemoAccounts(
  db: Db,
): Promise<Array<{ username: string; password: string; created: boolean }>> {
  const result = [];
  for (const username of DEMO_USERNAMES) {
    const existing = (await accountIdByName(db, username)) !== null;
    if (!existing)
      await registerAccount(db, { username, email: `${username}@porpoise.example`, password: DEMO_PASSWORD });
    result.push({ username, password: DEMO_PASSWORD, created: !existing });
  }
  return result;
}
