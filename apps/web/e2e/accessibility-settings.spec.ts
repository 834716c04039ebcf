import { expect, type Page } from '@playwright/test';
import { expectNoSeriousAxeViolations, registerThroughUi, registerViaApi, test, uniqueUsername } from './support.ts';
import type { AccessibilitySettings } from '@porpoise/core';

test.describe('accessibility settings', () => {
  test('both choices are required; the tip shows for low vision; saving applies the theme and goes home', async ({
    page,
  }) => {
    await registerThroughUi(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Accessibility Settings' })).toBeVisible();
    const lowVision = page.getByLabel('Do you have low vision?');
    const colour = page.getByLabel('Colour blindness');
    await expect(lowVision).toHaveValue('');
    await expect(colour).toHaveValue('');

    const save = page.getByRole('button', { name: 'Save Preferences' });
    await save.click();
    // Each missing choice is named beside its selector, and the first one takes focus.
    await expect(page.getByRole('alert')).toHaveText([
      /Please choose whether you have low vision/,
      /Please choose a colour-blindness setting/,
    ]);
    await expect(lowVision).toHaveAttribute('aria-invalid', 'true');
    await expect(lowVision).toHaveAccessibleDescription(/Please choose whether you have low vision$/);
    await expect(colour).toHaveAccessibleDescription(/Please choose a colour-blindness setting$/);
    await expect(lowVision).toBeFocused();

    await expect(page.getByText('Cmd')).toHaveCount(0);
    await lowVision.selectOption({ label: 'Yes' });
    const tip = page.getByRole('complementary', { name: 'VoiceOver tip' });
    await expect(tip).toContainText('Cmd+F5');
    await expect(tip).toContainText('System Settings > Accessibility > VoiceOver');
    await save.click();
    await expect(page.getByRole('alert')).toHaveText(/Please choose a colour-blindness setting/);
    await expect(lowVision).not.toHaveAttribute('aria-invalid');
    await expect(colour).toHaveAttribute('aria-invalid', 'true');
    await expect(colour).toBeFocused();

    await expect(colour.locator('option')).toHaveText([
      'Select an option',
      'None',
      'Red-Green',
      'Blue-Yellow',
      'Grayscale',
    ]);
    await colour.selectOption({ label: 'Red-Green' });
    await page.screenshot({ path: '/tmp/shots-c/e2e-settings-filled.png' });
    await save.click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.locator('body')).toHaveClass(/\bredgreen\b/);
    await expect(page.locator('body')).toHaveClass(/\blow-vision\b/);
    expect(await page.evaluate(() => getComputedStyle(document.body).fontSize)).toBe('20px');

    // Back to no preferences: the classes go at once.
    await page.goto('/accessibility-settings');
    await page.getByLabel('Do you have low vision?').selectOption({ label: 'No' });
    await expect(page.getByText('Cmd')).toHaveCount(0);
    await page.getByLabel('Colour blindness').selectOption({ label: 'None' });
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.locator('body')).toHaveClass('');
  });

  test('a second visit shows the saved choices, so one can be changed alone', async ({ page }) => {
    await registerThroughUi(page);
    await page.getByLabel('Do you have low vision?').selectOption({ label: 'Yes' });
    await page.getByLabel('Colour blindness').selectOption({ label: 'Red-Green' });
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect(page).toHaveURL(/\/home$/);

    // From the profile, inside the app.
    await page.goto('/profile');
    await page.getByRole('link', { name: 'Accessibility settings' }).click();
    await expect(page).toHaveURL(/\/accessibility-settings$/);
    await expect(page.getByLabel('Do you have low vision?')).toHaveValue('yes');
    await expect(page.getByLabel('Colour blindness')).toHaveValue('redgreen');
    await expect(page.getByLabel('Do you have low vision?').locator('option:checked')).toHaveText('Yes');
    await expect(page.getByLabel('Colour blindness').locator('option:checked')).toHaveText('Red-Green');
    await expect(page.getByRole('complementary', { name: 'VoiceOver tip' })).toBeVisible();
    await page.screenshot({ path: '/tmp/shots-22/settings-second-visit.png' });

    // Only the colour changes; low vision stays as saved.
    await page.getByLabel('Colour blindness').selectOption({ label: 'Blue-Yellow' });
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.locator('body')).toHaveClass(/\bblueyellow\b/);
    await expect(page.locator('body')).toHaveClass(/\blow-vision\b/);

    // By address, after a reload of the whole app.
    await page.goto('/accessibility-settings');
    await expect(page.getByLabel('Do you have low vision?')).toHaveValue('yes');
    await expect(page.getByLabel('Colour blindness')).toHaveValue('blueyellow');
  });

  test('the save outcomes: a refusal and a lost connection', async ({ page }) => {
    await registerThroughUi(page);
    await page.getByLabel('Do you have low vision?').selectOption({ label: 'No' });
    await page.getByLabel('Colour blindness').selectOption({ label: 'Grayscale' });

    await page.route('**/api/account/saveAccessibilitySettings', (route) =>
      route.fulfill({ status: 500, json: { error: 'Internal server error' } }),
    );
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect(page.getByRole('alert')).toHaveText(/Failed to save preferences/);

    await page.unroute('**/api/account/saveAccessibilitySettings');
    await page.route('**/api/account/saveAccessibilitySettings', (route) => route.abort('failed'));
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect(page.getByRole('alert')).toHaveText(/An error occurred while saving preferences/);
    await expect(page).toHaveURL(/\/accessibility-settings$/);

    await page.getByRole('link', { name: 'Skip for Now' }).click();
    await expect(page).toHaveURL(/\/home$/);
  });
});

test.describe('axe-core on the people and conversation screens in every theme', () => {
  // axe-core is injected as a script, which the app's CSP (script-src 'self') would block.
  test.use({ bypassCSP: true });

  const palettes: AccessibilitySettings['colorBlindness'][] = ['none', 'redgreen', 'blueyellow', 'grayscale'];
  for (const colorBlindness of palettes) {
    for (const lowVision of [false, true]) {
      test(`${colorBlindness}${lowVision ? ' with low vision' : ''}`, async ({ page, browser }) => {
        test.setTimeout(90_000);
        const me = (await registerViaApi(page.request, 'axe')).account;
        const saved = await page.request.post('/api/account/saveAccessibilitySettings', {
          data: { ...me, accessibilitySettings: { lowVision, colorBlindness } },
        });
        expect(saved.status()).toBe(200);

        // Someone else starts a thread with me and writes (an unread row), and opens a forum.
        const otherContext = await browser.newContext();
        const other = (await registerViaApi(otherContext.request, 'oth')).account;
        const thread = (await (
          await otherContext.request.post('/api/thread/addThread', {
            data: {
              messages: [],
              accounts: [other.username, me.username],
              threadUpdatedDateTime: new Date().toISOString(),
            },
          })
        ).json()) as { _id: string };
        await otherContext.request.post('/api/message/addMessage', {
          data: {
            tid: thread._id,
            msg: {
              content: 'See [the guide](https://example.com/guide) first.',
              sender: other.username,
              messageDateTime: new Date().toISOString(),
              views: [other.username],
              likes: [],
            },
          },
        });
        await otherContext.request.post('/api/forum/addForum', {
          data: { name: `Forum ${uniqueUsername('f')}`, description: 'A place to talk.', thread: '' },
        });
        await otherContext.close();

        async function check(path: string, ready: (page: Page) => Promise<void>) {
          await page.goto(path);
          await expect(page.locator('body')).toHaveClass(
            [colorBlindness === 'none' ? '' : colorBlindness, lowVision ? 'low-vision' : ''].join(' ').trim(),
          );
          await ready(page);
          await expectNoSeriousAxeViolations(page);
        }
        const heading = (name: string) => (p: Page) => expect(p.getByRole('heading', { level: 1, name })).toBeVisible();

        await check('/profile', async (p) => {
          await expect(p.getByText('No answers found.')).toBeVisible();
          await p.getByRole('button', { name: 'Edit Bio' }).click();
        });
        await check(`/profile/${other.username}`, async (p) => {
          await expect(p.getByText('No bio provided')).toBeVisible();
        });
        await check('/threads', async (p) => {
          await expect(p.getByRole('link', { name: new RegExp(`^Unread: ${other.username}`) })).toBeVisible();
        });
        await check('/new/thread', async (p) => {
          await p.getByRole('button', { name: 'Create Thread' }).click();
          await expect(p.getByRole('alert')).toBeVisible();
        });
        await check(`/threads/${thread._id}`, async (p) => {
          await expect(p.getByRole('log')).toContainText('the guide');
        });
        await check('/forums', async (p) => {
          await expect(p.getByText('A place to talk.').first()).toBeVisible();
        });
        await check('/new/forum', async (p) => {
          await p.getByRole('button', { name: 'Create Forum' }).click();
          // The name's and the description's errors, each beside its field.
          await expect(p.getByRole('alert')).toHaveCount(2);
        });
        await check('/accessibility-settings', async (p) => {
          // The saved choices are shown; a refused save shows its error above the button.
          await expect(p.getByLabel('Colour blindness')).toHaveValue(colorBlindness);
          await p.route('**/api/account/saveAccessibilitySettings', (route) =>
            route.fulfill({ status: 500, json: { error: 'Internal server error' } }),
          );
          await p.getByLabel('Do you have low vision?').selectOption({ label: 'Yes' });
          await p.getByRole('button', { name: 'Save Preferences' }).click();
          await expect(p.getByRole('alert')).toBeVisible();
          await p.unroute('**/api/account/saveAccessibilitySettings');
        });
        await page.evaluate(() => sessionStorage.setItem('porpUsername', 'Axe Visitor'));
        await check('/porpchat', heading('PorpChat'));
      });
    }
  }
});
