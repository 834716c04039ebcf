import { MESSAGES, ORDERS, type Order } from '@porpoise/core';
import { badRequest } from './http-error.ts';

/**
 * Where a page of the home list ends, in the list's own order: the sort keys of its last
 * row. The next page is the rows after it (a keyset: an index scan from that row, however
 * deep), so deep pages need no offset.
 */
export interface ListPosition {
  order: Order;
  /** The last row's last_activity_at for 'active', else its ask_date_time, to the microsecond, UTC. */
  at: string;
  /** The last row's view_count, for 'mostViewed' only (else null). */
  views: number | null;
  id: number;
}

/** A timestamp as the list query writes it (to_char ... 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'): fixed width. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const MAX_VIEWS = 2_147_483_647;
/** base64url of the four keys stays far below this. */
const MAX_CURSOR_LENGTH = 200;

/** A real instant in that format (no 30 February: the database would refuse it), from year 1000 on. */
function isTimestamp(text: string): boolean {
  if (!TIMESTAMP.test(text) || text < '1000') return false;
  const toMilliseconds = `${text.slice(0, 23)}Z`;
  const parsed = new Date(toMilliseconds);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString() === toMilliseconds;
}

/** The opaque text a client sends back as `cursor`. */
export function encodeCursor(position: ListPosition): string {
  const { order, at, views, id } = position;
  return Buffer.from(JSON.stringify([order, at, views, id])).toString('base64url');
}

/**
 * The position a cursor names, for a list in `order`. Anything that is not a cursor this
 * server made for that order (other bytes, another shape, another order) is 400.
 */
export function decodeCursor(cursor: string, order: Order): ListPosition {
  const invalid = badRequest(MESSAGES.invalidCursor);
  if (cursor.length > MAX_CURSOR_LENGTH) throw invalid;
  const bytes = Buffer.from(cursor, 'base64url');
  // Buffer skips characters outside base64url: only the canonical text of its bytes is one.
  if (bytes.toString('base64url') !== cursor) throw invalid;
  let keys: unknown;
  try {
    keys = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw invalid;
  }
  if (!Array.isArray(keys) || keys.length !== 4) throw invalid;
  const [cursorOrder, at, views, id] = keys as unknown[];
  if (cursorOrder !== order || !ORDERS.includes(order)) throw invalid;
  if (typeof at !== 'string' || !isTimestamp(at)) throw invalid;
  if (!Number.isSafeInteger(id) || (id as number) < 1) throw invalid;
  const viewsValid =
    order === 'mostViewed'
      ? Number.isSafeInteger(views) && (views as number) >= 0 && (views as number) <= MAX_VIEWS
      : views === null;
  if (!viewsValid) throw invalid;
  return { order, at, views: views as number | null, id: id as number };
}
