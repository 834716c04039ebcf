import { expect, type Response } from '@playwright/test';
import { test } from './support.ts';

// Issue 16 item 5: the build's br and gzip copies reach the browser. Chromium asks for br
// only over a secure origin (https, or localhost), so each response is checked against
// what this browser asked for rather than assumed.
test('the page, its scripts and its styles arrive compressed from the build', async ({ page }) => {
  const responses: Response[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname === '/' || /^\/assets\/.+\.(?:js|css)$/.test(pathname)) responses.push(response);
  });
  await page.goto('/');
  await page.waitForLoadState('load');
  const kinds = responses.map((response) => new URL(response.url()).pathname.split('.').at(-1));
  expect(kinds).toContain('js');
  expect(kinds).toContain('css');
  for (const response of responses) {
    const accepts = (await response.request().allHeaders())['accept-encoding'] ?? '';
    const headers = await response.allHeaders();
    expect(accepts, response.url()).toContain('gzip');
    expect(headers['content-encoding'], response.url()).toBe(accepts.includes('br') ? 'br' : 'gzip');
    expect(headers.vary, response.url()).toContain('accept-encoding');
  }
});
