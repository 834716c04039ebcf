import { expect } from '@playwright/test';
import type { Account } from '@porpoise/core';
import { adminPage, E2E_ADMIN, expectNoSeriousAxeViolations, signInViaApi, test } from './support.ts';

test("the first account of the worker's server is its admin", async ({ context }) => {
  await signInViaApi(context, E2E_ADMIN);
  const response = await context.request.get('/api/account/me');
  expect(response.status(), await response.text()).toBe(200);
  expect(((await response.json()) as Account).role).toBe('admin');
});

test.describe('the server’s backups at /admin', () => {
  test.use({ bypassCSP: true });
  test('an admin backs up now, sees it listed when written, and downloads it', async ({ browser, baseURL }) => {
    const page = await adminPage(browser, baseURL);
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Backups', level: 2 })).toBeVisible();
    await page.getByRole('button', { name: 'Back up now' }).click();
    // Listed once written (the page reads the list again while one runs).
    const link = page.getByRole('link', { name: /^porpoise-\d{8}-\d{6}(-\d+)?\.porpoise-backup$/ }).first();
    await expect(link).toBeVisible();
    await expect(page.getByRole('button', { name: 'Back up now' })).toBeEnabled();
    const name = (await link.textContent())!;
    expect(await link.getAttribute('href')).toBe(`/api/admin/backups/${name}`);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(await download.failure()).toBeNull();
    expect(download.suggestedFilename()).toBe(name);
    const bytes = await download.createReadStream().then(async (stream) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    });
    // gzip's magic: the file as the server wrote it.
    expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    await expectNoSeriousAxeViolations(page);
  });
});
