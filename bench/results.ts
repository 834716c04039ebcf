// The benches' record: every run appends one CSV line per figure to bench/results/runs.csv
// (the history), and bench/RESULTS.md is rewritten from it as the latest figure of each row.
import fs from 'node:fs';
import path from 'node:path';

/** One measured figure of a run: `row` names what was measured, stable from run to run. */
export interface Figure {
  row: string;
  figure: number | string;
  unit: string;
}

/** A CSV line: when, at which commit, which run (bench and data size), and the figure. */
export interface RecordedFigure extends Figure {
  date: string;
  commit: string;
  run: string;
}

const COLUMNS = ['date', 'commit', 'run', 'row', 'figure', 'unit'] as const;

const field = (value: string | number) => {
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export const csvLine = (figure: RecordedFigure) => COLUMNS.map((column) => field(figure[column])).join(',');

/** Splits CSV text into records of fields (quoted fields may hold commas, quotes and newlines); one pass. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let value = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        value += '"';
        i++;
      } else if (char === '"') quoted = false;
      else value += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(value);
      value = '';
    } else if (char === '\n') {
      record.push(value);
      records.push(record);
      record = [];
      value = '';
    } else if (char !== '\r') value += char;
  }
  if (value !== '' || record.length > 0) records.push([...record, value]);
  return records;
}

export function readFigures(csvPath: string): RecordedFigure[] {
  if (!fs.existsSync(csvPath)) return [];
  const [header, ...records] = parseCsv(fs.readFileSync(csvPath, 'utf8'));
  const at = (name: (typeof COLUMNS)[number]) => header!.indexOf(name);
  return records.map((record) => ({
    date: record[at('date')] ?? '',
    commit: record[at('commit')] ?? '',
    run: record[at('run')] ?? '',
    row: record[at('row')] ?? '',
    figure: record[at('figure')] ?? '',
    unit: record[at('unit')] ?? '',
  }));
}

const cell = (value: string | number) => String(value).replaceAll('|', '\\|');

/** The latest figure of each (run, row, unit), grouped by run in the order runs first appeared. */
export function latestTable(figures: readonly RecordedFigure[]): string {
  const latest = new Map<string, Map<string, RecordedFigure>>();
  for (const figure of figures) {
    const rows = latest.get(figure.run) ?? new Map<string, RecordedFigure>();
    latest.set(figure.run, rows);
    const key = `${figure.row}\n${figure.unit}`;
    const before = rows.get(key);
    // Lines are appended in time order; a later line of the same row replaces the earlier one.
    if (before === undefined || before.date <= figure.date) rows.set(key, figure);
  }
  const sections = [...latest].map(([run, rows]) =>
    [
      `## ${run}`,
      '',
      '| row | figure | unit | date | commit |',
      '| --- | ---: | --- | --- | --- |',
      // Newest first, so rows a bench no longer measures sink to the end of their run.
      ...[...rows.values()]
        .sort((a, b) => (a.date === b.date ? 0 : a.date < b.date ? 1 : -1))
        .map((f) => `| ${[f.row, f.figure, f.unit, f.date, f.commit].map(cell).join(' | ')} |`),
    ].join('\n'),
  );
  return `# Benchmark results

The latest figure of each row, rewritten by every \`npm run bench\`, \`npm run bench:render\` and
\`npm run drill\`. Every run's figures, one line each, are in \`results/runs.csv\`; each run
prints its full report (targets and notes) to the console. What the rows measure: README.md
and bench/README.md.

${sections.join('\n\n')}
`;
}

/** Appends a run's figures to bench/results/runs.csv and rewrites bench/RESULTS.md from it. */
export function recordRun(
  repoRoot: string,
  { run, date, commit, figures }: { run: string; date: Date; commit: string; figures: readonly Figure[] },
): void {
  const csvPath = path.join(repoRoot, 'bench/results/runs.csv');
  fs.mkdirSync(path.dirname(csvPath), { recursive: true });
  if (!fs.existsSync(csvPath)) fs.writeFileSync(csvPath, `${COLUMNS.join(',')}\n`);
  const when = `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const lines = figures.map((figure) => csvLine({ ...figure, date: when, commit: commit || 'unknown', run }));
  fs.appendFileSync(csvPath, lines.map((line) => `${line}\n`).join(''));
  fs.writeFileSync(path.join(repoRoot, 'bench/RESULTS.md'), latestTable(readFigures(csvPath)));
}
