import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import type { ScryptParams } from '../auth/password.ts';
import { createTestDatabase, type DatabaseKind } from './databases.ts';

export interface TestApp {
  app: FastifyInstance;
  /** http://127.0.0.1:PORT once listening (socket tests need a real port). */
  url: string;
  close(): Promise<void>;
}

/**
 * scrypt at N=2^10 (1 MiB, about a millisecond) instead of production's 2^17 (128 MiB,
 * hundreds of milliseconds), so suites that register many accounts stay fast; a test that
 * needs the production parameters sets them back in `configure`.
 */
export const TEST_PASSWORD_PARAMS: ScryptParams = { N: 2 ** 10, r: 8, p: 1 };

/** Builds the real app on a fresh database of `kind` and listens on a free loopback port. */
export async function startTestApp(
  kind: DatabaseKind,
  options: {
    env?: NodeJS.ProcessEnv;
    configure?: (config: Config) => void;
    databaseUrl?: string;
    /** The embedded database on this directory (a backup test's), not in memory. */
    dataDir?: string;
    logStream?: NodeJS.WritableStream;
  } = {},
): Promise<TestApp> {
  // Each app stores its uploaded images in a directory of its own, gone when it closes.
  const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-uploads-'));
  const config = loadConfig({
    RATE_LIMIT_MULTIPLIER: '1000',
    LOG_LEVEL: 'info',
    UPLOADS_DIR: uploadsDir,
    ...options.env,
  });
  config.passwordHashing = TEST_PASSWORD_PARAMS;
  // The orphan sweep runs when a test calls it, never on its own under a test's feet.
  config.uploads.firstSweepMs = 2 ** 31 - 1;
  config.uploads.sweepMs = 2 ** 31 - 1;
  options.configure?.(config);
  const database = await createTestDatabase(kind, options.databaseUrl, options.dataDir);
  const app = await buildApp({ config, database, logger: Boolean(options.logStream), logStream: options.logStream });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      fs.rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}
