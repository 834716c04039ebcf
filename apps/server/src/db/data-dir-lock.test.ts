import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { openDatabase } from './client.ts';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.ts';

const serverEntry = fileURLToPath(new URL('../server.ts', import.meta.url));
const tsx = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../node_modules/.bin/tsx');

describe('the embedded database directory', () => {
  it(
    'belongs to one process: a second server on it refuses to start with a clear message',
    { timeout: 120_000 },
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-lock-'));
      const database = await openDatabase({ kind: 'pglite', dataDir, migrationsDir: loadConfig({}).migrationsDir });
      try {
        const child = spawn(tsx, [serverEntry], {
          env: { ...process.env, DATA_DIR: dataDir, PORT: '0', DATABASE_URL: '' },
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
        expect(code).toBe(1);
        expect(stderr).toContain(
          `Another Porpoise process (pid ${process.pid}) is already using the data directory ${dataDir}`,
        );
      } finally {
        await database.close();
      }
      // Released on close: the directory opens again, with the data kept.
      const again = await openDatabase({ kind: 'pglite', dataDir, migrationsDir: loadConfig({}).migrationsDir });
      await again.close();
    },
  );

  it('takes over a lock left by a process that died, and marks it released on release', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-lock-'));
    const lockFiles = () => fs.readdirSync(dataDir).filter((name) => name.startsWith('porpoise.lock'));
    // No process has pid 2^22 + 1 on Linux (pid_max is at most 2^22): a claim left by a dead
    // process, and the single lock file of older Porpoise versions.
    fs.writeFileSync(path.join(dataDir, 'porpoise.lock.7'), String(4_194_305));
    fs.writeFileSync(path.join(dataDir, 'porpoise.lock'), String(4_194_305));
    const release = lockDataDir(dataDir);
    expect(lockFiles()).toEqual(['porpoise.lock.8']);
    expect(fs.readFileSync(path.join(dataDir, 'porpoise.lock.8'), 'utf8')).toBe(String(process.pid));
    release();
    expect(lockFiles()).toEqual(['porpoise.lock.9']);
    expect(fs.readFileSync(path.join(dataDir, 'porpoise.lock.9'), 'utf8')).toBe('released');
  });

  it('refuses a live owner, and a live process of an older version', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-lock-'));
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)']);
    try {
      fs.writeFileSync(path.join(dataDir, 'porpoise.lock.3'), String(child.pid));
      expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
      fs.rmSync(path.join(dataDir, 'porpoise.lock.3'));
      fs.writeFileSync(path.join(dataDir, 'porpoise.lock'), String(child.pid));
      expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
    } finally {
      child.kill();
    }
  });
});
