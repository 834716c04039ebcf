import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv, readFigures, recordRun } from './results.ts';

describe('bench results', () => {
  it('reads back quoted fields with commas, quotes and newlines', () => {
    expect(parseCsv('a,"b, c","say ""hi""\nthere"\n1,2,3\n')).toEqual([
      ['a', 'b, c', 'say "hi"\nthere'],
      ['1', '2', '3'],
    ]);
  });

  it('appends each run to the CSV and keeps only the latest figure of each row in RESULTS.md', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-results-'));
    try {
      const row = 'home list, newest, first page';
      recordRun(root, {
        run: 'npm run bench, 100 questions',
        date: new Date('2026-01-01T10:00:00Z'),
        commit: 'aaaaaaa',
        figures: [
          { row, figure: 100, unit: 'req/s' },
          { row: 'retired | row', figure: 7, unit: 'ms' },
        ],
      });
      recordRun(root, {
        run: 'npm run bench, 100 questions',
        date: new Date('2026-01-02T10:00:00Z'),
        commit: 'bbbbbbb',
        figures: [{ row, figure: 200, unit: 'req/s' }],
      });
      expect(readFigures(path.join(root, 'bench/results/runs.csv')).map((f) => [f.row, f.figure, f.commit])).toEqual([
        [row, '100', 'aaaaaaa'],
        ['retired | row', '7', 'aaaaaaa'],
        [row, '200', 'bbbbbbb'],
      ]);
      const table = fs.readFileSync(path.join(root, 'bench/RESULTS.md'), 'utf8');
      expect(table).toContain(`| ${row} | 200 | req/s | 2026-01-02 10:00 UTC | bbbbbbb |`);
      expect(table).not.toContain('| 100 |');
      expect(table).toContain('| retired \\| row | 7 | ms | 2026-01-01 10:00 UTC | aaaaaaa |');
      // The newest rows first.
      expect(table.indexOf(row)).toBeLessThan(table.indexOf('retired'));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
