/** PostgreSQL error helpers; drizzle wraps driver errors, so look through `cause` too. */
interface PgError {
  code?: string;
  constraint?: string;
  constraint_name?: string;
}

function pgError(error: unknown): PgError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const candidate = current as PgError & { cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) return candidate;
    current = candidate.cause;
  }
  return undefined;
}

/** The name of the unique constraint a statement violated, if that is what failed. */
export function uniqueViolation(error: unknown): string | undefined {
  const found = pgError(error);
  if (found?.code !== '23505') return undefined;
  return found.constraint ?? found.constraint_name ?? '';
}

/** True when a statement would have left a key naming a row that is not there (or deleted a row a key names). */
export const isForeignKeyViolation = (error: unknown) => pgError(error)?.code === '23503';

/** True when PostgreSQL broke a deadlock by rolling this statement back (it may run again). */
export const isDeadlock = (error: unknown) => pgError(error)?.code === '40P01';

/**
 * Runs `work` (a whole transaction) again when PostgreSQL rolled it back to break a deadlock,
 * up to `attempts` times in all; any other error, or the last deadlock, is thrown.
 */
export async function retryDeadlocked<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isDeadlock(error) || attempt >= attempts) throw error;
    }
  }
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

/** True when the database could not be reached (down, restarting, refusing connections). */
export function isConnectionError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const candidate = current as { code?: string; message?: string; cause?: unknown };
    if (candidate.code && (CONNECTION_CODES.has(candidate.code) || /^(08|57P0)/.test(candidate.code))) return true;
    if (
      candidate.message &&
      /Connection terminated|connection is closed|Client has encountered a connection error/i.test(candidate.message)
    )
      return true;
    current = candidate.cause;
  }
  return false;
}
