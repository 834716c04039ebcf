import { availableParallelism } from 'node:os';
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { MESSAGES } from '@porpoise/core';
import { HttpError } from '../http/http-error.ts';

/** scrypt's cost: N (CPU and memory), r (block size), p (parallelism). */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/**
 * OWASP's minimum for scrypt: N=2^17, r=8, p=1, 128 MiB per hash (README.md gives the time
 * on our machine). Stored with each hash, so older hashes still verify and are upgraded
 * at their next sign-in.
 */
export const PASSWORD_PARAMS: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };

const KEY_LENGTH = 64;

/** What scrypt allocates for these parameters (OpenSSL's check: 128 * r * (N + 2 + p) bytes). */
const memoryFor = ({ N, r, p }: ScryptParams) => 128 * r * (N + 2 + p);

// Stored parameters beyond these are refused rather than run: 1 GiB would be a bad hash.
const MAX_MEMORY = 1024 * 1024 * 1024;

/**
 * Hashes run in libuv's thread pool, each holding its memory (128 MiB at N=2^17) until it
 * ends: at most this many at once per process, so a burst of sign-ins cannot exhaust
 * memory, and at most MAX_WAITING more wait their turn (a request past that gets 503).
 */
export const HASH_CONCURRENCY = Math.max(1, Math.min(4, availableParallelism()));
export const MAX_WAITING = 64;

const slots = { running: 0, peak: 0, waiting: [] as Array<() => void> };

/** How many hashes run now and the most that ever ran at once (the test of the bound reads it). */
export const hashingLoad = () => ({ running: slots.running, waiting: slots.waiting.length, peak: slots.peak });

async function inSlot<T>(work: () => Promise<T>): Promise<T> {
  if (slots.running < HASH_CONCURRENCY) slots.running++;
  else if (slots.waiting.length >= MAX_WAITING) throw new HttpError(503, MESSAGES.unavailable, { 'Retry-After': '1' });
  // A finished hash hands its slot straight to the next in line, so `running` never passes the bound.
  else await new Promise<void>((resolve) => slots.waiting.push(resolve));
  slots.peak = Math.max(slots.peak, slots.running);
  try {
    return await work();
  } finally {
    const next = slots.waiting.shift();
    if (next) next();
    else slots.running--;
  }
}

function scrypt(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return inSlot(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        const options = { ...params, maxmem: memoryFor(params) + 1024 * 1024 };
        scryptCallback(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
          error ? reject(error) : resolve(key),
        );
      }),
  );
}

/** The parameters a stored hash was made with, or null when it is not a usable scrypt hash. */
function storedParams(stored: string): (ScryptParams & { salt: string; hash: string }) | null {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const sane = Object.values(params).every((value) => Number.isSafeInteger(value) && value > 0);
  if (scheme !== 'scrypt' || !salt || !hash || !sane || memoryFor(params) > MAX_MEMORY) return null;
  return { ...params, salt, hash };
}

/** A salted scrypt hash in the form `scrypt$N$r$p$salt$hash` (base64). */
export async function hashPassword(password: string, params: ScryptParams = PASSWORD_PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = storedParams(stored);
  if (!parsed) return false;
  const expected = Buffer.from(parsed.hash, 'base64');
  const key = await scrypt(password, Buffer.from(parsed.salt, 'base64'), parsed);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** True when a stored hash is weaker than `params` in any of N, r or p: its next sign-in rewrites it. */
export function needsRehash(stored: string, params: ScryptParams): boolean {
  const parsed = storedParams(stored);
  return !parsed || parsed.N < params.N || parsed.r < params.r || parsed.p < params.p;
}

const decoys = new Map<string, Promise<string>>();

/** A hash of a random password, checked when the username is unknown so both cases take as long. */
export function decoyHash(params: ScryptParams): Promise<string> {
  const key = `${params.N}$${params.r}$${params.p}`;
  let decoy = decoys.get(key);
  if (!decoy) {
    decoy = hashPassword(randomBytes(16).toString('hex'), params);
    // A refused decoy (the queue was full) is made again by the next unknown name.
    void decoy.catch(() => decoys.delete(key));
    decoys.set(key, decoy);
  }
  return decoy;
}
