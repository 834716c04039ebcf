// `npm run bench:render`: where Markdown should be rendered (issue 19 item 4), measured side
// by side in one run on a question with 10 long answers full of code (bench/markdown-posts.ts):
//
// - in the browser, as Porpoise does: Chromium opens the built app's question page; the run
//   notes when the ten answers' text is drawn and when every code block is highlighted, and
//   a CPU profile of the page says how much of it ran in the Markdown and highlighter code
//   (the part a server that cooked posts would take off the reader's machine);
// - at write time on the server ("cooked", as Discourse stores posts): the same parser and
//   highlighter run here, in Node, on the same posts: the server's CPU for the page's posts,
//   and the bytes the page would weigh carrying the cooked trees instead of the text.
//
// The figures go to the console and to bench/results/ (bench/results.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { CodeLanguage, MdBlock } from '@porpoise/core/markdown';
import { highlightable, parseMarkdown } from '@porpoise/core/markdown';
import { createLowlight } from 'lowlight';
import { chromium, type CDPSession } from 'playwright-core';
import { markdownAnswer, MARKDOWN_QUESTION_TEXT } from './markdown-posts.ts';
import { recordRun, type Figure } from './results.ts';
import { postJson, repoRoot, signUp, startServer } from './server-process.ts';

const VISITS = 10;
const PROSE = 'The usual cause is shared state between calls, so measure before you choose. '.repeat(60);
const brotli = promisify(zlib.brotliCompress);

// -------------------------------------------------------------------------------------
// The page: a question and ten long answers, posted through the API.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-render-'));
const server = await startServer({ DATA_DIR: dataDir, RATE_LIMIT_MULTIPLIER: '1000' }, 3970);
const report: string[] = [];
const figures: Figure[] = [];
const startedAt = new Date();
try {
  const cookie = await signUp(server.url, 'render_bench');
  const asked = await postJson(`${server.url}/api/addQuestion`, cookie, {
    title: 'Stale data on the second call',
    text: MARKDOWN_QUESTION_TEXT,
    tags: [{ name: 'bench' }],
  });
  const qid = ((await asked.json()) as { _id: string })._id;
  for (let i = 0; i < 10; i++) {
    const answered = await postJson(`${server.url}/api/answer/addAnswer`, cookie, {
      qid,
      ans: { text: markdownAnswer(i) },
    });
    if (!answered.ok) throw new Error(`answer ${i}: ${answered.status} ${await answered.text()}`);
  }
  // The same page in plain prose of the same length (no code, lists or tables): what the
  // question page costs the browser without Markdown to speak of.
  const plainAsked = await postJson(`${server.url}/api/addQuestion`, cookie, {
    title: 'The same question in plain prose',
    text: PROSE.slice(0, MARKDOWN_QUESTION_TEXT.length),
    tags: [{ name: 'bench' }],
  });
  const plainQid = ((await plainAsked.json()) as { _id: string })._id;
  for (let i = 0; i < 10; i++) {
    await postJson(`${server.url}/api/answer/addAnswer`, cookie, {
      qid: plainQid,
      ans: { text: PROSE.slice(0, markdownAnswer(i).length) },
    });
  }
  const pageJson = await (await fetch(`${server.url}/api/getQuestionById/${qid}`, { headers: { cookie } })).text();
  const page = JSON.parse(pageJson) as { text: string; answers: Array<{ text: string }> };
  const posts = [page.text, ...page.answers.map((answer) => answer.text)];
  const characters = posts.reduce((sum, text) => sum + text.length, 0);

  // -----------------------------------------------------------------------------------
  // Cooked on the server: the same parser and highlighter, here in Node.
  const lowlight = createLowlight();
  const grammars: Record<string, string> = {
    typescript: 'typescript',
    python: 'python',
    sql: 'sql',
    go: 'go',
    rust: 'rust',
    bash: 'bash',
    json: 'json',
    css: 'css',
  };
  for (const [name, file] of Object.entries(grammars)) {
    const grammar = (await import(`highlight.js/lib/languages/${file}`)) as {
      default: Parameters<typeof lowlight.register>[1];
    };
    lowlight.register(name, grammar.default);
  }
  const codeBlocks = (tree: readonly MdBlock[]): Array<{ lang: CodeLanguage | ''; text: string }> =>
    tree.flatMap((node) => {
      if (node.type === 'code') return [{ lang: node.lang, text: node.text }];
      if (node.type === 'blockquote') return codeBlocks(node.children);
      if (node.type === 'list') return node.items.flatMap((item) => codeBlocks(item.children));
      return [];
    });
  const cook = (text: string) => {
    const tree = parseMarkdown(text);
    const highlighted = codeBlocks(tree).map((block) =>
      block.lang === '' || !highlightable(block.text) || !lowlight.registered(block.lang)
        ? null
        : lowlight.highlight(block.lang, block.text),
    );
    return { tree, highlighted };
  };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const timeEach = (work: () => unknown, runs: number) => {
    for (let i = 0; i < 20; i++) work();
    return median(
      Array.from({ length: runs }, () => {
        const start = performance.now();
        work();
        return performance.now() - start;
      }),
    );
  };
  const parseMs = timeEach(() => posts.map((text) => parseMarkdown(text)), 100);
  const cookMs = timeEach(() => posts.map(cook), 100);
  const cookedPage = JSON.stringify({
    ...page,
    text: cook(page.text),
    answers: page.answers.map((answer) => ({ ...answer, text: cook(answer.text) })),
  });
  const [textBr, cookedBr] = await Promise.all([brotli(Buffer.from(pageJson)), brotli(Buffer.from(cookedPage))]);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

  // -----------------------------------------------------------------------------------
  // Rendered in the browser: the built app in Chromium.
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const times: Array<{ text: number; highlighted: number }> = [];
  const plainTimes: number[] = [];
  const cpu: Array<{ markdownCpu: number; scriptCpu: number }> = [];
  try {
    // bypassCSP: the page's CSP forbids the measuring script's string evaluation, nothing else changes.
    const context = await browser.newContext({ bypassCSP: true });
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    // When the ten answers' Markdown is in the page and when every code block has its
    // highlighting, each taken at the next frame (when it is drawn).
    // (A string, not a function: tsx names functions with a helper the page does not have.)
    await context.addInitScript(`
      const marks = {};
      window.renderMarks = marks;
      function mark(name) {
        if (marks[name] !== undefined) return;
        marks[name] = -1;
        requestAnimationFrame(() => (marks[name] = performance.now()));
      }
      new MutationObserver(() => {
        if (document.querySelectorAll('.post--answer .post__text.markdown').length < 10) return;
        mark('text');
        const blocks = document.querySelectorAll('.code-block code');
        if (Array.from(blocks).every((code) => code.querySelector('[class^="hljs-"]') !== null)) mark('highlighted');
      }).observe(document, { childList: true, subtree: true });
    `);
    // First the times, unprofiled; then as many visits again under the CPU profiler (which
    // slows the page down), for where its CPU went.
    for (let visit = 0; visit <= 2 * VISITS + 1; visit++) {
      const profiled = visit > VISITS;
      const tab = await context.newPage();
      const cdp: CDPSession = await context.newCDPSession(tab);
      if (profiled) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        await cdp.send('Profiler.start');
      }
      await tab.goto(`${server.url}/question/${qid}`);
      await tab.waitForFunction('(window.renderMarks.highlighted ?? -1) > 0');
      const marks = await tab.evaluate<Record<string, number>>('window.renderMarks');
      if (!profiled) {
        times.push({ text: marks.text!, highlighted: marks.highlighted! });
        await tab.close();
        // The plain page right after, in a tab of its own.
        const plainTab = await context.newPage();
        await plainTab.goto(`${server.url}/question/${plainQid}`);
        await plainTab.waitForFunction('(window.renderMarks.text ?? -1) > 0');
        plainTimes.push(await plainTab.evaluate<number>('window.renderMarks.text'));
        await plainTab.close();
        continue;
      }
      const { profile } = await cdp.send('Profiler.stop');
      // Self time by script: the Markdown chunk (markdown-it, highlight.js's engine and the
      // renderer) and the grammars' chunks against all the page's JavaScript.
      const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
      const selfMs = new Map<number, number>();
      const deltas = profile.timeDeltas ?? [];
      (profile.samples ?? []).forEach((id, index) => {
        selfMs.set(id, (selfMs.get(id) ?? 0) + (deltas[index + 1] ?? 0) / 1000);
      });
      let markdownCpu = 0;
      let scriptCpu = 0;
      for (const [id, ms] of selfMs) {
        const url = nodes.get(id)?.callFrame.url ?? '';
        if (!url.includes('/assets/')) continue;
        scriptCpu += ms;
        const file = url.slice(url.lastIndexOf('/') + 1);
        if (/^(markdown|typescript|python|sql|go|rust|bash|json|css)-/.test(file)) markdownCpu += ms;
      }
      cpu.push({ markdownCpu, scriptCpu });
      await tab.close();
    }
  } finally {
    await browser.close();
  }
  // The first visit fetches and compiles every chunk: reported apart from the rest.
  const [cold, ...warm] = times;
  const [coldCpu, ...warmCpu] = cpu;
  const [coldPlain, ...warmPlain] = plainTimes;
  const warmTime = (key: 'text' | 'highlighted') => median(warm.map((visit) => visit[key]));
  const warmCpuMs = (key: 'markdownCpu' | 'scriptCpu') => median(warmCpu.map((visit) => visit[key]));
  const ms = (value: number) => `${value.toFixed(1)} ms`;

  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).stdout.trim();
  report.push(
    `## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, where Markdown is rendered (npm run bench:render)`,
    '',
    `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, Chromium headless; commit ${commit || 'unknown'}. The page: a question and 10 answers (bench/markdown-posts.ts), ${characters.toLocaleString('en-US')} characters of Markdown with ${posts.reduce((sum, text) => sum + codeBlocks(parseMarkdown(text)).length, 0)} fenced code blocks in 8 languages, a table, lists and links in each answer.`,
    '',
    '| | in the browser (as built) | cooked on the server at write time |',
    '| --- | --- | --- |',
    `| server CPU for the page's posts | none (the API sends the text) | ${ms(cookMs)} to parse and highlight all 11 posts (${ms(parseMs)} of it parsing), once per write; a read costs nothing more |`,
    `| question page JSON (as sent, br) | ${kb(pageJson.length)} (${kb(textBr.length)}) | ${kb(cookedPage.length)} (${kb(cookedBr.length)}) with trees and highlighted spans |`,
    `| answers' text drawn (navigation to frame), median of ${VISITS} visits after the first | ${ms(warmTime('text'))} (first visit ${ms(cold!.text)}) | not built: at best the same less the Markdown CPU spent before it, the larger page's transfer and parse aside |`,
    `| the same page in plain prose of the same length, text drawn | ${ms(median(warmPlain))} (first visit ${ms(coldPlain!)}) | |`,
    `| every code block highlighted | ${ms(warmTime('highlighted'))} (first visit ${ms(cold!.highlighted)}) | with the text |`,
    `| the page's CPU in Markdown and highlighter code, of all its JavaScript (under the profiler, median of ${VISITS} visits after the first) | ${ms(warmCpuMs('markdownCpu'))} of ${ms(warmCpuMs('scriptCpu'))} (first visit ${ms(coldCpu!.markdownCpu)} of ${ms(coldCpu!.scriptCpu)}) | none |`,
    '',
  );
  const visits = `median of ${VISITS} visits after the first`;
  figures.push(
    { row: "server CPU to parse and highlight the page's 11 posts", figure: cookMs.toFixed(1), unit: 'ms' },
    { row: 'question page JSON as sent (br)', figure: (textBr.length / 1024).toFixed(1), unit: 'KB' },
    { row: `answers' text drawn in the browser (${visits})`, figure: warmTime('text').toFixed(1), unit: 'ms' },
    { row: `the same page in plain prose, text drawn (${visits})`, figure: median(warmPlain).toFixed(1), unit: 'ms' },
    { row: `every code block highlighted (${visits})`, figure: warmTime('highlighted').toFixed(1), unit: 'ms' },
    {
      row: `the page's CPU in Markdown and highlighter code (${visits})`,
      figure: warmCpuMs('markdownCpu').toFixed(1),
      unit: 'ms',
    },
  );
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
const text = report.join('\n');
console.log(`\n${text}`);
const atCommit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).stdout.trim();
recordRun(repoRoot, {
  run: 'npm run bench:render, where Markdown is rendered',
  date: startedAt,
  commit: atCommit,
  figures,
});
