/**
 * Notifications and following (docs/product.md section 11): the header's bell, live; the
 * inbox at /notifications (unread marks, opening an item, 'Mark all as read', new ones on
 * top); `@username` suggestions in the answer composer; following questions and tags, the
 * home list's 'My tags'; the email digest setting and its unsubscribe page; axe in every theme.
 */
import { mkdirSync } from 'node:fs';
import { expect, type Locator, type Page } from '@playwright/test';
import type { AccessibilitySettings, Account, Notification } from '@porpoise/core';
import {
  adminPage,
  answerViaApi,
  askViaApi,
  expectNoSeriousAxeViolations,
  gotoWhenSocketOpen,
  linkIn,
  member,
  nextMail,
  overrideAccessibilitySettings,
  registerViaApi,
  stamp,
  test,
} from './support.ts';

const SHOTS = '/tmp/shots-notifications';
mkdirSync(SHOTS, { recursive: true });

/** The header's bell, whatever its count. */
const bell = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^Notifications, \d+ unread$/ });

/** The inbox's items, newest first. */
const inboxItems = (page: Page) => page.getByRole('list', { name: 'Your notifications' }).getByRole('listitem');

/** A tag name only this test uses (at most 20 characters). */
const uniqueTag = () => `n${stamp()}`.slice(0, 20);

/** Marks the page so that a reload (which would drop the mark) fails the test. */
async function markNotReloaded(page: Page) {
  await page.evaluate(() => document.body.setAttribute('data-not-reloaded', 'yes'));
}

async function expectNotReloaded(page: Page) {
  await expect(page.locator('body')).toHaveAttribute('data-not-reloaded', 'yes');
}

/** An unread item is bold, with a dot and the word 'Unread'; a read one has neither. */
async function expectUnread(item: Locator, unread: boolean) {
  const what = item.locator('.notice__what');
  if (unread) {
    await expect(item).toContainText('Unread');
    await expect(item.locator('.notice__dot')).toBeVisible();
    await expect(what).toHaveCSS('font-weight', '700');
  } else {
    await expect(item).not.toContainText('Unread');
    await expect(item.locator('.notice__dot')).toHaveCount(0);
    await expect(what).toHaveCSS('font-weight', '400');
  }
}

test.describe('the bell and the inbox', () => {
  test("the asker's bell counts a new answer live; the inbox marks it unread, opening it reads it, and 'Mark all as read' clears", async ({
    browser,
    baseURL,
  }) => {
    const asker = await member(browser, baseURL, 'bell');
    const answerer = await member(browser, baseURL, 'bell');
    const question = await askViaApi(asker.page, asker.account.username, `Bell question ${stamp()}`);

    // The bell names its count, 0 included, and shows no badge then.
    await gotoWhenSocketOpen(asker.page, `/question/${question._id}`);
    await expect(asker.page.getByRole('heading', { level: 1, name: question.title })).toBeVisible();
    await expect(bell(asker.page)).toHaveAccessibleName('Notifications, 0 unread');
    await expect(bell(asker.page).locator('.bell__badge')).toHaveCount(0);
    await expect(bell(asker.page).locator('svg')).toBeVisible();
    await markNotReloaded(asker.page);

    // Another member answers: the asker's bell goes to 1 at once, with a visible badge.
    await answerViaApi(answerer.page, answerer.account.username, question._id, 'An answer for the bell.');
    await expect(bell(asker.page)).toHaveAccessibleName('Notifications, 1 unread');
    await expect(bell(asker.page).locator('.bell__badge')).toHaveText('1');
    await expectNotReloaded(asker.page);
    await asker.page.getByRole('banner').screenshot({ path: `${SHOTS}/bell-1-unread.png` });

    // A second answer; then the inbox: newest first, both unread.
    await answerViaApi(answerer.page, answerer.account.username, question._id, 'A second answer, newer.');
    await expect(bell(asker.page)).toHaveAccessibleName('Notifications, 2 unread');
    await bell(asker.page).click();
    await expect(asker.page).toHaveURL(/\/notifications$/);
    await expect(asker.page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    const items = inboxItems(asker.page);
    await expect(items).toHaveCount(2);
    await expect(items.first()).toContainText(`${answerer.account.username} answered your question`);
    await expect(items.first()).toContainText('A second answer, newer.');
    await expect(items.nth(1)).toContainText('An answer for the bell.');
    await expect(items.first().locator('time')).toHaveText(/ago|now/);
    for (const item of [items.first(), items.nth(1)]) await expectUnread(item, true);
    await expect(
      items.first().getByRole('link', { name: new RegExp(`^Unread: ${answerer.account.username} answered`) }),
    ).toHaveAttribute('href', `/question/${question._id}`);

    // Opening one goes to its question and marks it read; the bell counts one fewer.
    const markRead = asker.page.waitForRequest((request) => request.url().endsWith('/api/notifications/markRead'));
    await items.first().getByRole('link').click();
    expect((await markRead).postDataJSON()).toEqual({ ids: [expect.any(String)] });
    await expect(asker.page).toHaveURL(new RegExp(`/question/${question._id}$`));
    await expect(bell(asker.page)).toHaveAccessibleName('Notifications, 1 unread');
    await asker.page.goBack();
    await expect(items).toHaveCount(2);
    await expectUnread(items.first(), false);
    await expectUnread(items.nth(1), true);
    await asker.page.screenshot({ path: `${SHOTS}/inbox-read-and-unread.png`, fullPage: true });

    // A notification that comes while the inbox is open goes on top, unread, and the bell counts it.
    await markNotReloaded(asker.page);
    await answerViaApi(answerer.page, answerer.account.username, question._id, 'A third answer, live.');
    await expect(items).toHaveCount(3);
    await expect(items.first()).toContainText('A third answer, live.');
    await expectUnread(items.first(), true);
    await expect(bell(asker.page)).toHaveAccessibleName('Notifications, 2 unread');
    await expectNotReloaded(asker.page);

    // 'Mark all as read' clears every mark and the bell.
    await asker.page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(
      asker.page.getByRole('status').filter({ hasText: 'All notifications are marked as read.' }),
    ).toBeVisible();
    for (const item of await items.all()) await expectUnread(item, false);
    await expect(bell(asker.page)).toHaveAccessibleName('Notifications, 0 unread');
    await expect(bell(asker.page).locator('.bell__badge')).toHaveCount(0);
    const count = await asker.page.request.get('/api/notifications/unreadCount');
    expect(await count.json()).toEqual({ count: 0 });
    await asker.page.reload();
    await expect(items).toHaveCount(3);
    await expectUnread(items.first(), false);
  });

  test("a bell in another tab follows 'Mark all as read', and a deleted answer's notification leaves it", async ({
    browser,
    baseURL,
  }) => {
    const asker = await member(browser, baseURL, 'tabs');
    const answerer = await member(browser, baseURL, 'tabs');
    const question = await askViaApi(asker.page, asker.account.username, `Two tabs question ${stamp()}`);
    await answerViaApi(answerer.page, answerer.account.username, question._id, 'An answer seen in two tabs.');

    await gotoWhenSocketOpen(asker.page, `/question/${question._id}`);
    await expect(bell(asker.page)).toHaveAccessibleName('Notifications, 1 unread');
    await markNotReloaded(asker.page);
    const otherTab = await asker.page.context().newPage();
    await gotoWhenSocketOpen(otherTab, '/notifications');
    await expect(inboxItems(otherTab)).toHaveCount(1);
    await otherTab.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(bell(otherTab)).toHaveAccessibleName('Notifications, 0 unread');
    // The first tab's bell follows without a reload or a page change.
    await expect(bell(asker.page)).toHaveAccessibleName('Notifications, 0 unread');

    // A new answer counts in both; deleted by its author, it leaves both bells.
    const answer = await answerViaApi(answerer.page, answerer.account.username, question._id, 'Soon deleted.');
    await expect(bell(asker.page)).toHaveAccessibleName('Notifications, 1 unread');
    await expect(bell(otherTab)).toHaveAccessibleName('Notifications, 1 unread');
    expect((await answerer.page.request.delete(`/api/answer/${answer._id}`)).status()).toBe(200);
    await expect(bell(asker.page)).toHaveAccessibleName('Notifications, 0 unread');
    await expect(bell(otherTab)).toHaveAccessibleName('Notifications, 0 unread');
    await expectNotReloaded(asker.page);
  });

  test("an empty inbox says so, and the list pages back with 'Load more'", async ({ browser, baseURL }) => {
    const quiet = await member(browser, baseURL, 'quiet');
    await quiet.page.goto('/notifications');
    await expect(quiet.page.getByText('No notifications yet.')).toBeVisible();
    await expect(quiet.page.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0);
    await quiet.page.screenshot({ path: `${SHOTS}/inbox-empty.png` });

    // 23 notifications: a first page of 20, then the 3 older ones.
    const busy = await member(browser, baseURL, 'busy');
    const answerer = await member(browser, baseURL, 'busy');
    const question = await askViaApi(busy.page, busy.account.username, `Many answers ${stamp()}`);
    for (let i = 1; i <= 23; i += 1) {
      await answerViaApi(answerer.page, answerer.account.username, question._id, `Answer number ${i}.`);
    }
    // Scrolling to the end loads the next page, and so would scrolling to click the button:
    // as on the home list (questions.spec.ts), the button is tested where the browser cannot
    // watch scrolling (no IntersectionObserver), where it is the only way.
    for (const way of ['scrolling', 'the button'] as const) {
      const page = way === 'scrolling' ? busy.page : await busy.page.context().newPage();
      if (way === 'the button') {
        await page.addInitScript(() => {
          delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
        });
      }
      await page.goto('/notifications');
      const items = inboxItems(page);
      await expect(items).toHaveCount(20);
      await expect(items.first()).toContainText('Answer number 23.');
      const more = page.getByRole('button', { name: 'Load more' });
      if (way === 'the button') await more.click();
      else await more.scrollIntoViewIfNeeded();
      await expect(items).toHaveCount(23);
      await expect(items.last()).toContainText('Answer number 1.');
      await expect(more).toHaveCount(0);
    }
  });
});

test.describe('mention suggestions', () => {
  test.use({ bypassCSP: true });

  test('suggestions that arrive after Escape, or after leaving the text, do not open the list again', async ({
    browser,
    baseURL,
  }) => {
    const prefix = `e${stamp()}`.slice(0, 12);
    const writer = await member(browser, baseURL, 'writer');
    await member(browser, baseURL, prefix);
    const question = await askViaApi(writer.page, writer.account.username, `Late mentions ${stamp()}`);
    // The answer for the whole prefix is held until the list has been closed; shorter ones pass.
    let hold: { arrived: () => void; released: Promise<void> } | null = null;
    await writer.page.route('**/api/profile/suggest?**', async (route) => {
      const response = await route.fetch();
      const held = hold;
      if (held && new URL(route.request().url()).searchParams.get('prefix') === prefix) {
        held.arrived();
        await held.released;
      }
      await route.fulfill({ response });
    });
    const holdNext = () => {
      let arrived!: () => void;
      let release!: () => void;
      const arrival = new Promise<void>((resolve) => (arrived = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      hold = { arrived, released };
      return { arrival, release };
    };
    /** Lets the held answer through, and waits until the page has it and has drawn a frame since. */
    const deliver = async (release: () => void) => {
      const answered = writer.page.waitForResponse(
        (response) => new URL(response.url()).searchParams.get('prefix') === prefix,
      );
      release();
      await (await answered).finished();
      await writer.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    };

    await writer.page.goto(`/new/answer/${question._id}`);
    const text = writer.page.getByLabel('Answer Text');
    const list = writer.page.getByRole('listbox', { name: 'Usernames' });

    let held = holdNext();
    await text.focus();
    await text.pressSequentially(`Hi @${prefix}`);
    await held.arrival;
    await text.press('Escape');
    await deliver(held.release);
    await expect(list).toBeHidden();
    await expect(text).toHaveValue(`Hi @${prefix}`);

    // Typing on opens it again.
    hold = null;
    await text.press('Backspace');
    await expect(list).toBeVisible();

    held = holdNext();
    await text.pressSequentially(prefix.slice(-1));
    await held.arrival;
    await text.blur();
    await deliver(held.release);
    await expect(list).toBeHidden();
    await writer.page.context().close();
  });

  test('typing @ and a name in the answer composer suggests members; arrows, Enter, Tab and Escape work', async ({
    browser,
    baseURL,
  }) => {
    const prefix = `m${stamp()}`.slice(0, 12);
    const writer = await member(browser, baseURL, 'writer');
    const first = await member(browser, baseURL, prefix);
    const second = await member(browser, baseURL, prefix);
    const names = [first.account.username, second.account.username].sort((a, b) => a.localeCompare(b));
    const question = await askViaApi(writer.page, writer.account.username, `Mentions ${stamp()}`);

    await writer.page.goto(`/new/answer/${question._id}`);
    const text = writer.page.getByLabel('Answer Text');
    await text.focus();
    await text.pressSequentially(`Thanks @${prefix}`);
    const list = writer.page.getByRole('listbox', { name: 'Usernames' });
    const options = list.getByRole('option');
    await expect(list).toBeVisible();
    await expect(options).toHaveText(names.map((name) => `@${name}`));
    await expect(text).toHaveAttribute('aria-controls', (await list.getAttribute('id')) ?? '');
    await expect(text).toHaveAttribute('aria-autocomplete', 'list');

    // The first option is highlighted; ArrowDown moves on, ArrowUp back (wrapping round).
    const activeIs = async (index: number) => {
      await expect(options.nth(index)).toHaveAttribute('aria-selected', 'true');
      await expect(text).toHaveAttribute('aria-activedescendant', (await options.nth(index).getAttribute('id')) ?? '');
    };
    await activeIs(0);
    await text.press('ArrowDown');
    await activeIs(1);
    await text.press('ArrowDown');
    await activeIs(0);
    await text.press('ArrowUp');
    await activeIs(1);
    await writer.page.screenshot({ path: `${SHOTS}/mention-list.png` });
    await expectNoSeriousAxeViolations(writer.page);

    // Enter inserts '@username ' (and sends nothing).
    await text.press('Enter');
    await expect(text).toHaveValue(`Thanks @${names[1]} `);
    await expect(list).toBeHidden();
    await expect(text).not.toHaveAttribute('aria-activedescendant');
    await expect(writer.page).toHaveURL(new RegExp(`/new/answer/${question._id}$`));

    // Escape closes the list and keeps the text as typed; typing on opens it again; Tab inserts.
    await text.pressSequentially(`and @${prefix}`);
    await expect(options).toHaveCount(2);
    await text.press('Escape');
    await expect(list).toBeHidden();
    await expect(text).toHaveValue(`Thanks @${names[1]} and @${prefix}`);
    await text.pressSequentially('_');
    await expect(options).toHaveCount(2);
    await text.press('Tab');
    await expect(text).toHaveValue(`Thanks @${names[1]} and @${names[0]} `);
    await expect(text).toBeFocused();

    // An '@' inside an address or a name nobody has suggests nothing.
    await text.pressSequentially('mail@exa zz @zzzq');
    await expect(list).toBeHidden();

    // Posted, the mentions link to the profiles and each mentioned member hears of it.
    await writer.page.getByRole('button', { name: 'Post Answer' }).click();
    await expect(writer.page).toHaveURL(new RegExp(`/question/${question._id}$`));
    await expect(writer.page.getByRole('link', { name: `@${names[0]}` })).toHaveAttribute(
      'href',
      `/profile/${names[0]}`,
    );
    for (const mentioned of [first, second]) {
      const response = await mentioned.page.request.get('/api/notifications');
      const listed = (await response.json()) as Notification[];
      expect(listed.map((n) => [n.kind, n.actor, n.qid])).toEqual([['mention', writer.account.username, question._id]]);
    }
    await first.page.goto('/notifications');
    await expect(inboxItems(first.page).first()).toContainText(`${writer.account.username} mentioned you`);

    // The comment box suggests too; Enter there inserts the name rather than sending the comment.
    const comment = writer.page.getByRole('article', { name: question.title }).getByLabel('Add a comment');
    await comment.pressSequentially(`cc @${(names[0] ?? '').slice(0, -1)}`);
    await expect(options).toHaveText([`@${names[0]}`]);
    await comment.press('Enter');
    await expect(comment).toHaveValue(`cc @${names[0]} `);
    await expect(writer.page.getByRole('list', { name: 'Comments' })).toHaveCount(0);
    await comment.press('Enter');
    await expect(writer.page.getByRole('list', { name: 'Comments' })).toContainText(`cc @${names[0]}`);
  });
});

test.describe('following', () => {
  test("the question page's Follow toggle; a followed question's new answers reach its follower", async ({
    browser,
    baseURL,
  }) => {
    const asker = await member(browser, baseURL, 'fq');
    const follower = await member(browser, baseURL, 'fq');
    const answerer = await member(browser, baseURL, 'fq');
    const question = await askViaApi(asker.page, asker.account.username, `Follow me ${stamp()}`);

    // Asking follows the question.
    await asker.page.goto(`/question/${question._id}`);
    const askerToggle = asker.page.getByRole('button', { name: 'Following' });
    await expect(askerToggle).toHaveAttribute('aria-pressed', 'true');

    await gotoWhenSocketOpen(follower.page, `/question/${question._id}`);
    const toggle = follower.page.getByRole('button', { name: /^Follow(ing)?$/ });
    await expect(toggle).toHaveText('Follow');
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.click();
    await expect(toggle).toHaveText('Following');
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(await (await follower.page.request.get(`/api/question/${question._id}/follow`)).json()).toEqual({
      following: true,
    });
    await follower.page.screenshot({ path: `${SHOTS}/question-following.png` });

    await answerViaApi(answerer.page, answerer.account.username, question._id, 'News for followers.');
    await expect(bell(follower.page)).toHaveAccessibleName('Notifications, 1 unread');
    await follower.page.goto('/notifications');
    await expect(inboxItems(follower.page).first()).toContainText(
      `${answerer.account.username} answered a question you follow`,
    );

    // Pressed again, it stops following, and stays so after a reload.
    await follower.page.goto(`/question/${question._id}`);
    await toggle.click();
    await expect(toggle).toHaveText('Follow');
    await follower.page.reload();
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  });

  test("/tags follows a tag; the home list's 'My tags' shows its questions, or says how to fill it", async ({
    page,
  }) => {
    const me = await registerViaApi(page.request, 'tagfan');
    const tag = uniqueTag();
    const other = uniqueTag();
    const mine = await askViaApi(page, me.username, `In my tag ${stamp()}`, { tags: [tag] });
    const elsewhere = await askViaApi(page, me.username, `In another tag ${stamp()}`, { tags: [other] });

    // Following no tag: 'My tags' says how to fill it.
    await page.goto('/home');
    await page.getByRole('button', { name: 'My tags' }).click();
    await expect(page).toHaveURL(/\/home\?myTags=true$/);
    await expect(page.getByRole('button', { name: 'My tags' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText('Follow tags on the Tags page to fill this list.')).toBeVisible();
    await page.getByRole('link', { name: 'Tags page' }).click();
    await expect(page).toHaveURL(/\/tags$/);

    const card = page
      .locator('ul.tag-cards > li')
      .filter({ has: page.getByRole('link', { name: new RegExp(`^${tag}`) }) });
    const follow = page.getByRole('button', { name: `Follow tag ${tag}`, exact: true });
    await expect(follow).toHaveAttribute('aria-pressed', 'false');
    await expect(card).not.toContainText('Following');
    await follow.click();
    await expect(follow).toHaveAttribute('aria-pressed', 'true');
    await expect(card.getByText('Following')).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/tags-following.png` });
    const account = (await (await page.request.get('/api/account/me')).json()) as Account;
    expect(account.followedTags).toEqual([tag]);

    // 'My tags' now lists the followed tag's questions only, and the URL says so.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Questions' }).click();
    await page.getByRole('button', { name: 'My tags' }).click();
    await expect(page).toHaveURL(/\/home\?myTags=true$/);
    const rows = page.locator('ol.q-list > li');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(mine.title);
    await expect(page.getByText(elsewhere.title)).toHaveCount(0);
    // The order keeps the filter; pressing it again shows everything.
    await page.getByRole('button', { name: 'Active' }).click();
    await expect(page).toHaveURL(/\/home\?order=active&myTags=true$/);
    await expect(rows).toHaveCount(1);
    await page.getByRole('button', { name: 'My tags' }).click();
    await expect(page).toHaveURL(/\/home\?order=active$/);
    await expect(page.getByText(elsewhere.title)).toBeVisible();

    // Unfollowed, the tag loses its mark.
    await page.goto('/tags');
    await follow.click();
    await expect(follow).toHaveAttribute('aria-pressed', 'false');
    await expect(card).not.toContainText('Following');
  });
});

test.describe('the email digest', () => {
  test("/profile's 'Email digest' shows the saved value and saves a new one", async ({ page }) => {
    await registerViaApi(page.request, 'digest');
    await page.goto('/profile');
    const select = page.getByLabel('Email digest');
    await expect(select).toHaveValue('weekly');
    await expect(select.locator('option')).toHaveText(['Off', 'Daily', 'Weekly']);
    const saved = page.waitForRequest((request) => request.url().endsWith('/api/account/digest'));
    await select.selectOption({ label: 'Daily' });
    expect((await saved).postDataJSON()).toEqual({ digest: 'daily' });
    await expect(page.getByRole('status').filter({ hasText: 'Email digest saved: daily.' })).toBeVisible();
    await select.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/profile-digest.png` });
    const account = (await (await page.request.get('/api/account/me')).json()) as Account;
    expect(account.digest).toBe('daily');
    // Back on the profile (no reload) and after one, the saved value shows.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tags' }).click();
    await page.getByRole('button', { name: /profile$/ }).click();
    await expect(select).toHaveValue('daily');
    await page.reload();
    await expect(select).toHaveValue('daily');
  });

  test('the unsubscribe page: a bad link says so; the mailed link turns the digest off', async ({
    browser,
    baseURL,
    page,
  }) => {
    // No token, a malformed one, a well-formed one nobody was given: the server's words.
    await page.goto('/unsubscribe');
    await expect(page.getByRole('alert')).toHaveText('Error: This unsubscribe link is not valid.');
    await expect(page.getByRole('banner')).toHaveCount(0);
    for (const token of ['not-a-token', '0123456789abcdef0123456789abcdef']) {
      await page.goto(`/unsubscribe?token=${token}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Unsubscribe from the Email Digest' })).toBeVisible();
      // The token leaves the address bar at once.
      await expect(page).toHaveURL(/\/unsubscribe$/);
      await page.getByRole('button', { name: 'Unsubscribe' }).click();
      await expect(page.getByRole('alert')).toHaveText('Error: This unsubscribe link is not valid.');
    }
    await page.screenshot({ path: `${SHOTS}/unsubscribe-bad-token.png` });

    // A member with an unread notification gets a digest when an admin sends the due ones.
    const reader = await member(browser, baseURL, 'unsub');
    const answerer = await member(browser, baseURL, 'unsub');
    const question = await askViaApi(reader.page, reader.account.username, `Digest me ${stamp()}`);
    await answerViaApi(answerer.page, answerer.account.username, question._id, 'Something to say.');
    const admin = await adminPage(browser, baseURL);
    const run = await admin.request.post('/api/admin/digests/run');
    expect(run.status(), await run.text()).toBe(200);
    const mail = await nextMail(page, reader.account.email);
    const link = linkIn(mail, '/unsubscribe');

    // Opening the link changes nothing; the button does.
    const visitor = await (await browser.newContext({ baseURL })).newPage();
    await visitor.goto(link);
    const me = async () => (await (await reader.page.request.get('/api/account/me')).json()) as Account;
    expect((await me()).digest).toBe('weekly');
    await visitor.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(visitor.getByRole('status')).toHaveText('You will no longer get the email digest.');
    expect((await me()).digest).toBe('off');
    await visitor.screenshot({ path: `${SHOTS}/unsubscribe-done.png` });
  });
});

test.describe('accessibility', () => {
  // axe-core goes in as a script tag, which the pages' CSP would refuse.
  test.use({ bypassCSP: true });

  const palettes: AccessibilitySettings['colorBlindness'][] = ['none', 'redgreen', 'blueyellow', 'grayscale'];

  test('/notifications with read and unread items has no serious axe violation in any palette, with or without low vision', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const reader = await member(browser, baseURL, 'axe');
    const answerer = await member(browser, baseURL, 'axe');
    const question = await askViaApi(reader.page, reader.account.username, `Axe inbox ${stamp()}`);
    await answerViaApi(answerer.page, answerer.account.username, question._id, 'Read already.');
    await reader.page.request.post('/api/notifications/markRead', { data: { all: true } });
    await answerViaApi(answerer.page, answerer.account.username, question._id, 'Not read yet.');
    for (const colorBlindness of palettes) {
      for (const lowVision of [false, true]) {
        await overrideAccessibilitySettings(reader.page, { colorBlindness, lowVision });
        await reader.page.goto('/notifications');
        const themed = [colorBlindness === 'none' ? '' : colorBlindness, lowVision ? 'low-vision' : '']
          .join(' ')
          .trim();
        await expect(reader.page.locator('body')).toHaveClass(themed);
        await expect(inboxItems(reader.page)).toHaveCount(2);
        await expect(bell(reader.page)).toHaveAccessibleName('Notifications, 1 unread');
        await expectNoSeriousAxeViolations(reader.page);
        await reader.page.screenshot({ path: `${SHOTS}/inbox-${colorBlindness}${lowVision ? '-lv' : ''}.png` });
        await reader.page.unroute('**/api/account/me');
      }
    }
  });

  test('/tags with follow buttons, /profile with the digest, and /unsubscribe have no serious axe violation', async ({
    page,
  }) => {
    const me = await registerViaApi(page.request, 'axe');
    const tag = uniqueTag();
    await askViaApi(page, me.username, `Axe tags ${stamp()}`, { tags: [tag] });
    await page.request.post(`/api/tag/${tag}/follow`);
    for (const lowVision of [false, true]) {
      await overrideAccessibilitySettings(page, { colorBlindness: 'none', lowVision });
      await page.goto('/tags');
      await expect(page.getByRole('button', { name: `Follow tag ${tag}` })).toHaveAttribute('aria-pressed', 'true');
      await expectNoSeriousAxeViolations(page);
      await page.goto('/profile');
      await expect(page.getByLabel('Email digest')).toHaveValue('weekly');
      await expectNoSeriousAxeViolations(page);
      await page.goto('/home?myTags=true');
      await expect(page.getByRole('heading', { level: 1, name: 'My Tags' })).toBeVisible();
      await expectNoSeriousAxeViolations(page);
      await page.unroute('**/api/account/me');
    }
    await page.goto('/unsubscribe?token=0123456789abcdef0123456789abcdef');
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expectNoSeriousAxeViolations(page);
  });
});
