// Each Playwright worker's own server (the built app, node apps/server/dist/server.js) on its
// own empty embedded database: tests in parallel workers never see each other's questions,
// forums, flags or moderation log, and each server's first account is the run's admin.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const serverEntry = path.join(repoRoot, 'apps/server/dist/server.js');

/** The ports the runner picked (playwright.config.ts): the mail sink's, then one per worker. */
export const e2ePorts = () => {
  const base = Number(process.env.PORPOISE_E2E_PORT);
  return { mailSmtp: base + 1, mailHttp: base + 2, server: (parallelIndex: number) => base + 10 + parallelIndex };
};

export interface WorkerServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts the worker's server and resolves once it answers /api/healthz. */
export async function startWorkerServer(parallelIndex: number): Promise<WorkerServer> {
  const ports = e2ePorts();
  const port = ports.server(parallelIndex);
  const dataDir = fs.mkdtempSync(path.join(process.env.PORPOISE_E2E_DATA_DIR!, `worker-${parallelIndex}-`));
  const child: ChildProcess = spawn(process.execPath, [serverEntry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // The server's own backups, listed at /admin (admin.spec.ts).
      BACKUP_DIR: path.join(dataDir, 'backups'),
      RATE_LIMIT_MULTIPLIER: '100',
      // Playwright's own HTTP client (page.request, route.fetch) keeps idle connections with no
      // timeout of its own and does not retry a request on one the server has just closed: at
      // the default 10 s, a request sent as the server closed an idle connection failed with
      // ECONNRESET (moderation.spec, session 27's CI). The server outlives every test's idle gap.
      KEEP_ALIVE_TIMEOUT_MS: String(15 * 60_000),
      // Nobody reads its request log (stdout is ignored): not written at all.
      LOG_LEVEL: 'warn',
      SMTP_URL: `smtp://127.0.0.1:${ports.mailSmtp}`,
    },
    // Its request log stays out of the test report; its errors do not.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the e2e server on port ${port} exited (code ${child.exitCode})`);
    if (
      await fetch(`${url}/api/healthz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the e2e server on port ${port} did not answer within 60 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    // SIGTERM lets the server close its embedded database before its directory is removed.
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
