/**
 * Issue 39, "nothing jumps": the five pages a member opens most draw without moving what is
 * already on the screen (cumulative layout shift at most 0.02, Lighthouse's 'good' is 0.1), at
 * phone and desktop widths, whichever order their data arrives in, and the space kept for what
 * arrives late hides nothing once it has. Each API answer is held back in turn (the first
 * request longest, or the last), so every part that loads on its own arrives in a frame of its
 * own. Against the built server in Chromium.
 */
import { expect, type Page, type Route } from '@playwright/test';
import { answerViaApi, askViaApi, registerViaApi, stamp, test } from './support.ts';

const CLS_TARGET = 0.02;
const WIDTHS = [
  { width: 320, height: 640 },
  { width: 412, height: 823 },
  { width: 1280, height: 800 },
] as const;
/** How much longer each API answer is held back than the next one (or the one before). */
const STEP_MS = 120;

interface Shift {
  value: number;
  sources: string[];
}

declare global {
  interface Window {
    shiftsSeen: Shift[];
  }
}

/** Holds each API answer back, later requests less (`first-last`) or more (`last-first`); counts those in flight. */
function staggerApi(page: Page, order: 'first-last' | 'last-first') {
  let seen = 0;
  let pending = 0;
  const handler = async (route: Route) => {
    const index = seen++;
    pending++;
    try {
      const delay = order === 'first-last' ? Math.max(0, 5 - index) * STEP_MS : Math.min(index, 5) * STEP_MS;
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, delay));
      await route.fulfill({ response });
    } catch {
      // The page went on without this answer (a request it aborted).
    } finally {
      pending--;
    }
  };
  return { install: () => page.route('**/api/**', handler), pending: () => pending };
}

/** Opens `path` with the API staggered, waits until every answer is in and drawn, and returns the shifts. */
async function shiftsOpening(page: Page, path: string, order: 'first-last' | 'last-first', ready: string) {
  const api = staggerApi(page, order);
  await api.install();
  await page.goto(path);
  await expect(page.locator(ready).first()).toBeVisible();
  await expect.poll(api.pending).toBe(0);
  // Two frames after the last answer: whatever it changed has been laid out and reported.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  return page.evaluate(() => window.shiftsSeen);
}

test.describe('layout shift', () => {
  test('the five pages draw without moving what is on the screen, at every width and arrival order', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    // A member with a question (answered, so the page has an answer below it) and a bio.
    const setup = await browser.newContext({ baseURL });
    const { username, password } = await registerViaApi(setup.request, 'shift');
    const question = await askViaApi(setup.request, username, `Why does my layout move ${stamp()}?`, {
      text: 'The page jumps when the data arrives.\n\n```ts\nconst x = 1;\n```',
    });
    const answerer = await browser.newContext({ baseURL });
    const other = await registerViaApi(answerer.request, 'shifta');
    const answerPage = await answerer.newPage();
    await answerViaApi(answerPage, other.username, question._id, 'Reserve the space for what loads late.');
    await setup.close();
    await answerer.close();

    const pages = [
      { path: '/', ready: '.card__lead' },
      { path: '/home', ready: '.q-row__title' },
      { path: `/question/${question._id}`, ready: 'button.follow-button' },
      { path: '/tags', ready: '.q-page-lead' },
      { path: '/profile', ready: '.profile-card__reputation' },
    ];
    for (const viewport of WIDTHS) {
      const context = await browser.newContext({ baseURL, viewport });
      await context.request.post('/api/account/login', { data: { username, password } });
      await context.addInitScript(() => {
        window.shiftsSeen = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<
            PerformanceEntry & { value: number; hadRecentInput: boolean; sources: Array<{ node?: Node | null }> }
          >) {
            if (entry.hadRecentInput) continue;
            window.shiftsSeen.push({
              value: entry.value,
              sources: entry.sources.map((source) =>
                source.node instanceof Element ? `${source.node.tagName}.${source.node.className}` : '?',
              ),
            });
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      for (const order of ['first-last', 'last-first'] as const) {
        for (const { path, ready } of pages) {
          const page = await context.newPage();
          const shifts = await shiftsOpening(page, path, order, ready);
          const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
          expect(total, `${path} at ${viewport.width} px, ${order}: ${JSON.stringify(shifts)}`).toBeLessThanOrEqual(
            CLS_TARGET,
          );
          // The loading text is gone once the screen is drawn.
          await expect(page.locator('.app-loading')).toHaveCount(0);
          await page.close();
        }
      }
      await context.close();
    }
  });

  test('the space kept for the follow button and the profile card hides nothing, at every width', async ({
    browser,
    baseURL,
  }) => {
    const setup = await browser.newContext({ baseURL });
    const { username, password } = await registerViaApi(setup.request, 'room');
    const question = await askViaApi(setup.request, username, `A question with a long title to wrap ${stamp()}`);
    await setup.close();
    for (const width of [320, 412, 700, 1280]) {
      const context = await browser.newContext({ baseURL, viewport: { width, height: 800 } });
      await context.request.post('/api/account/login', { data: { username, password } });
      const page = await context.newPage();
      // The follow state arrives last: the kept place shows nothing and takes no clicks.
      let releaseFollow: () => void = () => undefined;
      const followHeld = new Promise<void>((resolve) => (releaseFollow = resolve));
      await page.route('**/api/**', async (route) => {
        const url = new URL(route.request().url());
        if (url.pathname.endsWith('/follow')) await followHeld;
        await route.continue();
      });
      await page.goto(`/question/${question._id}`);
      const facts = page.locator('.question__facts');
      await expect(facts).toBeVisible();
      const kept = page.locator('.follow-button--unknown');
      await expect(kept).toBeHidden();
      await expect(page.getByRole('button', { name: /^Follow/ })).toHaveCount(0);
      const before = await facts.boundingBox();
      releaseFollow();
      const follow = page.getByRole('button', { name: /^Follow/ });
      await expect(follow).toBeVisible();
      await expect(kept).toHaveCount(0);
      const after = await facts.boundingBox();
      expect(after, `the facts stay where they were at ${width} px`).toEqual(before);
      const button = await follow.boundingBox();
      // Side by side or wrapped below, the button never covers the facts.
      const overlaps =
        button !== null &&
        after !== null &&
        button.x < after.x + after.width &&
        after.x < button.x + button.width &&
        button.y < after.y + after.height &&
        after.y < button.y + button.height;
      expect(overlaps, `the follow button covers the facts at ${width} px`).toBe(false);

      await page.goto('/profile');
      const card = page.locator('.profile-card');
      for (const part of ['.profile-card__since', '.profile-card__counts', '.profile-card__reputation']) {
        await expect(card.locator(part), `${part} at ${width} px`).toBeVisible();
      }
      await context.close();
    }
  });
});
