// `npm run admin -- role USERNAME member|moderator|admin`: sets a role from the server's
// machine (docs/product.md section 10), on the configured database (DATA_DIR or DATABASE_URL).
// The embedded database takes one process at a time: stop the server first.
import { ROLES, type Role } from '@porpoise/core';
import { loadConfig } from './config.ts';
import { setRole } from './commands/set-role.ts';
import { openConfiguredDatabase } from './db/client.ts';
import { HttpError } from './http/http-error.ts';

const USAGE = `Usage: npm run admin -- role USERNAME ${ROLES.join('|')}`;
const isRole = (value: string | undefined): value is Role => (ROLES as readonly string[]).includes(value ?? '');

const [command, username, role] = process.argv.slice(2);
if (command !== 'role' || username === undefined || !isRole(role)) {
  console.error(USAGE);
  process.exit(2);
}
const database = await openConfiguredDatabase(loadConfig());
try {
  const { result } = await setRole(database.db, null, username, role);
  console.log(`${result.username} is now ${result.role}.`);
} catch (error) {
  if (!(error instanceof HttpError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await database.close();
}
