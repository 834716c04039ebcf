// Bundles the server and @porpoise/core into dist/server.js, the embedded database's thread
// into dist/pglite-worker.js and a backup's export thread into dist/backup-worker.js; npm
// packages stay external.
import { readFileSync } from 'node:fs';
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
