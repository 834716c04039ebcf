// `npm run seed`: fills the configured database (DATA_DIR or DATABASE_URL) with demo accounts.
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { seedDemoAccounts } from './demo-accounts.ts';

const config = loadConfig();
const database = config.databaseUrl
  ? await openDatabase({ kind: 'postgres', url: config.databaseUrl, migrationsDir: config.migrationsDir })
  : await openDatabase({ kind: 'pglite', dataDir: config.dataDir, migrationsDir: config.migrationsDir });
try {
  const accounts = await seedDemoAccounts(database.db);
  console.log('Demo accounts (username / password):');
  for (const account of accounts)
    console.log(`  ${account.username} / ${account.password}${account.created ? '' : ' (already there)'}`);
} finally {
  await database.close();
}
