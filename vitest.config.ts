import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The web app's '@/...' (its src/), for the components its unit tests render on the server.
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'apps/web/src') } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/server/src/**/*.test.ts',
      'apps/web/src/**/*.test.tsx',
      'bench/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One migrated PGlite cluster that every in-memory test database starts from.
    globalSetup: ['apps/server/src/test/global-setup.ts'],
    // Each file starts its own databases; two cores do not gain from more.
    maxWorkers: 2,
  },
});
