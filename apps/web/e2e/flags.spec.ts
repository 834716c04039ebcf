/**
 * Flags and the review queue (docs/product.md section 10), between two browser contexts: a
 * member flags an answer through the 'Flag' dialog, a moderator deletes it from
 * /moderation, and it leaves the member's open page at once; axe on the queue and the log
 * in every theme. Against the built server in Chromium.
 */
import { expect } from '@playwright/test';
import {
  adminPage,
  answerViaApi,
  askViaApi,
  E2E_ADMIN,
  expectNoSeriousAxeViolations,
  gotoWhenQuestionsWatched,
  member,
  overrideAccessibilitySettings,
  stamp,
  test,
} from './support.ts';
import { MESSAGES } from '@porpoise/core';

test.describe('flags and the review queue', () => {
  test.use({ bypassCSP: true });

  test('a member flags an answer; a moderator deletes it from the queue; it leaves the page live', async ({
    browser,
    baseURL,
  }) => {
    const reader = await member(browser, baseURL, 'flag');
    const author = await member(browser, baseURL, 'flag');
    const question = await askViaApi(reader.page, reader.account.username, `Flag me ${stamp()}`);
    const spam = `Cheap watches ${stamp()}`;
    await answerViaApi(author.page, author.account.username, question._id, spam);
    await gotoWhenQuestionsWatched(reader.page, `/question/${question._id}`);
    const answer = reader.page.getByRole('article', { name: `Answer by ${author.account.username}` });
    await expect(answer).toContainText(spam);

    // The dialog: the four reasons, an optional note, and 'Flag'.
    await answer.getByRole('button', { name: `Flag the answer by ${author.account.username}` }).click();
    const dialog = reader.page.getByRole('dialog', { name: `Flag the answer by ${author.account.username}` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('radio')).toHaveCount(4);
    await dialog.getByRole('button', { name: 'Flag' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Choose a reason');
    await dialog.getByRole('radio', { name: 'Spam' }).check();
    await dialog.getByLabel('Note (optional)').fill('Advertising');
    await dialog.getByRole('button', { name: 'Flag' }).click();
    await expect(dialog).toBeHidden();
    await expect(answer.getByRole('status').filter({ hasText: MESSAGES.flagSent })).toBeVisible();

    const mod = await adminPage(browser, baseURL);
    await mod.goto('/moderation');
    await expect(mod.getByRole('heading', { level: 1, name: 'Review queue' })).toBeVisible();
    const card = mod.getByRole('article', { name: `Answer by ${author.account.username}` });
    await expect(card).toContainText(spam);
    await expect(card).toContainText('Flags: 1 spam');
    await expect(card).toContainText(`spam from ${reader.account.username}: “Advertising”`);
    await card.getByRole('button', { name: `Delete the answer by ${author.account.username}` }).click();
    await mod.getByRole('dialog', { name: 'Delete this post?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(card).toHaveCount(0);

    // Gone from the member's open page, without a reload.
    await expect(answer).toHaveCount(0);
    await mod.goto('/moderation/log');
    await expect(mod.locator('.moderation-log__entry').first()).toContainText(
      `${E2E_ADMIN.username} deleted an answer by ${author.account.username}`,
    );
  });

  test('the queue and the log pass axe in every theme', async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    const flagger = await member(browser, baseURL, 'axe');
    const author = await member(browser, baseURL, 'axe');
    const question = await askViaApi(author.page, author.account.username, `Axe flags ${stamp()}`);
    const flagged = await flagger.page.request.post('/api/flag', {
      data: { targetType: 'question', targetId: question._id, reason: 'rude', note: 'Rude words' },
    });
    expect(flagged.status()).toBe(200);
    const mod = await adminPage(browser, baseURL);
    for (const lowVision of [false, true]) {
      for (const colorBlindness of ['none', 'redgreen', 'blueyellow', 'grayscale'] as const) {
        await overrideAccessibilitySettings(mod, { lowVision, colorBlindness });
        await mod.goto('/moderation');
        await expect(mod.getByRole('article', { name: `Question by ${author.account.username}` })).toBeVisible();
        await mod
          .getByRole('article', { name: `Question by ${author.account.username}` })
          .getByRole('button', { name: `Suspend ${author.account.username}` })
          .click();
        await expect(mod.getByLabel('Days')).toBeVisible();
        // With its errors beside the fields (issue 32 item 7).
        await mod.getByRole('button', { name: 'Suspend', exact: true }).click();
        await expect(mod.getByText(MESSAGES.suspensionDaysRequired)).toBeVisible();
        await expectNoSeriousAxeViolations(mod);
        // The delete dialog, open.
        await mod
          .getByRole('article', { name: `Question by ${author.account.username}` })
          .getByRole('button', { name: /^Delete/ })
          .click();
        await expect(mod.getByRole('dialog', { name: 'Delete this post?' })).toBeVisible();
        await expectNoSeriousAxeViolations(mod);
        await mod.keyboard.press('Escape');
        await mod.goto('/moderation/log');
        await expect(mod.getByRole('heading', { level: 1, name: 'Moderation log' })).toBeVisible();
        await expectNoSeriousAxeViolations(mod);
        await mod.unrouteAll({ behavior: 'wait' });
      }
    }
    // The flag dialog itself, open, in every theme (on another member's question: one not flagged yet).
    const other = await askViaApi(mod, E2E_ADMIN.username, `Axe dialog ${stamp()}`);
    for (const lowVision of [false, true]) {
      for (const colorBlindness of ['none', 'redgreen', 'blueyellow', 'grayscale'] as const) {
        await overrideAccessibilitySettings(flagger.page, { lowVision, colorBlindness });
        await flagger.page.goto(`/question/${other._id}`);
        await flagger.page.getByRole('button', { name: 'Flag this question' }).click();
        await expect(flagger.page.getByRole('dialog')).toBeVisible();
        await expectNoSeriousAxeViolations(flagger.page);
        await flagger.page.unrouteAll({ behavior: 'wait' });
      }
    }
  });

  test('flags reach an open queue live; a suspended member is signed out and told why at sign-in', async ({
    browser,
    baseURL,
  }) => {
    const offender = await member(browser, baseURL, 'susp');
    const flagger = await member(browser, baseURL, 'susp');
    const question = await askViaApi(offender.page, offender.account.username, `Suspend me ${stamp()}`);
    const mod = await adminPage(browser, baseURL);
    // The worst order for a live screen: the queue is read before the flag, and its answer
    // arrives only after the flag's reviewUpdate. The update must wait, and then apply.
    let release = () => {};
    const answerHeld = new Promise<void>((resolve) => (release = resolve));
    let read = () => {};
    const queueRead = new Promise<void>((resolve) => (read = resolve));
    await mod.route('**/api/moderation/queue', async (route) => {
      const response = await route.fetch();
      read();
      await answerHeld;
      await route.fulfill({ response });
    });
    let connected = () => {};
    const socketConnected = new Promise<void>((resolve) => (connected = resolve));
    let heard = () => {};
    const heardUpdate = new Promise<void>((resolve) => (heard = resolve));
    mod.once('websocket', (ws) =>
      ws.on('framereceived', (frame) => {
        const payload = String(frame.payload);
        if (payload.startsWith('40')) connected();
        if (payload.includes('"reviewUpdate"')) heard();
      }),
    );
    await mod.goto('/moderation');
    await expect(mod.getByRole('heading', { level: 1, name: 'Review queue' })).toBeVisible();
    // The socket connected (it joined the moderators' room before its connect was answered)
    // and the queue read: now the flag, whose update is heard before the queue's answer.
    await Promise.all([queueRead, socketConnected]);
    const flagged = await flagger.page.request.post('/api/flag', {
      data: { targetType: 'question', targetId: question._id, reason: 'spam' },
    });
    expect(flagged.status()).toBe(200);
    await heardUpdate;
    release();
    const card = mod.getByRole('article', { name: `Question by ${offender.account.username}` });
    await expect(card).toContainText('Flags: 1 spam');
    await mod.unrouteAll({ behavior: 'wait' });

    await gotoWhenQuestionsWatched(offender.page, `/question/${question._id}`);
    await card.getByRole('button', { name: `Suspend ${offender.account.username}` }).click();
    const form = card.getByRole('form', { name: `Suspend ${offender.account.username}` });
    await form.getByRole('button', { name: 'Suspend' }).click();
    await expect(form.getByRole('alert')).toHaveText([
      `Error: ${MESSAGES.suspensionReasonEmpty}`,
      `Error: ${MESSAGES.suspensionDaysRequired}`,
    ]);
    await form.getByLabel('Reason').fill('Posting spam');
    await form.getByLabel('Days').fill('3');
    await form.getByRole('button', { name: 'Suspend' }).click();
    await expect(card.getByRole('status')).toContainText(`${offender.account.username} is suspended until`);

    // Their session is over: the next page they open sends them to sign in, which says why.
    await offender.page.goto('/home');
    await expect(offender.page).not.toHaveURL(/\/home$/);
    await offender.page.goto('/login');
    await offender.page.getByLabel('Username').fill(offender.account.username);
    await offender.page.getByLabel('Password').fill(offender.account.password);
    await offender.page.getByRole('button', { name: 'Sign In' }).click();
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await expect(offender.page.getByRole('alert')).toContainText(
      `This account is suspended until ${until}: Posting spam`,
    );
  });

  // Issue 32 item 7: destructive moderator actions confirm (docs/product.md section 5).
  for (const width of [390, 1280]) {
    test(`at ${width} px, 'Delete' asks first: Escape and Cancel keep the item, the dialog's Delete removes it`, async ({
      browser,
      baseURL,
    }) => {
      const flagger = await member(browser, baseURL, 'del');
      const author = await member(browser, baseURL, 'del');
      const question = await askViaApi(author.page, author.account.username, `Delete asks ${stamp()}`);
      const flagged = await flagger.page.request.post('/api/flag', {
        data: { targetType: 'question', targetId: question._id, reason: 'spam' },
      });
      expect(flagged.status()).toBe(200);
      const mod = await adminPage(browser, baseURL);
      await mod.setViewportSize({ width, height: 800 });
      let deletes = 0;
      mod.on('request', (request) => {
        if (request.url().endsWith('/api/moderation/delete')) deletes += 1;
      });
      await mod.goto('/moderation');
      const card = mod.getByRole('article', { name: `Question by ${author.account.username}` });
      const button = card.getByRole('button', { name: `Delete the question by ${author.account.username}` });
      const dialog = mod.getByRole('dialog', { name: 'Delete this post?' });

      await button.click();
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button')).toHaveText(['Delete', 'Cancel']);
      // Focus starts inside, on the harmless choice.
      await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await mod.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(button).toBeFocused();

      await button.click();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
      await expect(button).toBeFocused();
      await expect(card).toBeVisible();
      expect(deletes).toBe(0);

      await button.click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await expect(card).toHaveCount(0);
      expect(deletes).toBe(1);
      const page = await author.page.request.get(`/api/getQuestionById/${question._id}`);
      expect((await page.json()) as { deleted?: boolean }).toMatchObject({ deleted: true });
    });

    test(`at ${width} px, 'Suspend' needs days or 'Suspend for good': empty Days sends nothing`, async ({
      browser,
      baseURL,
    }) => {
      const flagger = await member(browser, baseURL, 'sus');
      const offender = await member(browser, baseURL, 'sus');
      const question = await askViaApi(offender.page, offender.account.username, `Suspend needs days ${stamp()}`);
      const flagged = await flagger.page.request.post('/api/flag', {
        data: { targetType: 'question', targetId: question._id, reason: 'spam' },
      });
      expect(flagged.status()).toBe(200);
      const mod = await adminPage(browser, baseURL);
      await mod.setViewportSize({ width, height: 800 });
      let suspends = 0;
      mod.on('request', (request) => {
        if (request.url().endsWith('/api/moderation/suspend')) suspends += 1;
      });
      await mod.goto('/moderation');
      const card = mod.getByRole('article', { name: `Question by ${offender.account.username}` });
      await card.getByRole('button', { name: `Suspend ${offender.account.username}` }).click();
      const form = card.getByRole('form', { name: `Suspend ${offender.account.username}` });
      await form.getByLabel('Reason').fill('Spam, again');
      const days = form.getByLabel('Days');
      await expect(days).toHaveValue('');
      await form.getByRole('button', { name: 'Suspend' }).click();
      await expect(form.getByRole('alert')).toHaveText(`Error: ${MESSAGES.suspensionDaysRequired}`);
      await expect(days).toHaveAccessibleDescription(new RegExp(MESSAGES.suspensionDaysRequired));
      await expect(days).toHaveAttribute('aria-invalid', 'true');
      await expect(days).toBeFocused();
      expect(suspends).toBe(0);
      expect(await mod.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      await form.getByLabel('Suspend for good').check();
      await form.getByRole('button', { name: 'Suspend' }).click();
      await expect(card.getByRole('status')).toHaveText(`${offender.account.username} is suspended for good.`);
      expect(suspends).toBe(1);
    });
  }

  test('a member is sent away from /moderation', async ({ browser, baseURL }) => {
    const someone = await member(browser, baseURL, 'nomod');
    await someone.page.goto('/moderation');
    await expect(someone.page).toHaveURL(/\/home$/);
    await expect(someone.page.getByRole('link', { name: 'Moderation' })).toHaveCount(0);
  });
});
