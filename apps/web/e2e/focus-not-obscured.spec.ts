/**
 * WCAG 2.2, 2.4.11 Focus Not Obscured (docs/product.md section 5): every focused control, and
 * the label of a field that receives focus after a failed submit, shows fully below the
 * sticky header (and, at phone width, the menu's tab bar under it). Each form is walked
 * with Tab and back with Shift+Tab, since moving up is what brings a control in under the
 * header, in a window short enough for every form to scroll.
 */
import { expect, type Browser, type Page } from '@playwright/test';
import { member, overrideAccessibilitySettings, test } from './support.ts';
import type { AccessibilitySettings } from '@porpoise/core';

interface Placement {
  /** What was focused, for the failure message. */
  what: string;
  problem: string | null;
}

/**
 * Where the focused element (or, with `withLabel`, also its label) lies against the visible
 * area: below the bottom of every sticky bar (unless it sits in one: the header's own
 * controls, the skip link drawn above the header) and above the window's bottom edge.
 */
function placementOfFocus(page: Page, withLabel: boolean): Promise<Placement | null> {
  return page.evaluate(async (withLabel) => {
    const element = document.activeElement as HTMLElement | null;
    if (element === null || element === document.body) return null;
    // Where it comes to rest: after its transitions (the skip link slides in) and the app's scroll.
    await Promise.all(element.getAnimations().map((animation) => animation.finished));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const what = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${(
      element.getAttribute('aria-label') ??
      element.textContent ??
      ''
    )
      .trim()
      .slice(0, 40)}"`;
    const bars = ['.app-header', '.main-nav']
      .map((selector) => document.querySelector<HTMLElement>(selector))
      .filter((bar): bar is HTMLElement => bar !== null)
      .filter((bar) => ['sticky', 'fixed'].includes(getComputedStyle(bar).position));
    const inBar = bars.some((bar) => bar.contains(element)) || element.classList.contains('skip-link');
    const top = inBar ? 0 : Math.max(0, ...bars.map((bar) => bar.getBoundingClientRect().bottom));
    const bottom = window.innerHeight;
    const boxes: [string, DOMRect][] = [['control', element.getBoundingClientRect()]];
    if (withLabel) {
      const label = element.id === '' ? null : document.querySelector(`label[for="${CSS.escape(element.id)}"]`);
      if (label === null) return { what, problem: 'has no label' };
      boxes.push(['label', label.getBoundingClientRect()]);
    }
    for (const [name, box] of boxes) {
      // A region taller than the space below the header (a message log) cannot show whole; its top must.
      const tall = box.height > bottom - top;
      if (box.top < top - 0.5) return { what, problem: `${name} top ${box.top} is under the bars ending at ${top}` };
      if (!tall && box.bottom > bottom + 0.5) {
        return { what, problem: `${name} bottom ${box.bottom} is below the window (${bottom})` };
      }
    }
    return { what, problem: null };
  }, withLabel);
}

/** Tabs forward through the page, then back, noting every focused element that is not fully visible. */
async function walkWithKeyboard(page: Page, where: string, problems: string[], steps = 40): Promise<number> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('body').focus();
  let visited = 0;
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let step = 0; step < steps; step++) {
      await page.keyboard.press(key);
      const placement = await placementOfFocus(page, false);
      if (placement === null) break;
      visited += 1;
      if (placement.problem !== null) problems.push(`${where} (${key}): ${placement.what} ${placement.problem}`);
    }
  }
  return visited;
}

/**
 * Scrolls to the bottom, submits the empty form from the keyboard, and checks that the
 * field given focus is the expected one and that it and its label show below the header.
 */
async function submitEmpty(page: Page, where: string, button: string, firstField: string, problems: string[]) {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.getByRole('button', { name: button, exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel(firstField, { exact: true })).toBeFocused();
  // Let the scroll that reveals the field finish.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const placement = await placementOfFocus(page, true);
  if (placement?.problem != null)
    problems.push(`${where} after an empty submit: ${placement.what} ${placement.problem}`);
}

/** A member in a context of the run's viewport, seeing `settings`' theme without saving it. */
async function memberPage(
  browser: Browser,
  baseURL: string | undefined,
  settings: Partial<AccessibilitySettings>,
  viewport: { width: number; height: number },
) {
  const signedIn = await member(browser, baseURL, 'foc', { viewport });
  // The theme without saving it, so the settings screen still starts unchosen (and can fail).
  await overrideAccessibilitySettings(signedIn.page, settings);
  return signedIn;
}

const RUNS = [
  {
    name: 'low vision, desktop',
    settings: { lowVision: true, colorBlindness: 'none' },
    viewport: { width: 1024, height: 600 },
  },
  {
    name: 'low vision, phone',
    settings: { lowVision: true, colorBlindness: 'grayscale' },
    viewport: { width: 375, height: 667 },
  },
  {
    name: 'default vision, desktop',
    settings: { lowVision: false, colorBlindness: 'redgreen' },
    viewport: { width: 1024, height: 500 },
  },
] as const;

test.describe('focus is never hidden under the sticky header', () => {
  for (const run of RUNS) {
    test(`every form, ${run.name}`, async ({ browser, baseURL }) => {
      test.setTimeout(180_000);
      const { page, account } = await memberPage(browser, baseURL, run.settings, run.viewport);
      const other = await memberPage(browser, baseURL, run.settings, run.viewport);

      const asked = await page.request.post('/api/addQuestion', {
        data: { title: 'How deep do porpoises dive?', text: 'A question to answer.', tags: [{ name: 'diving' }] },
      });
      expect(asked.status()).toBe(200);
      const { _id: qid } = (await asked.json()) as { _id: string };
      const thread = await page.request.post('/api/thread/addThread', {
        data: { messages: [], accounts: [account.username, other.account.username], threadUpdatedDateTime: new Date() },
      });
      expect(thread.status()).toBe(200);
      const { _id: tid } = (await thread.json()) as { _id: string };
      await other.page.context().close();

      const problems: string[] = [];
      const body = page.locator('body');
      const lowVision = run.settings.lowVision;
      const visit = async (path: string, heading: string | RegExp) => {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        if (lowVision) await expect(body).toHaveClass(/\blow-vision\b/);
      };

      // Signed-in forms: sticky header (and tab bar on a phone).
      const forms: { path: string; heading: string | RegExp; submit?: [string, string]; open?: string }[] = [
        { path: '/new/question', heading: 'Ask a Question', submit: ['Post Question', 'Question Title'] },
        { path: `/new/answer/${qid}`, heading: /Answer/, submit: ['Post Answer', 'Answer Text'] },
        { path: `/question/${qid}`, heading: 'How deep do porpoises dive?' },
        { path: '/new/thread', heading: 'Start a Thread', submit: ['Create Thread', 'Thread Recipient'] },
        { path: '/new/forum', heading: 'Start a Forum', submit: ['Create Forum', 'Forum Name'] },
        {
          path: '/accessibility-settings',
          heading: 'Accessibility Settings',
          submit: ['Save Preferences', 'Do you have low vision?'],
        },
        { path: '/profile', heading: 'Profile', open: 'Edit Bio' },
        { path: `/threads/${tid}`, heading: `Chatting with ${other.account.username}` },
        { path: '/home', heading: 'All Questions' },
      ];
      for (const form of forms) {
        await visit(form.path, form.heading);
        if (form.open !== undefined) await page.getByRole('button', { name: form.open }).click();
        const visited = await walkWithKeyboard(page, form.path, problems);
        expect(visited, `controls reached on ${form.path}`).toBeGreaterThan(3);
        if (form.submit !== undefined) await submitEmpty(page, form.path, ...form.submit, problems);
      }
      await page.screenshot({ path: `/tmp/shots-22/focus-${run.name.replace(/\W+/g, '-')}-home.png` });

      // The menu's tab bar and header stay put on a phone, so a focused control never hides there either.
      await visit('/new/question', 'Ask a Question');
      await submitEmpty(page, '/new/question (again)', 'Post Question', 'Question Title', problems);
      await page.screenshot({ path: `/tmp/shots-22/focus-${run.name.replace(/\W+/g, '-')}-ask-error.png` });

      // Open screens: no header, but the focused control must still be in the window.
      await page.goto('/porpchat');
      await page.evaluate(() => sessionStorage.setItem('porpUsername', 'Focus Visitor'));
      const open: { path: string; heading: string | RegExp; submit?: [string, string] }[] = [
        { path: '/porpchat', heading: 'PorpChat' },
        { path: '/', heading: 'Welcome to PorpChat!', submit: ['Submit', 'Username'] },
      ];
      for (const screen of open) {
        await page.goto(screen.path);
        await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible();
        await walkWithKeyboard(page, screen.path, problems);
        if (screen.submit !== undefined) await submitEmpty(page, screen.path, ...screen.submit, problems);
      }
      await page.context().clearCookies();
      for (const [path, submit, field] of [
        ['/register', 'Sign Up', 'Email'],
        ['/login', 'Sign In', 'Username'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole('button', { name: submit })).toBeVisible();
        await walkWithKeyboard(page, path, problems);
        await submitEmpty(page, path, submit, field, problems);
      }

      expect(problems).toEqual([]);
    });
  }
});
