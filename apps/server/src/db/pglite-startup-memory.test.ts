// Trust #23 drill: a server on a new embedded database gives back initdb's memory as soon as
// the database is open. Opening a new data directory runs initdb in a WebAssembly instance of
// its own, about 350 MB that V8 returned only at a full collection, minutes later on an idle
// thread: a fresh server sat at ~815 MB RSS, against ~325 MB when started again.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const opener = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test/open-embedded.ts');

describe('a new embedded database', () => {
  let rssMb = Infinity;

  // Measured in a process of its own (this one holds other tests' memory), started here: a new
  // data directory takes ~15 s to make on a busy machine.
  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-startup-memory-'));
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', opener, dataDir]);
      rssMb = (JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { rssMb: number }).rssMb;
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('holds no more than 600 MB once open (initdb left ~350 MB more until a collection)', () => {
    expect(rssMb).toBeLessThan(600);
  });
});
