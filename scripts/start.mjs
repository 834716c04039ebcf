// `npm start` / `npm run start:cluster`: builds the web app and the server only when their
// sources changed since the last build (a hash of every input file, kept beside the
// server's bundle), then serves. Arguments (--cluster) go to the server; `--build-only`
// stops after the build.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** What a build reads: sources, build configuration and the installed versions. */
const INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'packages/core/package.json',
  'packages/core/src',
  'apps/server/package.json',
  'apps/server/build.mjs',
  'apps/server/make-cluster-template.mjs',
  'apps/server/src',
  'apps/web/package.json',
  'apps/web/index.html',
  'apps/web/public',
  'apps/web/src',
  'apps/web/vite.config.ts',
  'apps/web/vite-precompress.ts',
];
const STAMP = path.join(root, 'apps/server/dist/.build-inputs');

// `npm run build` (also run by npm test, the bench and the drill) forgets the stamp first:
// whatever it builds, from whatever sources, the next start builds again.
if (process.argv[2] === '--forget-build') {
  fs.rmSync(STAMP, { force: true });
  process.exit(0);
}
const OUTPUTS = ['apps/server/dist/server.js', 'apps/web/dist/index.html'];

/** Every input file under `entry`, tests aside (they are not built), in a stable order. */
function files(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs
    .readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((item) => item.isFile() && !/\.test\.tsx?$/.test(item.name))
    .map((item) => path.relative(root, path.join(item.parentPath, item.name)))
    .sort();
}

function inputsHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files)) {
    hash
      .update(file)
      .update('\0')
      .update(fs.readFileSync(path.join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

const wanted = inputsHash();
const built =
  OUTPUTS.every((output) => fs.existsSync(path.join(root, output))) &&
  fs.existsSync(STAMP) &&
  fs.readFileSync(STAMP, 'utf8') === wanted;
if (built) {
  console.log('Sources unchanged since the last build: starting the server without building.');
} else {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // The hash read before the build: an edit made during it makes the next start build again.
  fs.writeFileSync(STAMP, wanted);
}
// `--build-only` (npm test): the build is all that is wanted, not the server.
if (process.argv[2] === '--build-only') process.exit(0);

// V8 lets the old generation grow to up to 4x what survived the last full collection before
// collecting again: under the community-day mix the server's heap reached 230-275 MB, about
// 90 MB of it live (promoted request garbage). 1.5x keeps it near 130 MB, for about 0.1 s
// more of full-collection time in a minute of load (issue 39). bench/server-process.ts
// starts the server with the same flags.
const SERVER_NODE_FLAGS = ['--heap-growing-percent=50'];
const server = spawn(
  process.execPath,
  [...SERVER_NODE_FLAGS, path.join(root, 'apps/server/dist/server.js'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    // glibc's malloc keeps up to 8 arenas a core, and what libvips' threads free while
    // re-encoding an image (about 100 MB for the largest allowed) stays in them: two arenas
    // keep the server's memory flat under uploads (+68 MB under the drill's upload attack,
    // +405 MB without them). A trim threshold of 128 kB (glibc's grows to 32 MB) has free()
    // hand memory back to the system sooner: with both, an embedded server idles about 50 MB
    // lower (issue 39). Set in the environment to choose otherwise.
    env: { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072', ...process.env },
  },
);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal));
// A server ended by a signal exits as a shell would report it (128 + the signal's number).
server.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 0);
});
