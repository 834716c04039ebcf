// `npm run seed`: fills the configured database (DATA_DIR or DATABASE_URL) with a demo
// community: generated questions in Markdown, then hand-written questions, threads, forums
// and PorpChat history (written once: a second run adds generated questions only).
// `npm run seed -- --questions 100000` makes benchmark-sized data instead.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../db/client.ts';
import { benchSize, DEMO_SIZE, seedCommunity } from './community.ts';
import { DEMO_PASSWORD, seedDemoAccounts } from './demo-accounts.ts';
import { progressPrinter } from './progress.ts';
import { describeDemoContent, seedDemoContent } from './seed-demo-content.ts';
import { diskStorage } from '../uploads/storage.ts';

const { values } = parseArgs({ options: { questions: { type: 'string' } } });
const config = loadConfig();
const database = await openConfiguredDatabase(config);
try {
  const accounts = await seedDemoAccounts(database.db);
  const size = values.questions ? benchSize(Number(values.questions)) : DEMO_SIZE;
  if (!Number.isInteger(size.questions) || size.questions < 1) throw new Error('--questions takes a whole number');
  const started = performance.now();
  await seedCommunity(database.db, size, {
    prefix: values.questions ? 'bench_user_' : 'member',
    password: DEMO_PASSWORD,
    onProgress: progressPrinter(),
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `Seeded ${size.questions} questions, ${size.users} users and ${size.tags} tags in ${seconds.toFixed(1)} s ` +
      `(${Math.round(size.questions / seconds)} questions per second) on ${database.kind}.`,
  );
  if (!values.questions) {
    const storage = await diskStorage(config.uploadsDir);
    console.log(describeDemoContent(await seedDemoContent(database.db, storage)));
  }
  console.log('Demo accounts (username / password):');
  for (const account of accounts) console.log(`  ${account.username} / ${account.password}`);
  console.log(`  and ${values.questions ? 'bench_user_' : 'member'}1..${size.users} / ${DEMO_PASSWORD}`);
} finally {
  await database.close();
}
