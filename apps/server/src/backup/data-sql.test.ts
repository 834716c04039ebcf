// The reader of a backup's SQL part (data-sql.ts): what pg_dump 15 and 17 write parses into
// the same events however the bytes arrive, and anything outside the closed grammar is refused.
import { describe, expect, it } from 'vitest';
import { copyLine, DataSqlError, readDataSql, setvalLine, type DataSqlEvent } from './data-sql.ts';

/** The tables and sequences "the header lists" in these tests. */
const TABLES: Record<string, readonly string[]> = {
  accounts: ['id', 'username', 'email'],
  user: ['id', 'name'],
  questions: ['id', 'title', 'text'],
};
const SEQUENCES = new Set(['accounts_id_seq', 'user_id_seq', 'questions_id_seq']);

const columnsOf = (table: string) => TABLES[table];
const sequenceAllowed = (sequence: string) => SEQUENCES.has(sequence);

async function* chunks<T>(parts: Iterable<T>): AsyncGenerator<T> {
  for (const part of parts) yield part;
}

async function read(parts: Iterable<Buffer | string>): Promise<DataSqlEvent[]> {
  const events: DataSqlEvent[] = [];
  for await (const event of readDataSql(chunks(parts), columnsOf, sequenceAllowed)) events.push(event);
  return events;
}

/** What reading `sql` throws (or undefined), the text fed whole. */
async function failureOf(parts: Iterable<Buffer | string>): Promise<unknown> {
  try {
    await read(parts);
  } catch (error) {
    return error;
  }
  return undefined;
}

// Rows in COPY's text format: tabs between columns, and a tab, a newline and a backslash in a
// value written as \t, \n, \\; \N is NULL.
const ACCOUNT_ROWS = ['1\talice\talice@example.com', '2\tbob\\tby\\ttab\\nand\\\\slash\t\\N'];

function dump(version: '15.14' | '17.6'): string {
  return [
    '--',
    '-- PostgreSQL database dump',
    '--',
    '',
    '\\restrict brgDnday369mlju6MA19ccxvE2tBt8cu4LeCq3o5N1v1BblDhTvBg9llSktjxeO',
    '',
    `-- Dumped from database version ${version}`,
    `-- Dumped by pg_dump version ${version}`,
    '',
    'SET statement_timeout = 0;',
    'SET lock_timeout = 0;',
    'SET idle_in_transaction_session_timeout = 0;',
    ...(version === '17.6' ? ['SET transaction_timeout = 0;'] : []),
    "SET client_encoding = 'UTF8';",
    'SET standard_conforming_strings = on;',
    "SELECT pg_catalog.set_config('search_path', '', false);",
    'SET check_function_bodies = false;',
    'SET xmloption = content;',
    'SET client_min_messages = warning;',
    'SET row_security = off;',
    '',
    '--',
    '-- Data for Name: accounts; Type: TABLE DATA; Schema: public; Owner: -',
    '--',
    '',
    'COPY public.accounts (id, username, email) FROM stdin;',
    ...ACCOUNT_ROWS,
    '\\.',
    '',
    '',
    '--',
    '-- Data for Name: user; Type: TABLE DATA; Schema: public; Owner: -',
    '--',
    '',
    'COPY public."user" (id, name) FROM stdin;',
    '\\.',
    '',
    '',
    '--',
    '-- Name: accounts_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -',
    '--',
    '',
    "SELECT pg_catalog.setval('public.accounts_id_seq', 2, true);",
    "SELECT pg_catalog.setval('public.user_id_seq', 1, false);",
    '',
    '',
    '--',
    '-- PostgreSQL database dump complete',
    '--',
    '',
    '\\unrestrict brgDnday369mlju6MA19ccxvE2tBt8cu4LeCq3o5N1v1BblDhTvBg9llSktjxeO',
    '',
  ].join('\n');
}

const DUMP_EVENTS: DataSqlEvent[] = [
  { kind: 'copy', table: 'accounts', columns: ['id', 'username', 'email'] },
  { kind: 'rows', table: 'accounts', text: ACCOUNT_ROWS.map((row) => `${row}\n`).join(''), count: 2 },
  { kind: 'end-copy', table: 'accounts', rows: 2 },
  { kind: 'copy', table: 'user', columns: ['id', 'name'] },
  { kind: 'end-copy', table: 'user', rows: 0 },
  { kind: 'setval', sequence: 'accounts_id_seq', value: '2', called: true },
  { kind: 'setval', sequence: 'user_id_seq', value: '1', called: false },
];

describe('readDataSql', () => {
  it.each(['15.14', '17.6'] as const)("reads pg_dump %s's data-only output, preamble and all", async (version) => {
    expect(await read([dump(version)])).toEqual(DUMP_EVENTS);
    expect(await read([Buffer.from(dump(version))])).toEqual(DUMP_EVENTS);
  });

  it('hands rows on as the text they are, escapes and NULLs unchanged', async () => {
    const rows = ['7\ta\\tb\\nc\\\\d\t\\N', '8\t\\\\N is not null\te\\\\\\\\', '9\t\\\\.\tnot the end'];
    const events = await read([`COPY public.accounts (id, username, email) FROM stdin;\n${rows.join('\n')}\n\\.\n`]);
    expect(events).toEqual([
      { kind: 'copy', table: 'accounts', columns: ['id', 'username', 'email'] },
      { kind: 'rows', table: 'accounts', text: `${rows.join('\n')}\n`, count: 3 },
      { kind: 'end-copy', table: 'accounts', rows: 3 },
    ]);
  });

  it('reads quoted identifiers as their names', async () => {
    const events = await read([
      'COPY public."user" ("id", name) FROM stdin;\n1\tx\n\\.\n',
      'COPY "public".questions (id, "title", text) FROM stdin;\n\\.\n',
      `SELECT pg_catalog.setval('public."user_id_seq"', 5, true);\n`,
    ]);
    expect(events).toEqual([
      { kind: 'copy', table: 'user', columns: ['id', 'name'] },
      { kind: 'rows', table: 'user', text: '1\tx\n', count: 1 },
      { kind: 'end-copy', table: 'user', rows: 1 },
      { kind: 'copy', table: 'questions', columns: ['id', 'title', 'text'] },
      { kind: 'end-copy', table: 'questions', rows: 0 },
      { kind: 'setval', sequence: 'user_id_seq', value: '5', called: true },
    ]);
  });

  it('gives the same events however the bytes are cut, inside a line or a character', async () => {
    const text = [
      'SET statement_timeout = 0;',
      'COPY public.questions (id, title, text) FROM stdin;',
      '1\tCafé 🐬\tLes dauphins\\tnagent 🐬🐬 é',
      '2\tà\\N\t\\N',
      '\\.',
      "SELECT pg_catalog.setval('public.questions_id_seq', 2, true);",
    ].join('\n');
    const bytes = Buffer.from(text);
    const whole = await read([bytes]);
    expect(whole).toEqual([
      { kind: 'copy', table: 'questions', columns: ['id', 'title', 'text'] },
      {
        kind: 'rows',
        table: 'questions',
        text: '1\tCafé 🐬\tLes dauphins\\tnagent 🐬🐬 é\n2\tà\\N\t\\N\n',
        count: 2,
      },
      { kind: 'end-copy', table: 'questions', rows: 2 },
      { kind: 'setval', sequence: 'questions_id_seq', value: '2', called: true },
    ]);
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at byte ${cut}`).toEqual(whole);
    }
    // And one byte at a time, each 4-byte 🐬 arriving in four pieces.
    expect(await read(Array.from(bytes, (byte) => Buffer.from([byte])))).toEqual(whole);
  });

  it('hands a large table on in several pieces of rows, which add up to the table', async () => {
    const row = (i: number) => `${i}\tuser_${i}\t${'x'.repeat(80)}@example.com`;
    const total = 100_000; // about 10 MB of rows
    const body = Array.from({ length: total }, (_, i) => `${row(i)}\n`).join('');
    // Fed in 64 kB pieces, as a stream would.
    const sql = Buffer.from(`COPY public.accounts (id, username, email) FROM stdin;\n${body}\\.\n`);
    const parts = Array.from({ length: Math.ceil(sql.length / 65_536) }, (_, i) =>
      sql.subarray(i * 65_536, (i + 1) * 65_536),
    );
    const events = await read(parts);
    const pieces = events.filter((event) => event.kind === 'rows');
    expect(pieces.length).toBeGreaterThanOrEqual(2);
    for (const piece of pieces) {
      expect(piece.text.endsWith('\n')).toBe(true);
      expect(piece.text.split('\n').length - 1).toBe(piece.count);
      // About 4 MB each: no piece holds the table.
      expect(piece.text.length).toBeLessThan(5 * 2 ** 20);
    }
    expect(pieces.reduce((sum, piece) => sum + piece.count, 0)).toBe(total);
    expect(pieces.map((piece) => piece.text).join('')).toBe(body);
    expect(events.at(0)).toEqual({ kind: 'copy', table: 'accounts', columns: ['id', 'username', 'email'] });
    expect(events.at(-1)).toEqual({ kind: 'end-copy', table: 'accounts', rows: total });
  });

  describe('refuses with DataSqlError', () => {
    const refusals: [string, string, RegExp][] = [
      ['a DROP TABLE', 'DROP TABLE accounts;\n', /^line 1 of the backup's SQL: not part of a data backup: DROP TABLE/],
      [
        'a COPY FROM PROGRAM',
        "COPY public.accounts (id, username, email) FROM PROGRAM 'x';\n",
        /a COPY not of the form pg_dump writes/,
      ],
      [
        'a COPY FROM PROGRAM (one column)',
        "COPY public.accounts (id) FROM PROGRAM 'x';\n",
        /a COPY not of the form pg_dump writes/,
      ],
      [
        'a COPY TO stdout',
        'COPY public.accounts (id, username, email) TO stdout;\n',
        /a COPY not of the form pg_dump writes/,
      ],
      [
        'a COPY into a table the header does not list',
        'COPY public.secrets (id) FROM stdin;\n\\.\n',
        /rows for a table the backup does not list: secrets/,
      ],
      [
        'a COPY with the columns in another order',
        'COPY public.accounts (id, email, username) FROM stdin;\n\\.\n',
        /the columns of accounts are not the ones the backup lists/,
      ],
      [
        'a COPY with fewer columns',
        'COPY public.accounts (id, username) FROM stdin;\n\\.\n',
        /the columns of accounts are not the ones the backup lists/,
      ],
      [
        'a COPY into another schema',
        'COPY drizzle.__drizzle_migrations (id) FROM stdin;\n\\.\n',
        /not a table of the public schema: drizzle\.__drizzle_migrations/,
      ],
      [
        'a COPY into a table with no schema',
        'COPY accounts (id, username, email) FROM stdin;\n\\.\n',
        /not a table of the public schema/,
      ],
      [
        'a COPY with a statement hidden in a column list',
        'COPY public.accounts (id, username, email) FROM stdin; DROP TABLE y; --) FROM stdin;\n\\.\n',
        /not a plain identifier/,
      ],
      [
        'a setval of a sequence the header does not list',
        "SELECT pg_catalog.setval('public.x', 1, true);\n",
        /a sequence the backup does not list: x/,
      ],
      [
        'a setval followed by another statement',
        "SELECT pg_catalog.setval('public.x', 1, true); DROP TABLE y;\n",
        /a setval not of the form pg_dump writes/,
      ],
      [
        'a setval of a sequence of another schema',
        "SELECT pg_catalog.setval('drizzle.accounts_id_seq', 1, true);\n",
        /not a table of the public schema/,
      ],
      [
        'a SET that runs something else',
        'SET statement_timeout = 0; DROP TABLE accounts;\n',
        /not part of a data backup/,
      ],
      [
        'a COPY whose rows never end',
        'COPY public.accounts (id, username, email) FROM stdin;\n1\ta\tb\n2\tc\td\n',
        /^line 3 of the backup's SQL: the rows of accounts never end$/,
      ],
      [
        'a COPY whose rows never end, the file ending inside a row',
        'COPY public.accounts (id, username, email) FROM stdin;\n1\ta\tb',
        /the rows of accounts never end/,
      ],
    ];

    it.each(refusals)('%s', async (_name, sql, message) => {
      const error = await failureOf([sql]);
      expect(error).toBeInstanceOf(DataSqlError);
      expect((error as Error).message).toMatch(message);
    });

    it('names the line it refused', async () => {
      const error = await failureOf([`${dump('15.14')}DROP TABLE accounts;\n`]);
      const lines = dump('15.14').split('\n').length;
      expect(error).toBeInstanceOf(DataSqlError);
      expect((error as Error).message).toBe(
        `line ${lines} of the backup's SQL: not part of a data backup: DROP TABLE accounts;`,
      );
    });

    it('stops at the refused line: nothing after it is read', async () => {
      const events: DataSqlEvent[] = [];
      const sql =
        "SELECT pg_catalog.setval('public.accounts_id_seq', 1, true);\nDROP TABLE accounts;\nCOPY public.user (id, name) FROM stdin;\n\\.\n";
      await expect(
        (async () => {
          for await (const event of readDataSql(chunks([sql]), columnsOf, sequenceAllowed)) events.push(event);
        })(),
      ).rejects.toThrow(DataSqlError);
      expect(events).toEqual([{ kind: 'setval', sequence: 'accounts_id_seq', value: '1', called: true }]);
    });
  });

  it('refuses bytes that are not UTF-8, handing on none of their rows', async () => {
    const events: DataSqlEvent[] = [];
    const parts = [
      Buffer.from('COPY public.accounts (id, username, email) FROM stdin;\n1\t'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('\tx\n\\.\n'),
    ];
    await expect(
      (async () => {
        for await (const event of readDataSql(chunks(parts), columnsOf, sequenceAllowed)) events.push(event);
      })(),
    ).rejects.toThrow("line 2 of the backup's SQL: not UTF-8 text");
    expect(events.filter((event) => event.kind !== 'copy')).toEqual([]);
  });

  it('refuses a file that ends inside a character', async () => {
    await expect(read([Buffer.from('SET x = 0;\n'), Buffer.from('🐬').subarray(0, 2)])).rejects.toThrow(DataSqlError);
  });

  it('refuses a line longer than its limit without reading on', async () => {
    const piece = Buffer.alloc(4 * 2 ** 20, 'a');
    let pulled = 0;
    // An endless line: reading must stop once it passes the limit (64 MB), not hold it all.
    async function* endless(): AsyncGenerator<Buffer> {
      for (;;) {
        pulled += 1;
        yield piece;
      }
    }
    const reading = (async () => {
      for await (const _event of readDataSql(endless(), columnsOf, sequenceAllowed));
    })();
    await expect(reading).rejects.toThrow(DataSqlError);
    expect(pulled).toBeLessThanOrEqual(17);
  });
});

describe('copyLine and setvalLine', () => {
  it('write what pg_dump writes, quoted, and read back as the same table and sequence', async () => {
    expect(copyLine('user', ['id', 'name'])).toBe('COPY public."user" ("id", "name") FROM stdin;\n');
    expect(setvalLine('accounts_id_seq', '42', true)).toBe(
      "SELECT pg_catalog.setval('public.accounts_id_seq', 42, true);\n",
    );
    expect(setvalLine('user_id_seq', '1', false)).toBe("SELECT pg_catalog.setval('public.user_id_seq', 1, false);\n");
    const events = await read([
      copyLine('accounts', TABLES.accounts!),
      '1\ta\tb\n\\.\n',
      setvalLine('accounts_id_seq', '9223372036854775807', true),
      setvalLine('user_id_seq', '1', false),
    ]);
    expect(events).toEqual([
      { kind: 'copy', table: 'accounts', columns: ['id', 'username', 'email'] },
      { kind: 'rows', table: 'accounts', text: '1\ta\tb\n', count: 1 },
      { kind: 'end-copy', table: 'accounts', rows: 1 },
      { kind: 'setval', sequence: 'accounts_id_seq', value: '9223372036854775807', called: true },
      { kind: 'setval', sequence: 'user_id_seq', value: '1', called: false },
    ]);
  });
});

describe('rows that would end the rows early for psql or the server', () => {
  const copy = 'COPY public.user (id, name) FROM stdin;\n';
  // Each could make psql leave COPY and read what follows as commands (`\\! ...`, SQL).
  it.each([
    ['an end marker with a carriage return', '\\.\r'],
    ['an end marker with more after it', '\\.x'],
    ['an end marker ending a row', '1\tname\\.'],
    ['an end marker inside a row', '1\ta\\.b'],
    ['a carriage return in a row', '1\tname\r'],
  ])('refuses %s', async (_name, row) => {
    const error = await failureOf([`${copy}${row}\n\\! touch /tmp/x\n\\.\n`]);
    expect(error).toBeInstanceOf(DataSqlError);
    expect((error as Error).message).toBe("line 2 of the backup's SQL: a row of user that COPY's text never holds");
  });

  it('takes an escaped backslash before a dot, which is a value', async () => {
    const events = await read([`${copy}1\tends with \\\\.\n\\.\n`]);
    expect(events).toContainEqual({ kind: 'rows', table: 'user', text: '1\tends with \\\\.\n', count: 1 });
  });
});
