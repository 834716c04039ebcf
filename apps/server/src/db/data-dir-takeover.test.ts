// Issue 15, item 12: a lock left by a dead server is taken over atomically. Servers started
// together after a crash race for it, and exactly one of them gets the directory.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { LockTakerReply } from '../test/lock-taker.ts';

const lockTaker = fileURLToPath(new URL('../test/lock-taker.ts', import.meta.url));
const ROUNDS = 20;
const TAKERS = 8;

interface Taker {
  child: ChildProcess;
  /** Sends a directory and resolves with what lockDataDir did with it. */
  take(dir: string): Promise<LockTakerReply['result']>;
}

async function startTaker(): Promise<Taker> {
  const child = fork(lockTaker, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map<string, (result: LockTakerReply['result']) => void>();
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`lock taker exited (${code})`)));
    child.on('message', (message: LockTakerReply | 'ready') => {
      if (message === 'ready') resolve();
      else waiting.get(message.dir)?.(message.result);
    });
  });
  return {
    child,
    take: (dir) =>
      new Promise((resolve) => {
        waiting.set(dir, resolve);
        child.send(dir);
      }),
  };
}

describe('a data directory left locked by a dead server', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  it(
    `goes to exactly one of ${TAKERS} servers that take it over at once (${ROUNDS} rounds)`,
    { timeout: 120_000 },
    async () => {
      const dirs = Array.from({ length: ROUNDS }, () => fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-takeover-')));
      const takers = await Promise.all(Array.from({ length: TAKERS }, startTaker));
      children.push(...takers.map((taker) => taker.child));

      // A server takes every directory and is killed (kill -9): each lock is now stale.
      const dead = await startTaker();
      children.push(dead.child);
      for (const dir of dirs) expect(await dead.take(dir)).toBe('won');
      const exited = new Promise((resolve) => dead.child.once('exit', resolve));
      dead.child.kill('SIGKILL');
      await exited;

      const winners: number[] = [];
      const failures: string[] = [];
      for (const dir of dirs) {
        const results = await Promise.all(takers.map((taker) => taker.take(dir)));
        winners.push(results.filter((result) => result === 'won').length);
        failures.push(...results.filter((result) => result !== 'won' && result !== 'locked'));
      }
      expect(winners).toEqual(Array(ROUNDS).fill(1));
      // The others are told the directory is taken: no other error.
      expect(failures).toEqual([]);
    },
  );
});
