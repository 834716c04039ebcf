// The container of backup files (docs/plans/backups.md section 1): written, read back, and
// refused when cut, damaged, newer, or not a backup at all.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { extract as tarExtract, pack as tarPack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupFileError,
  type BackupHeaderBase,
  type BackupProblem,
  readBackupFile,
  readBackupHeader,
  verifyBackupFile,
  writeBackupFile,
} from './archive.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-archive-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let counter = 0;
/** A new path in the test's directory. */
const fresh = (suffix = '.porpoise-backup') => path.join(dir, `file-${++counter}${suffix}`);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const header: BackupHeaderBase = {
  format: BACKUP_FORMAT,
  formatVersion: BACKUP_FORMAT_VERSION,
  createdAt: '2026-11-28T12:00:00.000Z',
  tables: [{ name: 'questions', rows: 3 }],
};

/** About 1 MB of SQL text, random enough that gzip leaves most of it. */
function makeSql(): Buffer {
  const lines: string[] = ['COPY public.questions (id, title) FROM stdin;\n'];
  for (let i = 0, length = 0; length < 2 ** 20; i++) {
    lines.push(`${i}\tquestion ${i}: ${randomBytes(24).toString('hex')} é\n`);
    length += lines.at(-1)!.length;
  }
  lines.push('\\.\n');
  return Buffer.from(lines.join(''));
}

const sql = makeSql();
const sqlPath = path.join(dir, 'database.sql');
const images = [0, 1, 2].map((i) => {
  const bytes = Buffer.concat([Buffer.from(`RIFF webp ${i} `), randomBytes(200 + i * 100)]);
  const name = `${sha256(bytes)}.webp`;
  return { name, path: path.join(dir, name), bytes };
});
const imageList = images.map(({ name, path }) => ({ name, path }));

/** A backup written by writeBackupFile, shared by the tests that only read it. */
let good: string;

beforeAll(async () => {
  fs.writeFileSync(sqlPath, sql);
  for (const image of images) fs.writeFileSync(image.path, image.bytes);
  good = fresh();
  await writeBackupFile(good, header, sqlPath, imageList);
});

/** The problem a promise rejects with (and that it is a BackupFileError with the problem's message). */
async function problemOf(promise: Promise<unknown>): Promise<BackupProblem> {
  const error = await promise.then(
    () => expect.fail('it should have been refused'),
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(BackupFileError);
  return (error as BackupFileError).problem;
}

/** Reads a file through readBackupFile, keeping what the handlers were given. */
async function readAll(file: string) {
  const got = { sql: Buffer.alloc(0), images: [] as { name: string; bytes: Buffer }[] };
  const returned = await readBackupFile(file, {
    async onSql(stream) {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      got.sql = Buffer.concat(chunks);
    },
    async onImage(name, bytes) {
      got.images.push({ name, bytes });
    },
  });
  return { ...got, header: returned };
}

/** A file cut to its first `length` bytes. */
function cut(file: string, length: number): string {
  const out = fresh();
  fs.writeFileSync(out, fs.readFileSync(file).subarray(0, length));
  return out;
}

/** The entries of a gzip'd tar, in order. */
async function entriesOf(file: string): Promise<{ name: string; bytes: Buffer }[]> {
  const entries: { name: string; bytes: Buffer }[] = [];
  const extract = tarExtract();
  const reading = pipeline(fs.createReadStream(file), createGunzip(), extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    entries.push({ name: entry.header.name, bytes: Buffer.concat(chunks) });
  }
  await reading;
  return entries;
}

/** A gzip'd tar of these entries, in this order (to build files writeBackupFile would not). */
async function pack(entries: { name: string; bytes: Buffer }[]): Promise<string> {
  const out = fresh();
  const tar = tarPack();
  const writing = pipeline(tar, createGzip(), fs.createWriteStream(out));
  for (const entry of entries) tar.entry({ name: entry.name }, entry.bytes);
  tar.finalize();
  await writing;
  return out;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** The entries of a well-formed backup, its trailer made to match whatever they hold. */
function backupEntries(
  options: { header?: Buffer; sql?: Buffer; images?: { name: string; bytes: Buffer }[] } = {},
): { name: string; bytes: Buffer }[] {
  const headerBytes = options.header ?? json(header);
  const sqlBytes = options.sql ?? sql;
  const imageEntries = options.images ?? images;
  const trailer = {
    format: 'porpoise-backup-end',
    headerSha256: sha256(headerBytes),
    databaseSqlSha256: sha256(sqlBytes),
    databaseSqlBytes: sqlBytes.length,
    images: imageEntries.map(({ name, bytes }) => ({ name, sha256: sha256(bytes), bytes: bytes.length })),
  };
  return [
    { name: 'porpoise-backup.json', bytes: headerBytes },
    { name: 'database.sql', bytes: sqlBytes },
    ...imageEntries.map(({ name, bytes }) => ({ name: `uploads/${name}`, bytes })),
    { name: 'porpoise-backup-end.json', bytes: json(trailer) },
  ];
}

describe('backup files', () => {
  it('round-trips the header, the SQL and the images, in a 0600 file with no .partial left', async () => {
    expect(fs.statSync(good).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(`${good}.partial`)).toBe(false);
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);

    expect(await verifyBackupFile(good)).toEqual(header);
    expect(await readBackupHeader(good)).toEqual(header);
    const read = await readAll(good);
    expect(read.header).toEqual(header);
    expect(read.sql.equals(sql)).toBe(true);
    expect(read.images.map(({ name }) => name)).toEqual(images.map(({ name }) => name));
    read.images.forEach(({ bytes }, i) => expect(bytes.equals(images[i]!.bytes)).toBe(true));

    // A plain gzip'd tar, in the plan's order, with the trailer's checksums.
    const entries = await entriesOf(good);
    expect(entries.map(({ name }) => name)).toEqual([
      'porpoise-backup.json',
      'database.sql',
      ...images.map(({ name }) => `uploads/${name}`),
      'porpoise-backup-end.json',
    ]);
    expect(JSON.parse(entries.at(-1)!.bytes.toString())).toEqual({
      format: 'porpoise-backup-end',
      headerSha256: sha256(entries[0]!.bytes),
      databaseSqlSha256: sha256(sql),
      databaseSqlBytes: sql.length,
      images: images.map(({ name, bytes }) => ({ name, sha256: sha256(bytes), bytes: bytes.length })),
    });
  });

  it("hands onSql exactly the SQL's bytes, however slowly it reads them", async () => {
    const text = Buffer.from('COPY public.tags (name) FROM stdin;\nnaïve\t\\N\n🐬\n\\.\n');
    const small = path.join(dir, 'small.sql');
    fs.writeFileSync(small, text);
    const file = fresh();
    await writeBackupFile(file, header, small, []);
    let got = Buffer.alloc(0);
    await readBackupFile(file, {
      async onSql(stream) {
        for await (const chunk of stream) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          got = Buffer.concat([got, chunk as Buffer]);
        }
      },
      onImage: () => expect.fail('there are no images'),
    });
    expect(got.equals(text)).toBe(true);
    // And the large one, over many chunks.
    expect((await readAll(good)).sql.equals(sql)).toBe(true);
  });

  it('says a cut file is incomplete (wherever it is cut) and reads the header of one cut after it', async () => {
    const size = fs.statSync(good).size;
    // One byte: gzip's first byte, so a backup cut short rather than some other file.
    for (const length of [1, 2, 100, Math.floor(size / 2), size - 10]) {
      const file = cut(good, length);
      expect(await problemOf(verifyBackupFile(file)), `cut at ${length}`).toBe('incomplete');
      expect(await problemOf(readAll(file)), `cut at ${length}`).toBe('incomplete');
    }
    expect(await problemOf(readBackupHeader(cut(good, 1)))).toBe('incomplete');
    // The header is in the first few kilobytes: a listing still shows a half file.
    expect(await readBackupHeader(cut(good, Math.floor(size / 2)))).toEqual(header);
    // Cut between whole tar entries, inside a whole gzip: the trailer is missing.
    const file = await pack(backupEntries().slice(0, -1));
    expect(await problemOf(verifyBackupFile(file))).toBe('incomplete');
    expect(await problemOf(readAll(file))).toBe('incomplete');
    expect(await problemOf(verifyBackupFile(await pack(backupEntries().slice(0, 1))))).toBe('incomplete');
  });

  it('says a file with a flipped byte is damaged (or cut, where gzip cannot tell)', async () => {
    const bytes = fs.readFileSync(good);
    for (const at of [Math.floor(bytes.length / 2), Math.floor(bytes.length / 3), bytes.length - 20]) {
      const flipped = Buffer.from(bytes);
      flipped[at] = flipped[at]! ^ 0x20;
      const file = fresh();
      fs.writeFileSync(file, flipped);
      expect(['damaged', 'incomplete']).toContain(await problemOf(verifyBackupFile(file)));
    }
  });

  it("says a file whose SQL or images are not the trailer's, or not their names', is damaged", async () => {
    // The SQL changed after the trailer was made (every layer below is whole).
    const entries = backupEntries();
    entries[1] = { name: 'database.sql', bytes: Buffer.concat([sql, Buffer.from('DROP TABLE x;\n')]) };
    const changedSql = await pack(entries);
    expect(await problemOf(verifyBackupFile(changedSql))).toBe('damaged');
    expect(await problemOf(readAll(changedSql))).toBe('damaged');

    // An image whose bytes are not those its name hashes, with a trailer that agrees with them.
    const wrong = [{ name: images[0]!.name, bytes: Buffer.from('other bytes') }, ...images.slice(1)];
    const wrongImage = await pack(backupEntries({ images: wrong }));
    expect(await problemOf(verifyBackupFile(wrongImage))).toBe('damaged');
    const handed: string[] = [];
    await expect(
      readBackupFile(wrongImage, {
        onSql: async (stream) => void (await Readable.from(stream).toArray()),
        onImage: async (name) => void handed.push(name),
      }),
    ).rejects.toThrow(`${wrongImage} is damaged: its contents do not match their checksums`);
    expect(handed).toEqual([]); // never handed on

    // The header changed after the trailer was made.
    const headerEntries = backupEntries();
    headerEntries[0] = { name: 'porpoise-backup.json', bytes: json({ ...header, createdAt: 'later' }) };
    expect(await problemOf(verifyBackupFile(await pack(headerEntries)))).toBe('damaged');
  });

  it('says entries out of place, unknown, repeated or after the trailer are damage', async () => {
    const [headerEntry, sqlEntry, first, second, third, trailer] = backupEntries();
    const orders = [
      [headerEntry, first, sqlEntry, second, third, trailer], // an image before the SQL
      [headerEntry, sqlEntry, first, first, second, third, trailer], // twice
      [headerEntry, sqlEntry, first, second, third, { name: 'notes.txt', bytes: Buffer.from('x') }, trailer],
      [headerEntry, sqlEntry, first, second, third, trailer, trailer],
      [headerEntry, sqlEntry, { name: 'uploads/../x.webp', bytes: Buffer.from('x') }, trailer],
      [headerEntry, sqlEntry, { name: `uploads/${'A'.repeat(64)}.webp`, bytes: Buffer.from('x') }, trailer],
    ];
    for (const [i, order] of orders.entries()) {
      const file = await pack(order.map((entry) => entry!));
      expect(await problemOf(verifyBackupFile(file)), `order ${i}`).toBe('damaged');
    }
  });

  it('says a PNG, an empty file, or another .tar.gz is not a backup', async () => {
    const png = fresh('.png');
    fs.writeFileSync(png, Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(100)]));
    const empty = fresh();
    fs.writeFileSync(empty, '');
    const gzipText = fresh('.gz');
    await pipeline(Readable.from([Buffer.from('hello, not a tar\n')]), createGzip(), fs.createWriteStream(gzipText));
    const files = [
      png,
      empty,
      gzipText,
      await pack([
        { name: 'README.md', bytes: Buffer.from('# hello') },
        { name: 'src/index.js', bytes: Buffer.from('1') },
      ]),
      await pack([]), // a tar of nothing
      await pack([{ name: 'porpoise-backup.json', bytes: Buffer.from('{"format": "porpoise-backup",') }]),
      await pack(backupEntries({ header: json({ format: 'porpoise-backup', formatVersion: '1' }) })),
      await pack(backupEntries({ header: json({ format: 'other', formatVersion: 1 }) })),
      await pack(backupEntries({ header: json([header]) })),
      await pack(backupEntries({ header: Buffer.alloc(2 ** 20 + 1, ' ') })),
    ];
    for (const [i, file] of files.entries()) {
      expect(await problemOf(verifyBackupFile(file)), `file ${i}`).toBe('not-a-backup');
      expect(await problemOf(readBackupHeader(file)), `file ${i}`).toBe('not-a-backup');
      expect(await problemOf(readAll(file)), `file ${i}`).toBe('not-a-backup');
    }
    await expect(verifyBackupFile(png)).rejects.toThrow(`${png} is not a Porpoise backup`);
  });

  it('says a backup of a newer format comes from a newer Porpoise', async () => {
    const file = fresh();
    await writeBackupFile(file, { ...header, formatVersion: 2 }, sqlPath, imageList);
    const message = `${file} comes from a newer Porpoise (backup format 2); upgrade Porpoise to restore it`;
    await expect(verifyBackupFile(file)).rejects.toThrow(message);
    await expect(readBackupHeader(file)).rejects.toThrow(message);
    expect(await problemOf(readAll(file))).toBe('newer-format');
  });

  it('gives the exact messages', () => {
    expect(new BackupFileError('incomplete', 'f').message).toBe(
      'f is incomplete: it ends before the backup does (truncated?)',
    );
    expect(new BackupFileError('damaged', 'f').message).toBe('f is damaged: its contents do not match their checksums');
    expect(new BackupFileError('damaged', 'f', 'database.sql').message).toBe(
      'f is damaged: its contents do not match their checksums (database.sql)',
    );
    expect(new BackupFileError('not-a-backup', 'f').message).toBe('f is not a Porpoise backup');
  });

  it('refuses to write an image name it did not make, or an image whose bytes are not its name, leaving nothing', async () => {
    const file = fresh();
    const escape = { name: '../x.webp', path: images[0]!.path };
    await expect(writeBackupFile(file, header, sqlPath, [escape])).rejects.toThrow("not an upload's name");
    await expect(writeBackupFile(file, header, sqlPath, [imageList[0]!, imageList[0]!])).rejects.toThrow('twice');
    const mislabelled = { name: images[0]!.name, path: images[1]!.path };
    await expect(writeBackupFile(file, header, sqlPath, [mislabelled])).rejects.toThrow('does not hold the image');
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
  });

  it('passes I/O errors on as they are, removing its .partial, and leaves alone a .partial it did not make', async () => {
    const missing = path.join(dir, 'no-such-file');
    await expect(verifyBackupFile(missing)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readBackupHeader(missing)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(verifyBackupFile(dir)).rejects.toMatchObject({ code: 'EISDIR' });

    const file = fresh();
    const gone = { name: `${'0'.repeat(64)}.webp`, path: missing };
    await expect(writeBackupFile(file, header, sqlPath, [...imageList, gone])).rejects.toMatchObject({
      code: 'ENOENT',
    });
    await expect(writeBackupFile(file, header, missing, [])).rejects.toMatchObject({ code: 'ENOENT' });
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(`${file}.partial`)).toBe(false);

    fs.writeFileSync(`${file}.partial`, 'another writer');
    await expect(writeBackupFile(file, header, sqlPath, [])).rejects.toMatchObject({ code: 'EEXIST' });
    expect(fs.readFileSync(`${file}.partial`, 'utf8')).toBe('another writer');
  });

  it("stops cleanly when a handler fails or stops reading, with the handler's error", async () => {
    const failing = new Error('the database said no');
    await expect(
      readBackupFile(good, {
        async onSql(stream) {
          for await (const chunk of stream) if (chunk) throw failing; // stops after the first chunk
        },
        onImage: async () => {},
      }),
    ).rejects.toBe(failing);
    await expect(readBackupFile(good, { onSql: async () => {}, onImage: async () => {} })).rejects.toThrow(
      'onSql returned before reading all of the SQL',
    );
    await expect(
      readBackupFile(good, {
        onSql: async (stream) => void (await Readable.from(stream).toArray()),
        onImage: async () => Promise.reject(failing),
      }),
    ).rejects.toBe(failing);
    // A cut file under a handler that is still reading: the file's problem, not the handler's.
    const half = cut(good, Math.floor(fs.statSync(good).size / 2));
    await expect(
      readBackupFile(half, {
        async onSql(stream) {
          for await (const chunk of stream) void chunk;
        },
        onImage: async () => {},
      }),
    ).rejects.toThrow('is incomplete');
  });
});
