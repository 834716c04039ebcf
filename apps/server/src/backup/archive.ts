// The container of a backup file, `*.porpoise-backup` (docs/plans/backups.md section 1): a
// gzip'd POSIX tar whose entries are, in this order, the header (`porpoise-backup.json`), the
// data-only SQL (`database.sql`), the images (`uploads/{sha256}.webp`) and the trailer
// (`porpoise-backup-end.json`), which holds the checksums of all that came before it.
// Truncation and damage show at three layers: gzip's CRC and length, tar's blocks, the trailer.
import { createHash } from 'node:crypto';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { isUploadName } from '@porpoise/core';
import { syncDirectory } from '../uploads/storage.ts';
import { extract as tarExtract, pack as tarPack, type Extract as TarExtract, type Pack } from 'tar-stream';

export const BACKUP_FORMAT = 'porpoise-backup';
/** Raised when a file written by this version cannot be read as the last one was. */
export const BACKUP_FORMAT_VERSION = 1;

/** The header: the archive module only requires format and formatVersion; other fields are the caller's (a JSON object). */
export interface BackupHeaderBase {
  format: 'porpoise-backup';
  formatVersion: number;
  [key: string]: unknown;
}

export type BackupProblem = 'not-a-backup' | 'incomplete' | 'damaged' | 'newer-format';

const MESSAGES: Record<BackupProblem, (file: string, version: string) => string> = {
  'not-a-backup': (file) => `${file} is not a Porpoise backup`,
  incomplete: (file) => `${file} is incomplete: it ends before the backup does (truncated?)`,
  damaged: (file) => `${file} is damaged: its contents do not match their checksums`,
  'newer-format': (file, version) =>
    `${file} comes from a newer Porpoise (backup format ${version}); upgrade Porpoise to restore it`,
};

/**
 * A file that cannot be restored, and why (what the operator is told). `detail` says where, in
 * parentheses after the message; for 'newer-format' it is the file's format version instead.
 */
export class BackupFileError extends Error {
  constructor(
    readonly problem: BackupProblem,
    file: string,
    detail?: string,
  ) {
    super(
      problem === 'newer-format'
        ? MESSAGES[problem](file, detail ?? '?')
        : MESSAGES[problem](file, '') + (detail === undefined ? '' : ` (${detail})`),
    );
    this.name = 'BackupFileError';
  }
}

const HEADER_ENTRY = 'porpoise-backup.json';
const SQL_ENTRY = 'database.sql';
const UPLOADS_PREFIX = 'uploads/';
const TRAILER_ENTRY = 'porpoise-backup-end.json';
const TRAILER_FORMAT = 'porpoise-backup-end';

/** The most read into memory for the header (which listing reads), the trailer, and one image (readBackupFile's Buffer). */
const HEADER_LIMIT = 2 ** 20;
const TRAILER_LIMIT = 64 * 2 ** 20;
const IMAGE_LIMIT = 64 * 2 ** 20;

/** gzip's magic and its one compression method (deflate). */
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b, 0x08]);

/** What the trailer says of an entry, and what reading it found. */
interface Digest {
  sha256: string;
  bytes: number;
}

type ImageDigest = Digest & { name: string };

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A pass-through that hashes and counts the bytes going through it. */
function hashing(): { stream: Transform; digest: () => Digest } {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  return { stream, digest: () => ({ sha256: hash.digest('hex'), bytes }) };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The problem with a header, or null for one this version reads. */
function headerProblem(header: unknown): BackupProblem | null {
  if (!isObject(header) || header.format !== BACKUP_FORMAT) return 'not-a-backup';
  const version = header.formatVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) return 'not-a-backup';
  return version > BACKUP_FORMAT_VERSION ? 'newer-format' : null;
}

// Writing

/** Tar's permission bits for every entry: a backup holds password hashes and emails. */
const ENTRY_MODE = 0o600;

/** Adds an entry from memory. */
function addBytes(pack: Pack, name: string, bytes: Buffer, mtime: Date): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry({ name, mode: ENTRY_MODE, mtime }, bytes, (error) => (error ? reject(error) : resolve()));
  });
}

/** Adds an entry streamed from a file (tar needs its size first), and returns its digest. */
async function addFile(pack: Pack, name: string, source: string, mtime: Date): Promise<Digest> {
  const handle = await fs.open(source, 'r');
  let size: number;
  try {
    size = (await handle.stat()).size;
  } catch (error) {
    await handle.close();
    throw error;
  }
  // The read stream closes the handle. A file that changed size since fails the entry ('Size mismatch').
  const input = handle.createReadStream();
  const { stream, digest } = hashing();
  await pipeline(input, stream, pack.entry({ name, size, mode: ENTRY_MODE, mtime }));
  return digest();
}

/** Packs the entries into `pack`, in the file's order, then the trailer with what they hashed to. */
async function packEntries(
  pack: Pack,
  header: Buffer,
  sqlPath: string,
  images: { name: string; path: string }[],
): Promise<void> {
  const mtime = new Date();
  await addBytes(pack, HEADER_ENTRY, header, mtime);
  const sql = await addFile(pack, SQL_ENTRY, sqlPath, mtime);
  const digests: ImageDigest[] = [];
  for (const image of images) {
    const digest = await addFile(pack, UPLOADS_PREFIX + image.name, image.path, mtime);
    // Written as it is, it would make a backup that no restore accepts: better no backup, and why.
    if (digest.sha256 !== image.name.slice(0, 64))
      throw new Error(`${image.path} does not hold the image ${image.name} (its bytes hash to ${digest.sha256})`);
    digests.push({ name: image.name, ...digest });
  }
  const trailer = {
    format: TRAILER_FORMAT,
    headerSha256: sha256(header),
    databaseSqlSha256: sql.sha256,
    databaseSqlBytes: sql.bytes,
    images: digests,
  };
  await addBytes(pack, TRAILER_ENTRY, Buffer.from(JSON.stringify(trailer, null, 2)), mtime);
  pack.finalize();
}

/**
 * Writes a backup: the header, the SQL read from `sqlPath` and each image read from its path.
 * Writes the archive to `${file}.partial` (mode 0600, flag 'wx'), fsyncs it, renames it to `file`,
 * fsyncs the directory. On any error the .partial is removed (one that was there before is left
 * alone: it is someone else's). Image names must be upload names (`{sha256}.webp`, each once),
 * and each file must hold the bytes its name hashes.
 */
export async function writeBackupFile(
  file: string,
  header: BackupHeaderBase,
  sqlPath: string,
  images: { name: string; path: string }[],
): Promise<void> {
  if (headerProblem(header) === 'not-a-backup') throw new Error('a backup header needs its format and formatVersion');
  const names = new Set<string>();
  for (const { name } of images) {
    if (!isUploadName(name)) throw new Error(`not an upload's name: ${name}`);
    if (names.has(name)) throw new Error(`the image ${name} is listed twice`);
    names.add(name);
  }
  const headerBytes = Buffer.from(JSON.stringify(header, null, 2));
  if (headerBytes.length > HEADER_LIMIT) throw new Error(`a backup header is at most ${HEADER_LIMIT} bytes`);

  const partial = `${file}.partial`;
  const handle = await fs.open(partial, 'wx', 0o600);
  try {
    try {
      const pack = tarPack();
      // `flush`: the stream fsyncs the file before it closes it (and the handle), which `writing` waits for.
      const writing = pipeline(pack, createGzip({ level: 6 }), handle.createWriteStream({ flush: true }));
      // Packing stops when writing does (the pack is destroyed) and writing when packing does:
      // both are awaited, and the error is writing's (a full disk) or else packing's (a missing file).
      const packing = packEntries(pack, headerBytes, sqlPath, images).catch((error: unknown) => {
        pack.destroy(error instanceof Error ? error : new Error(String(error)));
        throw error;
      });
      const [packed, written] = await Promise.allSettled([packing, writing]);
      if (written.status === 'rejected') throw written.reason;
      if (packed.status === 'rejected') throw packed.reason;
    } finally {
      await handle.close(); // a no-op once the stream has closed it
    }
    await fs.rename(partial, file);
    await syncDirectory(path.dirname(file));
  } catch (error) {
    await fs.rm(partial, { force: true });
    throw error;
  }
}

// Reading

/** One entry of the tar: its header and its bytes, to be read through before the next. */
type Entry = TarExtract extends AsyncIterable<infer E> ? E : never;

/** True for an error of gzip (zlib's codes) or of tar-stream's parsing (its messages), as opposed to I/O or a caller's. */
function isArchiveError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string') return code.startsWith('Z_');
  return TAR_ERROR.test(error.message) || TAR_ENDED.test(error.message);
}
const TAR_ERROR = /^(Invalid tar header|Invalid header|Header exceeds max size)/;
const TAR_ENDED = /^Unexpected end of data/;

/**
 * What an error of reading `file` tells the operator, `seen` entries in: gzip's "unexpected end
 * of file" (or tar ending inside an entry) is a cut file; other gzip and tar errors are damage,
 * except before the first entry, where the file is no tar at all. Others (I/O, a caller's) stay.
 */
function backupError(error: unknown, file: string, seen: number): unknown {
  if (error instanceof BackupFileError || !isArchiveError(error)) return error;
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'Z_BUF_ERROR') return new BackupFileError('incomplete', file);
  if (code !== undefined) return new BackupFileError('damaged', file, message);
  if (seen === 0) return new BackupFileError('not-a-backup', file);
  return TAR_ENDED.test(message)
    ? new BackupFileError('incomplete', file)
    : new BackupFileError('damaged', file, message);
}

/**
 * Opens `file` as a gzip'd tar and hands `use` its entries one by one (`next`, null at the end).
 * With `whole`, the file is then read to its end (gzip's CRC checked); without, reading stops.
 * Errors become BackupFileErrors (backupError); every stream is closed before this returns.
 */
async function withEntries<T>(
  file: string,
  whole: boolean,
  use: (next: () => Promise<Entry | null>) => Promise<T>,
): Promise<T> {
  const handle = await fs.open(file, 'r');
  let input: ReturnType<FileHandle['createReadStream']>;
  try {
    // An empty file, or one that starts other than gzip does, is no backup; one cut inside the magic is left to gunzip.
    const magic = Buffer.alloc(GZIP_MAGIC.length);
    const { bytesRead } = await handle.read(magic, 0, magic.length, 0);
    if (bytesRead === 0 || !magic.subarray(0, bytesRead).equals(GZIP_MAGIC.subarray(0, bytesRead)))
      throw new BackupFileError('not-a-backup', file);
    input = handle.createReadStream({ start: 0 }); // closes the handle when it is done or destroyed
  } catch (error) {
    await handle.close();
    throw error;
  }
  const extract = tarExtract();
  const reading = pipeline(input, createGunzip(), extract);
  // Its failure also reaches the entries (the extract is destroyed with it); it is awaited below.
  reading.catch(() => {});
  const entries = extract[Symbol.asyncIterator]();
  let seen = 0;
  const next = async (): Promise<Entry | null> => {
    const result = await entries.next();
    if (result.done === true) return null;
    seen += 1;
    return result.value;
  };
  try {
    const result = await use(next);
    if (whole) await reading;
    else {
      extract.destroy();
      await reading.catch(() => {});
    }
    return result;
  } catch (error) {
    extract.destroy();
    await reading.catch(() => {});
    throw backupError(error, file, seen);
  }
}

/** An entry's bytes, or null past `limit` (counted as they come: the tar's size is not trusted for memory). */
async function readAll(entry: Entry, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of entry as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}

/** An entry read through, hashed and counted. */
async function digestOf(entry: Entry): Promise<Digest> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of entry as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** An image whose bytes are not those its name is the hash of is damaged. */
function checkImage(file: string, name: string, digest: Digest): void {
  if (digest.sha256 !== name.slice(0, 64)) throw new BackupFileError('damaged', file, `${UPLOADS_PREFIX}${name}`);
}

/** How a pass reads the SQL and each image (their bytes must be read through); each returns what it hashed. */
interface Visitor {
  sql(entry: Entry): Promise<Digest>;
  image(name: string, entry: Entry): Promise<Digest>;
}

/** The header entry, first: anything else, or a header this version does not read, is refused. */
async function readHeader(file: string, entry: Entry | null): Promise<{ header: BackupHeaderBase; bytes: Buffer }> {
  if (entry === null || entry.header.name !== HEADER_ENTRY || entry.header.type !== 'file')
    throw new BackupFileError('not-a-backup', file);
  const bytes = entry.header.size > HEADER_LIMIT ? null : await readAll(entry, HEADER_LIMIT);
  if (bytes === null) throw new BackupFileError('not-a-backup', file);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new BackupFileError('not-a-backup', file);
  }
  const problem = headerProblem(header);
  if (problem === 'newer-format')
    throw new BackupFileError(problem, file, String((header as BackupHeaderBase).formatVersion));
  if (problem !== null) throw new BackupFileError(problem, file);
  return { header: header as BackupHeaderBase, bytes };
}

/** True when the trailer names exactly what was read, in its order. */
function trailerMatches(trailer: unknown, header: Buffer, sql: Digest, images: ImageDigest[]): boolean {
  if (!isObject(trailer) || trailer.format !== TRAILER_FORMAT) return false;
  if (trailer.headerSha256 !== sha256(header)) return false;
  if (trailer.databaseSqlSha256 !== sql.sha256 || trailer.databaseSqlBytes !== sql.bytes) return false;
  const listed = trailer.images;
  return (
    Array.isArray(listed) &&
    listed.length === images.length &&
    listed.every(
      (image: unknown, i) =>
        isObject(image) &&
        image.name === images[i]!.name &&
        image.sha256 === images[i]!.sha256 &&
        image.bytes === images[i]!.bytes,
    )
  );
}

/** Reads the archive through in its order, the SQL and images as `visitor` does, checking each part and the trailer. */
async function readArchive(file: string, visitor: Visitor): Promise<BackupHeaderBase> {
  return withEntries(file, true, async (next) => {
    const { header, bytes } = await readHeader(file, await next());

    const sqlEntry = await next();
    if (sqlEntry === null) throw new BackupFileError('incomplete', file);
    if (sqlEntry.header.name !== SQL_ENTRY || sqlEntry.header.type !== 'file')
      throw new BackupFileError('damaged', file, `${sqlEntry.header.name} where ${SQL_ENTRY} belongs`);
    const sql = await visitor.sql(sqlEntry);

    const images: ImageDigest[] = [];
    const names = new Set<string>();
    let trailerEntry: Entry | null = null;
    while (trailerEntry === null) {
      const entry = await next();
      if (entry === null) throw new BackupFileError('incomplete', file); // no trailer
      const { name: entryName, type } = entry.header;
      if (entryName === TRAILER_ENTRY && type === 'file') trailerEntry = entry;
      else {
        const name = entryName.startsWith(UPLOADS_PREFIX) ? entryName.slice(UPLOADS_PREFIX.length) : '';
        if (type !== 'file' || !isUploadName(name) || names.has(name))
          throw new BackupFileError('damaged', file, `an unexpected entry: ${JSON.stringify(entryName)}`);
        names.add(name);
        const digest = await visitor.image(name, entry);
        checkImage(file, name, digest);
        images.push({ name, ...digest });
      }
    }

    const trailerBytes = trailerEntry.header.size > TRAILER_LIMIT ? null : await readAll(trailerEntry, TRAILER_LIMIT);
    if (trailerBytes === null) throw new BackupFileError('damaged', file, `${TRAILER_ENTRY} is too large`);
    if ((await next()) !== null) throw new BackupFileError('damaged', file, `an entry after ${TRAILER_ENTRY}`);
    let trailer: unknown;
    try {
      trailer = JSON.parse(trailerBytes.toString('utf8'));
    } catch {
      throw new BackupFileError('damaged', file, `${TRAILER_ENTRY} is not JSON`);
    }
    if (!trailerMatches(trailer, bytes, sql, images)) throw new BackupFileError('damaged', file, TRAILER_ENTRY);
    return header;
  });
}

/**
 * Reads the whole file once, checks gzip, tar, header (first entry, JSON, format === 'porpoise-backup',
 * formatVersion an integer; > BACKUP_FORMAT_VERSION -> 'newer-format'), entry order, every checksum
 * and the trailer; returns the header. Never trusts sizes for memory: the header entry is limited
 * to 1 MB, the trailer to 64 MB; the SQL and images are streamed and hashed. An image whose bytes
 * do not hash to its name's sha256 prefix (the name is `<sha256 of bytes>.webp`) is 'damaged'.
 */
export async function verifyBackupFile(file: string): Promise<BackupHeaderBase> {
  return readArchive(file, { sql: digestOf, image: (_name, entry) => digestOf(entry) });
}

/**
 * Reads the file again (call after verifyBackupFile), handing the SQL as a Readable to onSql (which
 * must consume it fully; its promise is awaited before the next entry), then each image to
 * onImage(name, bytes), each checked against its name before it is handed. The SQL's checksum is
 * in the trailer, last: a mismatch there throws 'damaged' after onSql has seen it all (so its work
 * must be undone then, as a restore's transaction is). Returns the header.
 */
export async function readBackupFile(
  file: string,
  handlers: {
    onSql(sql: NodeJS.ReadableStream): Promise<void>;
    onImage(name: string, bytes: Buffer): Promise<void>;
  },
): Promise<BackupHeaderBase> {
  return readArchive(file, {
    async sql(entry) {
      const { stream, digest } = hashing();
      const passing = pipeline(entry as AsyncIterable<Buffer>, stream);
      // A handler that fails, or returns before the end, stops the stream (else it would wait for it forever).
      const consuming = handlers.onSql(stream).then(
        () => {
          if (!stream.readableEnded) stream.destroy(new Error('onSql returned before reading all of the SQL'));
        },
        (error: unknown) => {
          stream.destroy(error instanceof Error ? error : new Error(String(error)));
          throw error;
        },
      );
      const [passed, consumed] = await Promise.allSettled([passing, consuming]);
      // The file's failure (cut, damaged) is the cause of the handler's, if both failed; else the handler's is.
      if (passed.status === 'rejected' && (consumed.status === 'fulfilled' || isArchiveError(passed.reason)))
        throw passed.reason;
      if (consumed.status === 'rejected') throw consumed.reason;
      return digest();
    },
    async image(name, entry) {
      const bytes = await readAll(entry, IMAGE_LIMIT);
      if (bytes === null) throw new BackupFileError('damaged', file, `${UPLOADS_PREFIX}${name} is too large`);
      const digest = { sha256: sha256(bytes), bytes: bytes.length };
      checkImage(file, name, digest);
      await handlers.onImage(name, bytes);
      return digest;
    },
  });
}

/** Only the header (reads just the first entry; for listing backups). Throws BackupFileError not-a-backup if not one (and newer-format for a newer one). */
export async function readBackupHeader(file: string): Promise<BackupHeaderBase> {
  return withEntries(file, false, async (next) => (await readHeader(file, await next())).header);
}
