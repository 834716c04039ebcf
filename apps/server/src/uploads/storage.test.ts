// The disk driver of uploaded images (docs/product.md section 14).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diskStorage } from './storage.ts';

describe('the disk storage of images', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-storage-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const name = `${'e'.repeat(64)}.webp`;

  it('deletes, as it starts, the temporary files a crash left over an hour ago, and nothing else', async () => {
    const old = path.join(root, '.left-by-a-crash.part');
    const young = path.join(root, '.being-written.part');
    const image = path.join(root, name);
    for (const file of [old, young, image]) fs.writeFileSync(file, 'x');
    const aged = new Date(Date.now() - 2 * 60 * 60_000);
    fs.utimesSync(old, aged, aged);
    fs.utimesSync(image, aged, aged);
    await diskStorage(root);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(young)).toBe(true);
    expect(fs.existsSync(image)).toBe(true);
  });

  it('puts whole files under their names, and refuses names it did not make', async () => {
    const storage = await diskStorage(root);
    await storage.put(name, Buffer.from('webp bytes'));
    expect(fs.readFileSync(path.join(root, name), 'utf8')).toBe('webp bytes');
    expect(await storage.get(name)).toEqual({ path: path.join(root, name), size: 10 });
    await expect(storage.put('../escape.webp', Buffer.from('x'))).rejects.toThrow();
    await storage.delete(name);
    expect(await storage.get(name)).toBeNull();
  });
});
