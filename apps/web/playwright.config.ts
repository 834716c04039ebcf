import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const HOST = '127.0.0.1';
const repoRoot = path.resolve(import.meta.dirname, '../..');
const serverEntry = path.resolve(import.meta.dirname, '../../apps/server/dist/server.js');

/**
 * A fresh, empty database for each run. Playwright loads this file again in every
 * worker; workers inherit the runner's environment, so only the runner makes the
 * directory, and only the runner removes it when it exits.
 */
const DATA_DIR_ENV = 'PORPOISE_E2E_DATA_DIR';
let dataDir = process.env[DATA_DIR_ENV];
if (dataDir === undefined) {
  const created = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-e2e-'));
  dataDir = created;
  process.env[DATA_DIR_ENV] = created;
  process.on('exit', () => fs.rmSync(created, { recursive: true, force: true }));
}

/**
 * The server's port: E2E_PORT, or a random high port picked once by the runner (and
 * inherited by the workers) so that several runs on one machine never collide.
 */
const PORT_ENV = 'PORPOISE_E2E_PORT';
process.env[PORT_ENV] ??= process.env.E2E_PORT ?? String(20_000 + Math.floor(Math.random() * 20_000));
const PORT = Number(process.env[PORT_ENV]);
/** The mail sink (e2e/mail-sink.ts): SMTP on the next port, its HTTP side on the one after. */
const MAIL_SMTP_PORT = PORT + 1;
const MAIL_SINK_URL = `http://${HOST}:${PORT + 2}`;

export default defineConfig({
  testDir: './e2e',
  // Two-browser flows on a shared 2-core machine need more than the 30 s default.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  reporter: 'list',
  outputDir: path.resolve(repoRoot, 'test-results/e2e'),
  use: {
    baseURL: process.env.E2E_BASE_URL ?? `http://${HOST}:${PORT}`,
    // Debian's Chromium; Playwright never downloads a browser here.
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-quic',
        '--no-first-run',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
  },
  // The run's first account is the installation's admin (docs/product.md section 10): made by the
  // setup project, before any test registers, so the admin tests know who it is.
  projects: [
    { name: 'setup', testMatch: /\.setup\.ts$/ },
    { name: 'chromium', dependencies: ['setup'], testIgnore: /\.setup\.ts$/ },
  ],
  webServer: [
    {
      command: `node_modules/.bin/tsx apps/web/e2e/mail-sink.ts`,
      cwd: repoRoot,
      url: `${MAIL_SINK_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { MAIL_SINK_SMTP_PORT: String(MAIL_SMTP_PORT), MAIL_SINK_HTTP_PORT: String(PORT + 2) },
    },
    {
      command: `node "${serverEntry}"`,
      cwd: repoRoot,
      url: `http://${HOST}:${PORT}/api/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      // SIGTERM lets the server close its embedded database before the directory is removed.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      env: {
        PORT: String(PORT),
        HOST,
        DATA_DIR: dataDir,
        RATE_LIMIT_MULTIPLIER: '100',
        SMTP_URL: `smtp://${HOST}:${MAIL_SMTP_PORT}`,
      },
    },
  ],
});
