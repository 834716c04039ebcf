// `npm run backup -- [--out FILE]` and `npm run restore -- FILE [--force]` (docs/product.md
// section 15), on the configured database (DATABASE_URL, else the embedded one in DATA_DIR).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { backupFileName } from './backup/export.ts';
import { backupConfigured, restoreConfigured } from './backup/run.ts';
import { loadConfig } from './config.ts';

const USAGE = 'Usage: npm run backup -- [--out FILE]\n       npm run restore -- FILE [--force]';

const [command, ...rest] = process.argv.slice(2);
const config = loadConfig();
const pgBinDir = process.env.PG_BIN_DIR || undefined;

function usage(): never {
  console.error(USAGE);
  process.exit(2);
}

try {
  if (command === 'backup') {
    const { values, positionals } = parseArgs({ args: rest, options: { out: { type: 'string' } }, strict: true });
    if (positionals.length > 0) usage();
    const out = path.resolve(values.out ?? backupFileName(new Date()));
    const header = await backupConfigured(config, out, pgBinDir);
    const rows = header.tables.reduce((sum, table) => sum + table.rows, 0);
    console.log(
      `Backed up ${rows} rows and ${header.images.count} images (${header.source.database}, migration ${header.migration.tag}) to ${out}`,
    );
    if (header.images.missing.length > 0)
      console.warn(`${header.images.missing.length} images named by posts were missing from ${config.uploadsDir}.`);
  } else if (command === 'restore') {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { force: { type: 'boolean', default: false } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) usage();
    const file = path.resolve(positionals[0]!);
    const { header, migratedTo } = await restoreConfigured(config, file, { force: values.force, pgBinDir });
    const rows = header.tables.reduce((sum, table) => sum + table.rows, 0);
    console.log(
      `Restored ${rows} rows and ${header.images.count} images into ${config.databaseUrl ? 'PostgreSQL' : `the embedded database in ${config.dataDir}`}` +
        ` (taken ${header.snapshotAt} at migration ${header.migration.tag}, now at ${migratedTo}).`,
    );
    console.log('Every session was ended: members sign in again with their passwords.');
  } else usage();
} catch (error) {
  // Said to the operator in a line: a refusal, a file that is not a whole backup, a server
  // owning the data directory, pg_dump's or psql's own words.
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
