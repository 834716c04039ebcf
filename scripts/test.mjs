// `npm test`: builds the app (unless unchanged since the last build), runs the unit, API and
// socket suites (Vitest, on PGlite and PostgreSQL) and the browser suite (Playwright in
// Debian's Chromium), then prints one line `tests: N passed, M failed`. Every suite is
// required: none is skipped for a missing service, so a missing PostgreSQL or Chromium fails
// loudly.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, '.test-results');
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

const run = (command, args, env = {}) =>
  spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

const readJson = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

let passed = 0;
let failed = 0;
const problems = [];

// Built only when the sources changed since the last build (scripts/start.mjs hashes them).
if (run('node', ['scripts/start.mjs', '--build-only']) !== 0) problems.push('build failed');

const vitestJson = path.join(out, 'vitest.json');
const vitestStatus = run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${vitestJson}`,
]);
const vitest = readJson(vitestJson);
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  if (vitest.numPendingTests + vitest.numTodoTests > 0) problems.push(`${vitest.numPendingTests} vitest tests skipped`);
}
if (vitestStatus !== 0 || !vitest) problems.push('vitest failed');

const playwrightJson = path.join(out, 'playwright.json');
const playwrightStatus = run(
  'npx',
  ['playwright', 'test', '-c', 'apps/web/playwright.config.ts', '--reporter=list,json'],
  {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
  },
);
const playwright = readJson(playwrightJson);
if (playwright) {
  passed += playwright.stats.expected + playwright.stats.flaky;
  failed += playwright.stats.unexpected;
  if (playwright.stats.skipped > 0) problems.push(`${playwright.stats.skipped} browser tests skipped`);
}
if (playwrightStatus !== 0 || !playwright) problems.push('playwright failed');

if (problems.length > 0) console.error(`\nproblems: ${problems.join('; ')}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(problems.length > 0 || failed > 0 ? 1 : 0);
