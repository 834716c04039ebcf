import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { e2ePorts } from './e2e/worker-server.ts';

const HOST = '127.0.0.1';
const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * The run's directory: each worker's server keeps its empty database in a directory of its
 * own under it (e2e/worker-server.ts). Playwright loads this file again in every worker;
 * workers inherit the runner's environment, so only the runner makes the directory, and
 * only the runner removes it when it exits.
 */
if (process.env.PORPOISE_E2E_DATA_DIR === undefined) {
  const created = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-e2e-'));
  process.env.PORPOISE_E2E_DATA_DIR = created;
  process.on('exit', () => fs.rmSync(created, { recursive: true, force: true }));
}

/**
 * The run's ports start at E2E_PORT, or at a random high port picked once by the runner (and
 * inherited by the workers) so that several runs on one machine never collide: the mail
 * sink's SMTP and HTTP sides, then each worker's server (e2e/worker-server.ts).
 */
// 26000-31989: below Linux's ephemeral range (32768-60999), where outgoing connections may
// already hold a port, and above this machine's services (RabbitMQ's inter-node port is 25672).
process.env.PORPOISE_E2E_PORT ??= process.env.E2E_PORT ?? String(26_000 + Math.floor(Math.random() * 5_990));
const ports = e2ePorts();

export default defineConfig({
  testDir: './e2e',
  // Two-browser flows on a shared 2-core machine need more than the 30 s default.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two workers, each with its own server (e2e/support.ts): the machine's two cores stay busy
  // while one worker's test waits on the network, a render or a socket event.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  reporter: 'list',
  outputDir: path.resolve(repoRoot, 'test-results/e2e'),
  use: {
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
  projects: [{ name: 'chromium' }],
  // The servers under test are the workers' own (e2e/support.ts); the mail sink is shared.
  webServer: [
    {
      command: `node_modules/.bin/tsx apps/web/e2e/mail-sink.ts`,
      cwd: repoRoot,
      url: `http://${HOST}:${ports.mailHttp}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { MAIL_SINK_SMTP_PORT: String(ports.mailSmtp), MAIL_SINK_HTTP_PORT: String(ports.mailHttp) },
    },
  ],
});
