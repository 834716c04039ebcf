// The `lighthouse` row group of `npm run bench` (`npm run bench:lighthouse`, issue 39): Lighthouse
// 12's mobile performance audit (simulated slow 4G and a 4x slower CPU, as PageSpeed Insights
// runs it) of the five pages a member opens most, signed in, on the demo community the
// README's `npm run seed` makes, served by the built app on the embedded database. Each page is
// audited RUNS times and the median run (by performance score) is reported, as Lighthouse's
// own docs advise for its run-to-run variance.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Figure } from './results.ts';
import { startServer } from './server-process.ts';

const run = promisify(execFile);
const RUNS = 3;
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = '--headless --no-sandbox --disable-gpu --disable-background-networking';
/** The targets of issue 39 for each page. */
export const LIGHTHOUSE_TARGETS = { performance: 95, lcpMs: 1500, tbtMs: 100, cls: 0.02 } as const;

export interface PageAudit {
  page: string;
  performance: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
}

interface LighthouseReport {
  categories: { performance: { score: number | null } };
  audits: Record<string, { numericValue?: number }>;
  runtimeError?: { code: string; message: string };
}

/** One audit of `url` with the session cookie; the report's figures. */
async function audit(root: string, url: string, cookie: string, page: string): Promise<PageAudit> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-lh-')), 'report.json');
  try {
    await run(
      path.join(root, 'node_modules/.bin/lighthouse'),
      [
        url,
        '--quiet',
        '--only-categories=performance',
        '--output=json',
        `--output-path=${out}`,
        `--chrome-flags=${CHROME_FLAGS}`,
        `--extra-headers=${JSON.stringify({ Cookie: cookie })}`,
      ],
      { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 16 * 1024 * 1024 },
    );
    const report = JSON.parse(fs.readFileSync(out, 'utf8')) as LighthouseReport;
    const score = report.categories.performance.score;
    if (report.runtimeError || score === null) {
      throw new Error(`Lighthouse could not audit ${page}: ${report.runtimeError?.message ?? 'no score'}`);
    }
    const value = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
    return {
      page,
      performance: Math.round(score * 100),
      fcpMs: Math.round(value('first-contentful-paint')),
      lcpMs: Math.round(value('largest-contentful-paint')),
      tbtMs: Math.round(value('total-blocking-time')),
      cls: Number(value('cumulative-layout-shift').toFixed(3)),
      speedIndexMs: Math.round(value('speed-index')),
    };
  } finally {
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  }
}

/** RUNS audits of a page, the median by score (a run Lighthouse could not trace is run again, up to twice). */
async function medianAudit(root: string, url: string, cookie: string, page: string): Promise<PageAudit> {
  const audits: PageAudit[] = [];
  let failures = 0;
  while (audits.length < RUNS) {
    try {
      audits.push(await audit(root, url, cookie, page));
    } catch (error) {
      // Lighthouse's own trace sometimes misses the navigation's start (NO_NAVSTART).
      if (++failures > 2) throw error;
    }
  }
  audits.sort((a, b) => a.performance - b.performance || b.lcpMs - a.lcpMs);
  return audits[Math.floor(audits.length / 2)]!;
}

/**
 * Seeds the demo community into a new embedded database, starts `root`'s build on it, signs in
 * as the demo's alice and audits /, /home, the newest question, /tags and /profile.
 */
export async function measureLighthouse(root: string, log: (line: string) => void): Promise<PageAudit[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-lighthouse-'));
  try {
    log('lighthouse: seeding the demo community...');
    await run(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'apps/server/src/seed/seed.ts')], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      maxBuffer: 16 * 1024 * 1024,
    });
    const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '' }, 3905, [], root);
    try {
      const signedIn = await fetch(`${server.url}/api/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ username: 'alice', password: 'porpoise-demo' }),
      });
      const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
      if (!signedIn.ok || cookie === '') throw new Error(`signing in as alice: ${signedIn.status}`);
      const newest = await fetch(`${server.url}/api/getQuestion?order=newest&limit=1`, { headers: { cookie } });
      const [question] = (await newest.json()) as Array<{ _id: string }>;
      if (question === undefined) throw new Error('the demo community has no question');
      const pages = ['/', '/home', `/question/${question._id}`, '/tags', '/profile'];
      const audits: PageAudit[] = [];
      for (const page of pages) {
        log(`lighthouse: ${page} (${RUNS} runs)...`);
        audits.push(await medianAudit(root, `${server.url}${page}`, cookie, page));
      }
      return audits;
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The page's name in the rows: the question's id varies from seed to seed. */
const pageName = (page: string) => (page.startsWith('/question/') ? '/question/:id' : page);

/** The bench table's rows and the run's figures for the audits. */
export function lighthouseRows(audits: readonly PageAudit[]): { rows: string[][]; figures: Figure[] } {
  const rows: string[][] = [];
  const figures: Figure[] = [];
  const t = LIGHTHOUSE_TARGETS;
  for (const a of audits) {
    const name = `Lighthouse mobile ${pageName(a.page)}`;
    const met =
      a.performance >= t.performance && a.lcpMs <= t.lcpMs && a.tbtMs <= t.tbtMs && a.cls <= t.cls ? 'met' : 'missed';
    rows.push([
      `${name} (median of ${RUNS}): performance ${a.performance}, FCP ${a.fcpMs} ms, LCP ${a.lcpMs} ms, TBT ${a.tbtMs} ms, CLS ${a.cls}, Speed Index ${a.speedIndexMs} ms`,
      '',
      '',
      '',
      '',
      `performance >= ${t.performance}, LCP <= ${t.lcpMs} ms, TBT <= ${t.tbtMs} ms, CLS <= ${t.cls}`,
      met,
    ]);
    figures.push(
      { row: `${name}: performance`, figure: a.performance, unit: 'score' },
      { row: `${name}: first contentful paint`, figure: a.fcpMs, unit: 'ms' },
      { row: `${name}: largest contentful paint`, figure: a.lcpMs, unit: 'ms' },
      { row: `${name}: total blocking time`, figure: a.tbtMs, unit: 'ms' },
      { row: `${name}: cumulative layout shift`, figure: a.cls, unit: 'score' },
    );
  }
  return { rows, figures };
}
