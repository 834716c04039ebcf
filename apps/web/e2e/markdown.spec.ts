/**
 * Writing that handles code (docs/product.md section 8): the preview shows the rendered post
 * before it is posted; the page shows highlighted blocks with a 'Copy' button that works
 * by keyboard and announces 'Copied'; axe on a page of code blocks in every theme.
 * Against the built server in Chromium.
 */
import { expect } from '@playwright/test';
import {
  answerViaApi,
  askViaApi,
  expectNoSeriousAxeViolations,
  overrideAccessibilitySettings,
  registerViaApi,
  stamp,
  test,
} from './support.ts';
import { MESSAGES } from '@porpoise/core';

const TYPESCRIPT = 'interface Porpoise {\n  name: string;\n}\nconst pod: Porpoise[] = []; // a pod';
const POST = [
  '## Sonar setup',
  '',
  'Call **listen** with `await`, as [the guide](https://example.com/guide) says.',
  '',
  '```ts',
  TYPESCRIPT,
  '```',
  '',
  '- [x] hydrophone',
  '- [ ] amplifier',
].join('\n');

const CODE_SAMPLES: Record<string, string> = {
  python: 'def echo(depth: int) -> str:\n    return f"{depth} m"  # sonar',
  go: 'package main\n\nfunc main() {\n\tprintln("click")\n}',
  sql: "select name from porpoises where depth > 10 and name like 'p%';",
  rust: 'fn main() {\n    let pod = vec!["finn"];\n    println!("{:?}", pod);\n}',
  bash: 'for f in *.wav; do echo "$f"; done',
  json: '{ "name": "finn", "depth": 12, "tagged": true }',
  css: '.pod:hover { color: #0550ae; }',
  html: '<p class="pod">Finn &amp; co</p>',
};

test.describe('Markdown and code', () => {
  test.use({ bypassCSP: true });

  test('the preview shows the rendered post before it is posted, and the page shows the same', async ({ page }) => {
    await registerViaApi(page.request);
    const title = `Sonar preview ${stamp()}`;
    await page.goto('/new/question');
    await page.getByLabel('Question Title').fill(title);
    await page.getByLabel('Question Text').fill(POST);
    await page.getByLabel('Tags').fill('sonar');
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview).toBeHidden();

    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByRole('button', { name: 'Preview' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('Question Text')).toBeHidden();
    await expect(preview.getByRole('heading', { name: 'Sonar setup' })).toBeVisible();
    await expect(preview.locator('strong')).toHaveText('listen');
    await expect(preview.getByRole('link', { name: /the guide/ })).toHaveAttribute('href', 'https://example.com/guide');
    await expect(preview.getByRole('checkbox', { name: 'hydrophone' })).toBeChecked();
    await expect(preview.getByRole('checkbox', { name: 'amplifier' })).not.toBeChecked();
    await expect(preview.getByRole('group', { name: 'TypeScript code' })).toHaveText(TYPESCRIPT);
    await expect(preview.locator('.hljs-keyword').first()).toHaveText('interface');

    // Back to the text, unchanged; a bad link found on submit brings the text back, focused.
    await page.getByRole('button', { name: 'Write' }).click();
    await expect(page.getByLabel('Question Text')).toHaveValue(POST);
    await page.getByLabel('Question Text').fill(`${POST}\n\n[broken](http://example.com)`);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Post Question' }).click();
    await expect(page.getByText(MESSAGES.invalidHyperlink)).toBeVisible();
    await expect(page.getByLabel('Question Text')).toBeFocused();
    await page.getByLabel('Question Text').fill(POST);
    await page.getByRole('button', { name: 'Post Question' }).click();
    await expect(page).toHaveURL(/\/home$/);

    await page.getByRole('link', { name: title }).click();
    const question = page.getByRole('article', { name: title });
    await expect(question.getByRole('heading', { name: 'Sonar setup' })).toBeVisible();
    await expect(question.getByRole('group', { name: 'TypeScript code' })).toHaveText(TYPESCRIPT);
    await expect(question.locator('.hljs-keyword').first()).toHaveText('interface');

    // The answer form previews too, with the same renderer.
    await page.getByRole('link', { name: 'Answer Question' }).click();
    await page.getByLabel('Answer Text').fill('Use `sonar --deep`:\n\n```bash\nsonar --deep\n```');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByRole('region', { name: 'Preview' }).getByRole('group', { name: 'Shell code' })).toHaveText(
      'sonar --deep',
    );
  });

  test('a highlighted block is copied by keyboard, and the copy is announced', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const account = await registerViaApi(page.request);
    const question = await askViaApi(page, account.username, `Copy me ${stamp()}`, { text: POST, tags: ['sonar'] });
    await page.goto(`/question/${question._id}`);
    const block = page.locator('.code-block').filter({ hasText: 'TypeScript' });
    await expect(block.locator('.hljs-keyword').first()).toBeVisible();
    await expect(block.locator('.hljs-comment')).toHaveText('// a pod');

    const copy = block.getByRole('button', { name: 'Copy' });
    await copy.focus();
    await page.keyboard.press('Enter');
    await expect(block.getByRole('status')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(TYPESCRIPT);
  });

  test("a post of 60 code blocks highlights its first 50 with 'Copy'; the rest are plain, unwatched text", async ({
    page,
  }) => {
    // Every element a ResizeObserver watches, by class: the plain blocks must have none.
    await page.addInitScript(() => {
      const watched: string[] = [];
      (window as unknown as { watched: string[] }).watched = watched;
      window.ResizeObserver = class extends ResizeObserver {
        override observe(target: Element, options?: ResizeObserverOptions) {
          watched.push(target.className);
          super.observe(target, options);
        }
      };
    });
    const account = await registerViaApi(page.request);
    const blocks = Array.from(
      { length: 60 },
      (_, index) => `\`\`\`ts\nconst block${index}: number = ${index};\n\`\`\``,
    );
    const question = await askViaApi(page, account.username, `Sixty blocks ${stamp()}`, {
      text: blocks.join('\n\n'),
      tags: ['sonar'],
    });
    await page.goto(`/question/${question._id}`);
    const post = page.locator('.markdown').first();
    await expect(post.getByRole('button', { name: 'Copy' })).toHaveCount(50);
    await expect(post.locator('.code-block')).toHaveCount(50);
    await expect(post.locator('.code-block').last().locator('.hljs-keyword').first()).toBeVisible();
    const plain = post.locator('pre.markdown__pre');
    await expect(plain).toHaveCount(10);
    await expect(plain.last()).toHaveText('const block59: number = 59;');
    await expect(plain.locator('[class^="hljs"]')).toHaveCount(0);
    const watched = await page.evaluate(() => (window as unknown as { watched: string[] }).watched);
    expect(watched.filter((name) => name.includes('markdown__pre'))).toEqual([]);
    expect(watched.filter((name) => name.includes('code-block__code'))).toHaveLength(50);
  });

  test('a question with answers full of code passes axe in every theme', async ({ page }) => {
    test.setTimeout(120_000);
    const account = await registerViaApi(page.request);
    const question = await askViaApi(page, account.username, `Code in every theme ${stamp()}`, {
      text: POST,
      tags: ['sonar'],
    });
    for (const [language, code] of Object.entries(CODE_SAMPLES)) {
      await answerViaApi(page, account.username, question._id, `In ${language}:\n\n\`\`\`${language}\n${code}\n\`\`\``);
    }
    for (const lowVision of [false, true]) {
      for (const colorBlindness of ['none', 'redgreen', 'blueyellow', 'grayscale'] as const) {
        await overrideAccessibilitySettings(page, { lowVision, colorBlindness });
        await page.goto(`/question/${question._id}`);
        await expect(page.locator('.code-block')).toHaveCount(1 + Object.keys(CODE_SAMPLES).length);
        // Every block has its spans before axe judges their colours.
        for (const block of await page.locator('.code-block').all()) {
          await expect(block.locator('code [class^="hljs-"]').first()).toBeVisible();
        }
        await expectNoSeriousAxeViolations(page);
        await page.unrouteAll({ behavior: 'wait' });
      }
    }
  });
});
