// Bundles the server and @porpoise/core into dist/server.js, the embedded database's thread
// into dist/pglite-worker.js and a backup's export thread into dist/backup-worker.js; npm
// packages stay external. Then makes dist/pgdata-template, the new embedded cluster a server
// copies into an empty data directory (make-cluster-template.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: ['src/server.ts', 'src/db/pglite-worker.ts', 'src/backup/backup-worker.ts'],
  outdir: 'dist',
  entryNames: '[name]',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external: Object.keys(pkg.dependencies ?? {}).filter((name) => name !== '@porpoise/core'),
  logLevel: 'warning',
});

// Made again only when missing or made by another PGlite (initdb takes a few seconds).
const require = createRequire(import.meta.url);
/** The installed PGlite's version (its package.json is not among its exports: found from its entry). */
function pgliteVersion() {
  for (
    let dir = path.dirname(require.resolve('@electric-sql/pglite'));
    dir !== path.dirname(dir);
    dir = path.dirname(dir)
  ) {
    const file = path.join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    if (pkg.name === '@electric-sql/pglite') return pkg.version;
  }
  throw new Error('the installed @electric-sql/pglite has no package.json');
}
const pglite = pgliteVersion();
const stamp = new URL('./dist/pgdata-template.pglite-version', import.meta.url);
const template = new URL('./dist/pgdata-template/PG_VERSION', import.meta.url);
if (!existsSync(template) || !existsSync(stamp) || readFileSync(stamp, 'utf8') !== pglite) {
  execFileSync(process.execPath, [fileURLToPath(new URL('./make-cluster-template.mjs', import.meta.url))], {
    stdio: 'inherit',
  });
  writeFileSync(stamp, pglite);
}
