// Opens the embedded database on the data directory named by its argument, as the server
// does (its own thread, then migrations), and prints this process's RSS right after:
// db/pglite-startup-memory.test.ts needs a process of its own to measure.
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';

const database = await openDatabase({
  kind: 'pglite',
  dataDir: process.argv[2],
  migrationsDir: loadConfig({}).migrationsDir,
});
console.log(JSON.stringify({ rssMb: process.memoryUsage().rss / 2 ** 20 }));
await database.close();
