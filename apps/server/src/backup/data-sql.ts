// The SQL part of a backup (docs/product.md section 15): data only, in pg_dump's plain text
// form, `COPY public.t (columns) FROM stdin;`, rows in COPY's text format, `\.`, then
// `SELECT pg_catalog.setval('public.s', n, true);`. pg_dump writes it on PostgreSQL; the
// embedded database writes the same with PostgreSQL's own COPY (export.ts). The schema is
// never in it: our migrations build it on either database.
//
// Restoring reads it with a closed grammar, line by line, and runs only what it understood:
// rows loaded into the tables the header lists and sequences of those tables set. Anything else
// (a DROP TABLE, a COPY ... PROGRAM, another schema) ends the restore, so a crafted file can
// put rows in Porpoise's tables and nothing more.

/** What reading the SQL part yields, in order. */
export type DataSqlEvent =
  | { kind: 'copy'; table: string; columns: string[] }
  /** Whole rows of the COPY just announced, each ending in a newline (at most about CHUNK_BYTES). */
  | { kind: 'rows'; table: string; text: string; count: number }
  | { kind: 'end-copy'; table: string; rows: number }
  | { kind: 'setval'; sequence: string; value: string; called: boolean };

export class DataSqlError extends Error {
  constructor(line: number, message: string) {
    super(`line ${line} of the backup's SQL: ${message}`);
    this.name = 'DataSqlError';
  }
}

/** Rows are handed on in pieces of about this size, so no table is ever held whole. */
const CHUNK_BYTES = 4 * 2 ** 20;
/** No row of ours comes near this (a post is at most tens of kB); a longer line is not a backup's. */
const MAX_LINE_BYTES = 64 * 2 ** 20;

const IDENTIFIER = /^(?:[a-z_][a-z0-9_$]*|"[^"]+")$/;

/** Whether a row holds the escape `\.` (linear: one look at each backslash). */
function hasEndMarker(text: string): boolean {
  for (let at = text.indexOf('\\'); at >= 0; at = text.indexOf('\\', at + 2)) {
    if (text[at + 1] === '.') return true;
  }
  return false;
}

/** An identifier as pg_dump writes it (bare when it needs no quotes), as its name. */
function identifierName(text: string, line: number): string {
  if (!IDENTIFIER.test(text)) throw new DataSqlError(line, `not a plain identifier: ${text.slice(0, 80)}`);
  return text.startsWith('"') ? text.slice(1, -1) : text;
}

/** `public.t`, `public."t"`: the table's name, in the public schema only. */
function publicName(text: string, line: number): string {
  const dot = text.indexOf('.');
  if (dot < 0 || identifierName(text.slice(0, dot), line) !== 'public')
    throw new DataSqlError(line, `not a table of the public schema: ${text.slice(0, 80)}`);
  return identifierName(text.slice(dot + 1), line);
}

const COPY_START = 'COPY ';
const COPY_END = ' FROM stdin;';
const SETVAL_START = "SELECT pg_catalog.setval('";
const SET_STATEMENT = /^SET [a-z_]+ = [^;]*;$/;
/** Lines of a pg_dump preamble that set the session up; understood and not run. */
const SKIPPED = new Set(["SELECT pg_catalog.set_config('search_path', '', false);"]);

function parseCopy(text: string, line: number): { table: string; columns: string[] } {
  const open = text.indexOf(' (');
  if (!text.endsWith(`)${COPY_END}`) || open < 0) throw new DataSqlError(line, 'a COPY not of the form pg_dump writes');
  const table = publicName(text.slice(COPY_START.length, open), line);
  const columns = text
    .slice(open + 2, -COPY_END.length - 1)
    .split(', ')
    .map((column) => identifierName(column, line));
  return { table, columns };
}

function parseSetval(text: string, line: number): { sequence: string; value: string; called: boolean } {
  const match = /^SELECT pg_catalog\.setval\('([^']+)', (\d{1,19}), (true|false)\);$/.exec(text);
  if (!match) throw new DataSqlError(line, 'a setval not of the form pg_dump writes');
  return { sequence: publicName(match[1]!, line), value: match[2]!, called: match[3] === 'true' };
}

/**
 * Reads the SQL part from a byte stream. `columnsOf(table)` gives the columns the header lists
 * for a table (undefined for a table not in it); a COPY naming others is refused, as is a
 * sequence `sequenceAllowed` does not know. Lines end in \n only (COPY escapes any other).
 */
export async function* readDataSql(
  input: AsyncIterable<Buffer | string>,
  columnsOf: (table: string) => readonly string[] | undefined,
  sequenceAllowed: (sequence: string) => boolean,
): AsyncGenerator<DataSqlEvent> {
  let lineNumber = 0;
  let copying: { table: string; rows: number } | null = null;
  let pending: string[] = [];
  let pendingBytes = 0;
  let pendingCount = 0;
  let rest = '';
  const decoder = new TextDecoder('utf-8', { fatal: true });

  function* flushRows(): Generator<DataSqlEvent> {
    if (copying === null || pendingCount === 0) return;
    yield { kind: 'rows', table: copying.table, text: pending.join(''), count: pendingCount };
    pending = [];
    pendingBytes = 0;
    pendingCount = 0;
  }

  function* onLine(text: string): Generator<DataSqlEvent> {
    lineNumber += 1;
    if (copying !== null) {
      if (text === '\\.') {
        yield* flushRows();
        yield { kind: 'end-copy', table: copying.table, rows: copying.rows };
        copying = null;
        return;
      }
      // psql and the server read a `\.` anywhere in a row, and a carriage return, as the end of
      // the rows (and psql what follows as commands): COPY's text escapes neither in a row.
      if (text.includes('\r') || hasEndMarker(text))
        throw new DataSqlError(lineNumber, `a row of ${copying.table} that COPY's text never holds`);
      copying.rows += 1;
      pending.push(`${text}\n`);
      pendingBytes += text.length + 1;
      pendingCount += 1;
      if (pendingBytes >= CHUNK_BYTES) yield* flushRows();
      return;
    }
    if (text === '' || text.startsWith('--') || SKIPPED.has(text) || SET_STATEMENT.test(text)) return;
    // pg_dump (15.14, 16.10, 17.6 and later) brackets its output in psql's \restrict/\unrestrict.
    if (/^\\(?:un)?restrict [A-Za-z0-9]+$/.test(text)) return;
    if (text.startsWith(COPY_START)) {
      const { table, columns } = parseCopy(text, lineNumber);
      const expected = columnsOf(table);
      if (expected === undefined)
        throw new DataSqlError(lineNumber, `rows for a table the backup does not list: ${table}`);
      if (expected.join(',') !== columns.join(','))
        throw new DataSqlError(lineNumber, `the columns of ${table} are not the ones the backup lists`);
      copying = { table, rows: 0 };
      yield { kind: 'copy', table, columns };
      return;
    }
    if (text.startsWith(SETVAL_START)) {
      const setval = parseSetval(text, lineNumber);
      if (!sequenceAllowed(setval.sequence))
        throw new DataSqlError(lineNumber, `a sequence the backup does not list: ${setval.sequence}`);
      yield { kind: 'setval', ...setval };
      return;
    }
    throw new DataSqlError(lineNumber, `not part of a data backup: ${text.slice(0, 80)}`);
  }

  const decode = (chunk?: Buffer) => {
    try {
      return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch {
      throw new DataSqlError(lineNumber + 1, 'not UTF-8 text');
    }
  };
  for await (const chunk of input) {
    const text = rest + (typeof chunk === 'string' ? chunk : decode(chunk));
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      yield* onLine(text.slice(start, end));
      start = end + 1;
    }
    rest = text.slice(start);
    if (rest.length > MAX_LINE_BYTES) throw new DataSqlError(lineNumber + 1, 'a line longer than any row of ours');
  }
  rest += decode();
  if (rest !== '') yield* onLine(rest);
  if (copying !== null)
    throw new DataSqlError(lineNumber, `the rows of ${(copying as { table: string }).table} never end`);
}

/** An identifier quoted for SQL (ours are plain; quoting also covers words PostgreSQL reserves). */
export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** The line that opens a table's rows, as pg_dump writes it (quoted names parse the same). */
export const copyLine = (table: string, columns: readonly string[]): string =>
  `COPY public.${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(', ')}) FROM stdin;\n`;

export const setvalLine = (sequence: string, value: string, called: boolean): string =>
  `SELECT pg_catalog.setval('public.${sequence}', ${value}, ${called});\n`;
