import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Browser, type Page } from '@playwright/test';
import { newTestAccount, test } from './support.ts';

/** A 1x1 transparent PNG, the picture the image servers answer with. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** An anonymous visitor who entered PorpChat under a name, with the socket connected. */
async function porpVisitor(browser: Browser, name: string, { skipJoin = false } = {}): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  const connected = new Promise<void>((resolve) => {
    page.on('websocket', (socket) => {
      if (socket.url().includes('/socket.io/')) socket.once('framereceived', () => resolve());
    });
  });
  await page.goto('/');
  if (skipJoin) {
    // A client that never asked at the door (the join form refuses a member's name): only posting is left to check.
    await page.evaluate((typed) => sessionStorage.setItem('porpUsername', typed), name);
    await page.goto('/porpchat');
  } else {
    await page.getByLabel('Username').fill(name);
    await page.getByRole('button', { name: 'Submit' }).click();
  }
  await expect(page).toHaveURL(/\/porpchat$/);
  await expect(page.getByRole('heading', { level: 1, name: 'PorpChat' })).toBeVisible();
  await connected;
  return page;
}

test.describe('PorpChat room', () => {
  test('two anonymous visitors talk live, with images, and Shift+Enter does not send', async ({ browser, baseURL }) => {
    const suffix = Date.now().toString(36);
    const kim = await porpVisitor(browser, `Kim ${suffix}`);
    const lee = await porpVisitor(browser, `Lee ${suffix}`);
    await expect(kim.getByText(`You are chatting as Kim ${suffix}.`)).toBeVisible();

    const box = kim.getByLabel('Message', { exact: true });
    await box.fill(`Hello from Kim ${suffix}`);
    await box.press('Enter');
    await expect(box).toHaveValue('');
    await expect(kim.getByRole('log')).toContainText(`Hello from Kim ${suffix}`);
    await expect(lee.getByRole('log')).toContainText(`Hello from Kim ${suffix}`);
    await expect(lee.getByRole('log')).toContainText(`Kim ${suffix}`);

    // Shift+Enter starts a new line; only Enter sends both lines together.
    const leeBox = lee.getByLabel('Message', { exact: true });
    await leeBox.fill('line one');
    await leeBox.press('Shift+Enter');
    await leeBox.pressSequentially(`line two ${suffix}`);
    await expect(leeBox).toHaveValue(`line one\nline two ${suffix}`);
    await expect(kim.getByRole('log')).not.toContainText(`line two ${suffix}`);
    await lee.getByRole('button', { name: 'Send' }).click();
    await expect(kim.getByRole('log')).toContainText(`line two ${suffix}`);

    // Blank text is never sent.
    await leeBox.fill('  \n ');
    await leeBox.press('Enter');
    await expect(leeBox).toHaveValue('  \n ');

    // An IMG message with an http(s) address is an image; anything else stays text.
    const imageUrl = `${baseURL}/favicon.svg`;
    await leeBox.fill(`IMG:${imageUrl}`);
    await leeBox.press('Enter');
    const image = kim.getByRole('img', { name: `Image from Lee ${suffix}` });
    await expect(image).toBeVisible();
    await expect(image).toHaveAttribute('src', imageUrl);
    await expect(image).toHaveCSS('height', '100px');
    await leeBox.fill('IMG:javascript:alert(1)');
    await leeBox.press('Enter');
    await expect(kim.getByRole('log')).toContainText('IMG:javascript:alert(1)');
    await expect(kim.getByRole('log').getByRole('img')).toHaveCount(1);
    await kim.screenshot({ path: '/tmp/shots-c/e2e-porpchat-live.png' });

    // History: a visitor arriving later sees the conversation so far, oldest first.
    const max = await porpVisitor(browser, `Max ${suffix}`);
    await expect(max.getByRole('log')).toContainText(`Hello from Kim ${suffix}`);
    await expect(max.getByRole('img', { name: `Image from Lee ${suffix}` })).toBeVisible();
    const texts = await max.getByRole('log').getByRole('listitem').allTextContents();
    const mine = texts.filter((text) => text.includes(suffix));
    expect(mine[0]).toContain(`Hello from Kim ${suffix}`);
  });

  test("an image from elsewhere loads only when pressed (https only, no Referer); Porpoise's own shows at once", async ({
    browser,
    baseURL,
    request,
  }) => {
    // Another origin on 127.0.0.1 (another port): its plain-http side is a real server that
    // counts what reaches it; its https side is answered by Playwright, the network being closed.
    const reached: string[] = [];
    const elsewhere = http.createServer((incoming, outgoing) => {
      reached.push(incoming.url ?? '');
      outgoing.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const { port } = elsewhere.address() as AddressInfo;
    try {
      const suffix = Date.now().toString(36);
      const reader = await porpVisitor(browser, `Reader ${suffix}`);
      const requested: string[] = [];
      reader.on('request', (sent) => {
        if (new URL(sent.url()).port === String(port)) requested.push(sent.url());
      });
      await reader
        .context()
        .route(`https://127.0.0.1:${port}/**`, (route) => route.fulfill({ contentType: 'image/png', body: PIXEL }));
      // The poster needs no page: its messages go straight to the API.
      const send = async (content: string) => {
        const posted = await request.post('/api/message/addMessage', {
          data: { tid: 'porpchat', msg: { content, sender: `Poster ${suffix}` } },
        });
        expect(posted.status()).toBe(200);
      };
      // The poster's messages (the history may hold other tests' images).
      const log = reader.getByRole('log');
      const mine = log.getByRole('listitem').filter({ hasText: `Poster ${suffix}` });

      // https elsewhere: a button, and nothing fetched until it is pressed.
      const pixel = `https://127.0.0.1:${port}/px.png?who=${suffix}`;
      await send(`IMG:${pixel}`);
      const button = mine.getByRole('button', { name: `Show image from 127.0.0.1:${port}` });
      await expect(button).toBeVisible();
      await expect(mine.getByRole('img')).toHaveCount(0);
      expect(requested).toEqual([]);
      const fetched = reader.waitForRequest(pixel);
      await button.click();
      expect((await fetched).headers().referer).toBeUndefined();
      const image = mine.getByRole('img', { name: `Image from Poster ${suffix}` });
      await expect(image).toBeVisible();
      await expect(image).toHaveAttribute('referrerpolicy', 'no-referrer');
      await expect(image).toBeFocused();
      // decode() settles once the picture has loaded: the pressed image really shows.
      expect(
        await image.evaluate(async (element: HTMLImageElement) => (await element.decode(), element.naturalWidth)),
      ).toBe(1);

      // http elsewhere: text, never fetched.
      const plain = `http://127.0.0.1:${port}/px.png?who=${suffix}`;
      await send(`IMG:${plain}`);
      await expect(log).toContainText(`IMG:${plain}`);

      // Porpoise's own origin: an image at once, without a Referer either.
      const own = `${baseURL}/favicon.svg?${suffix}`;
      const ownFetched = reader.waitForRequest(own);
      await send(`IMG:${own}`);
      expect((await ownFetched).headers().referer).toBeUndefined();
      await expect(mine.getByRole('img')).toHaveCount(2);
      await expect(mine.getByRole('img').nth(1)).toHaveAttribute('src', own);
      await expect(mine.getByRole('img').nth(1)).toHaveAttribute('referrerpolicy', 'no-referrer');

      expect(requested).toEqual([pixel]);
      expect(reached).toEqual([]);
    } finally {
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });

  test("a registered member's name cannot be used, and a signed-in member can chat too", async ({ browser }) => {
    const member = newTestAccount('mem');
    const memberPage = await (await browser.newContext()).newPage();
    const response = await memberPage.request.post('/api/account/addAccount', {
      data: { ...member, createdAt: new Date().toISOString() },
    });
    expect(response.status()).toBe(200);

    const guest = await porpVisitor(browser, member.username, { skipJoin: true });
    await guest.getByLabel('Message', { exact: true }).fill('pretending');
    await guest.getByRole('button', { name: 'Send' }).click();
    await expect(guest.getByRole('alert')).toHaveText(/That name belongs to a member/);
    await expect(guest.getByLabel('Message', { exact: true })).toHaveValue('pretending');

    await memberPage.goto('/');
    await memberPage.getByLabel('Username').fill(member.username);
    await memberPage.getByRole('button', { name: 'Submit' }).click();
    await expect(memberPage).toHaveURL(/\/porpchat$/);
    await memberPage.getByLabel('Message', { exact: true }).fill('the real one');
    await memberPage.getByRole('button', { name: 'Send' }).click();
    await expect(memberPage.getByRole('log')).toContainText('the real one');
    await expect(guest.getByRole('log')).toContainText('the real one');
  });

  test("two visitors with one name each see only their own messages as '(you)'", async ({ browser }) => {
    const name = `Flipper ${Date.now().toString(36)}`;
    const first = await porpVisitor(browser, name);
    const second = await porpVisitor(browser, name);
    const say = async (page: Page, text: string) => {
      await page.getByLabel('Message', { exact: true }).fill(text);
      await page.getByLabel('Message', { exact: true }).press('Enter');
      await expect(page.getByRole('log')).toContainText(text);
    };
    const item = (page: Page, text: string) => page.getByRole('log').getByRole('listitem').filter({ hasText: text });
    const expectMine = async (page: Page, text: string, mine: boolean) => {
      await expect(item(page, text)).toContainText(name);
      if (mine) {
        await expect(item(page, text)).toContainText(`${name} (you)`);
        await expect(item(page, text)).toHaveClass(/message--own/);
      } else {
        await expect(item(page, text)).not.toContainText('(you)');
        await expect(item(page, text)).not.toHaveClass(/message--own/);
      }
    };

    await say(first, `first says hi ${name}`);
    await expect(second.getByRole('log')).toContainText(`first says hi ${name}`);
    await say(second, `second says hi ${name}`);
    await expect(first.getByRole('log')).toContainText(`second says hi ${name}`);

    await expectMine(first, `first says hi ${name}`, true);
    await expectMine(first, `second says hi ${name}`, false);
    await expectMine(second, `second says hi ${name}`, true);
    await expectMine(second, `first says hi ${name}`, false);

    // Still so after a reload of the tab (history, not only live messages).
    await first.reload();
    await expectMine(first, `first says hi ${name}`, true);
    await expectMine(first, `second says hi ${name}`, false);
    await first.screenshot({ path: '/tmp/shots-22/porpchat-same-name.png' });

    // The other reader got the message with nothing but the typed name to tell who sent it.
    const history = await second.request.get('/api/thread/getThreadById/porpchat');
    const sent = ((await history.json()) as { messages: Record<string, unknown>[] }).messages.find(
      (message) => message.content === `first says hi ${name}`,
    );
    expect(sent).toBeDefined();
    expect(sent?.sender).toBe(name);
    expect(sent?.views).toEqual([]);
  });
});
