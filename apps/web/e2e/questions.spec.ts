/**
 * The questions-and-answers screens (spec section 2: /home, /tags, /question/:qid,
 * /new/question, /new/answer/:qid), against the built server in Chromium.
 */
import { expect, type Page } from '@playwright/test';
import {
  answerViaApi,
  askViaApi,
  expectNoSeriousAxeViolations,
  gotoWhenQuestionsWatched,
  member,
  overrideAccessibilitySettings,
  registerViaApi,
  test,
} from './support.ts';
import { LIMITS, MESSAGES } from '@porpoise/core';

let counter = 0;

/** A tag name no other test has used: lower case, well under the 20-character limit. */
function uniqueTag(prefix = 't'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}${counter}`.slice(0, 20);
}

/** A word for titles that only this test's questions contain. */
function uniqueWord(prefix = 'w'): string {
  return uniqueTag(prefix);
}

/** The rows of the home list. */
const questionRows = (page: Page) => page.locator('ol.q-list > li');
/** The list's visible count ('2 questions'); the live region says the same a second later. */
const listCount = (page: Page, text: string) => page.getByRole('main').getByText(text, { exact: true });

test.describe('asking a question', () => {
  test('shows every validation message beside its field, then lands on /home with the question first', async ({
    page,
  }) => {
    await registerViaApi(page.request);
    await page.goto('/new/question');
    await expect(page.getByRole('heading', { level: 1, name: 'Ask a Question' })).toBeVisible();
    const title = page.getByLabel('Question Title');
    const text = page.getByLabel('Question Text');
    const tags = page.getByLabel('Tags');
    await expect(title).toHaveAccessibleDescription('Limit title to 100 characters or less');
    await expect(text).toHaveAccessibleDescription('Add details');
    await expect(tags).toHaveAccessibleDescription('Add keywords separated by whitespace');
    const post = page.getByRole('button', { name: 'Post Question' });
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/addQuestion')) posts.push(request.method());
    });

    await post.click();
    await expect(page.getByRole('alert').filter({ hasText: MESSAGES.titleEmpty })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: MESSAGES.questionTextEmpty })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: MESSAGES.tagsTooFew })).toBeVisible();
    await expect(title).toHaveAttribute('aria-invalid', 'true');
    await expect(title).toHaveAccessibleDescription(new RegExp(MESSAGES.titleEmpty));
    await expect(title).toBeFocused();

    await title.fill('x'.repeat(101));
    await text.fill('See [the docs](http://example.com) for more.');
    await tags.fill('a b c d e f');
    await post.click();
    await expect(page.getByText(MESSAGES.titleTooLong)).toBeVisible();
    await expect(page.getByText(MESSAGES.invalidHyperlink)).toBeVisible();
    await expect(page.getByText(MESSAGES.tagsTooMany)).toBeVisible();
    await expect(tags).toHaveAccessibleDescription(new RegExp(MESSAGES.tagsTooMany));

    await tags.fill(`ok ${'a'.repeat(21)}`);
    await post.click();
    await expect(page.getByText(MESSAGES.tagTooLong)).toBeVisible();
    expect(posts).toEqual([]);

    const wanted = `How do porpoises sleep ${uniqueWord()}?`;
    const tag = uniqueTag();
    await title.fill(wanted);
    await text.fill('They need to breathe. See [this page](https://example.com/porpoises).');
    await tags.fill(`${tag} marine`);
    await post.click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('heading', { level: 1, name: 'All Questions' })).toBeVisible();
    const first = questionRows(page).first();
    await expect(first.getByRole('link', { name: wanted })).toBeVisible();
    await expect(first.getByRole('link', { name: tag })).toBeVisible();
    await expect(first).toContainText('0 answers');
    await expect(first).toContainText('0 views');
    await expect(first).toContainText(/asked \d+ seconds? ago/);
    expect(posts).toEqual(['POST']);
  });
});

test.describe('the question page', () => {
  test('answering: the empty message, then success back on the question with the answer shown', async ({ page }) => {
    const account = await registerViaApi(page.request);
    const question = await askViaApi(page, account.username, `Answer me ${uniqueWord()}`, { tags: [uniqueTag()] });
    await page.goto(`/question/${question._id}`);
    await page.getByRole('link', { name: 'Answer Question' }).click();
    await expect(page).toHaveURL(new RegExp(`/new/answer/${question._id}$`));
    await expect(page.getByLabel('Answer Text')).toHaveAccessibleDescription('Add details');

    await page.getByRole('button', { name: 'Post Answer' }).click();
    await expect(page.getByRole('alert').filter({ hasText: MESSAGES.answerTextEmpty })).toBeVisible();
    await page.getByLabel('Answer Text').fill('Broken [link](ftp://example.com)');
    await page.getByRole('button', { name: 'Post Answer' }).click();
    await expect(page.getByRole('alert').filter({ hasText: MESSAGES.invalidHyperlink })).toBeVisible();

    await page
      .getByLabel('Answer Text')
      .fill('Half of the brain sleeps at a time. [Read more](https://example.com/sleep)');
    await page.getByRole('button', { name: 'Post Answer' }).click();
    await expect(page).toHaveURL(new RegExp(`/question/${question._id}$`));
    const answer = page.getByRole('article', { name: `Answer by ${account.username}` });
    await expect(answer).toContainText('Half of the brain sleeps at a time.');
    const link = answer.getByRole('link', { name: /Read more/ });
    await expect(link).toHaveAttribute('href', 'https://example.com/sleep');
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(page.getByRole('heading', { level: 2, name: '1 Answer' })).toBeVisible();
  });

  test("says 'asked … ago' once, beside the asker", async ({ page }) => {
    const account = await registerViaApi(page.request);
    const question = await askViaApi(page, account.username, `When was this ${uniqueWord()}`, { tags: [uniqueTag()] });
    await page.goto(`/question/${question._id}`);
    const article = page.getByRole('article', { name: question.title });
    await expect(article.getByRole('link', { name: account.username })).toBeVisible();
    await expect(article.getByText(/asked/i)).toHaveCount(1);
    await expect(article.getByText(/asked/i)).toHaveText(/^asked \d+ seconds? ago$/);
    // The asker's reputation follows their name (docs/product.md section 13): a new member has 1.
    await expect(article.locator('.byline')).toHaveText(
      new RegExp(`^asked \\d+ seconds? ago by ${account.username} 1 reputation$`),
    );
    await expect(article.locator('.byline__reputation')).toHaveText('1 reputation');
    await expect(article.locator('time')).toHaveCount(1);
  });

  test('an answer address without a question id says so and goes to /home', async ({ page }) => {
    await registerViaApi(page.request);
    await page.goto('/new/answer');
    await expect(page.getByText('Question ID is missing.')).toBeVisible();
    await expect(page).toHaveURL(/\/home$/, { timeout: 10_000 });
  });

  test('commenting: a blank comment is refused without a request, a real one appears and the field clears', async ({
    page,
  }) => {
    const account = await registerViaApi(page.request);
    const question = await askViaApi(page, account.username, `Comment on me ${uniqueWord()}`, { tags: [uniqueTag()] });
    await answerViaApi(page, account.username, question._id, 'An answer to comment on.');
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/comment/addComment')) sent.push(request.postData() ?? '');
    });
    await page.goto(`/question/${question._id}`);
    const questionPart = page.getByRole('article', { name: question.title });
    const field = questionPart.getByLabel('Add a comment');

    await field.fill('   ');
    await field.press('Enter');
    await expect(questionPart.getByRole('alert')).toHaveText(new RegExp(MESSAGES.commentEmpty));
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toEqual([]);

    await field.fill('Good question, with [a source](https://example.com/source).');
    await field.press('Enter');
    const comments = questionPart.getByRole('list', { name: 'Comments' });
    await expect(comments.getByRole('listitem')).toHaveCount(1);
    await expect(comments).toContainText('Good question, with a source');
    await expect(comments).toContainText(account.username);
    await expect(field).toHaveValue('');
    await expect(questionPart.getByRole('alert')).toHaveCount(0);
    expect(sent).toHaveLength(1);

    const answerPart = page.getByRole('article', { name: `Answer by ${account.username}` });
    await answerPart.getByLabel('Add a comment').fill('Thanks, that helped.');
    await answerPart.getByRole('button', { name: 'Add Comment' }).click();
    await expect(answerPart.getByRole('list', { name: 'Comments' })).toContainText('Thanks, that helped.');
    await expect(answerPart.getByLabel('Add a comment')).toHaveValue('');
    // The question's own comments are unchanged: the answer's comment went under the answer.
    await expect(comments.getByRole('listitem')).toHaveCount(1);

    await page.reload();
    await expect(
      page.getByRole('article', { name: question.title }).getByRole('list', { name: 'Comments' }),
    ).toContainText('Good question');
  });

  test('voting: the count and the pressed state follow the vote', async ({ page }) => {
    const account = await registerViaApi(page.request);
    const question = await askViaApi(page, account.username, `Vote on me ${uniqueWord()}`, { tags: [uniqueTag()] });
    await gotoWhenQuestionsWatched(page, `/question/${question._id}`);
    const up = page.getByRole('button', { name: 'Upvote' });
    const down = page.getByRole('button', { name: 'Downvote' });
    const count = page.locator('.vote__number');
    await expect(count).toHaveText('0');
    await expect(up).toHaveAttribute('aria-pressed', 'false');
    await expect(down).toHaveAttribute('aria-pressed', 'false');

    await up.click();
    await expect(count).toHaveText('1');
    await expect(up).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText('You upvoted')).toBeVisible();

    await down.click();
    await expect(count).toHaveText('-1');
    await expect(down).toHaveAttribute('aria-pressed', 'true');
    await expect(up).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByText('You downvoted')).toBeVisible();

    // A vote toggles at once: downvoting again takes the downvote back.
    await down.click();
    await expect(count).toHaveText('0');
    await expect(down).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByText(/You (up|down)voted/)).toHaveCount(0);

    // While a vote is on its way both buttons are busy, so a second press is not a second
    // toggle: the request is held here until the page has been looked at.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let votes = 0;
    await page.route('**/api/upvoteQuestion', async (route) => {
      votes += 1;
      await held;
      await route.continue();
    });
    await up.click();
    await expect(page.getByRole('group', { name: 'Votes' })).toHaveAttribute('aria-busy', 'true');
    await expect(up).toHaveAttribute('aria-disabled', 'true');
    await up.click({ force: true }); // a busy button still takes focus and clicks, and ignores them
    release();
    await expect(count).toHaveText('1');
    await expect(up).toHaveAttribute('aria-disabled', 'false');
    expect(votes).toBe(1);
    await page.unroute('**/api/upvoteQuestion');
  });

  // Issue 23 item 4: a question page carries its first LIMITS.answerPageSize answers; the rest
  // load as the reader scrolls to the end, or with the button where nothing watches scrolling.
  for (const way of ['scrolling to the end of the answers', 'the Load more answers button'] as const) {
    test(`loads the answers past the first page by ${way}`, async ({ page }) => {
      if (way === 'the Load more answers button') {
        await page.addInitScript(() => {
          delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
        });
      }
      const account = await registerViaApi(page.request);
      const question = await askViaApi(page, account.username, 'Many answers', { tags: [uniqueTag()] });
      const count = LIMITS.answerPageSize + 2;
      for (let index = 0; index < count; index += 1) {
        await answerViaApi(page, account.username, question._id, `Paged answer ${index}`);
      }
      await page.goto(`/question/${question._id}`);
      await expect(page.getByRole('heading', { name: `${count} Answers` })).toBeVisible();
      const answers = page.locator('ol.answers__list > li');
      await expect(answers).toHaveCount(LIMITS.answerPageSize);
      const more = page.getByRole('button', { name: 'Load more answers' });
      const nextPage = page.waitForRequest((request) =>
        request.url().includes(`/api/question/${question._id}/answers?`),
      );
      if (way === 'the Load more answers button') await more.click();
      else await more.scrollIntoViewIfNeeded();
      const lastShown = new URL((await nextPage).url()).searchParams.get('after');
      expect(lastShown).toBeTruthy();
      await expect(answers).toHaveCount(count);
      await expect(page.getByText(`Paged answer ${count - 1}`, { exact: true })).toBeVisible();
      await expect(more).toHaveCount(0);
    });
  }

  test('an unknown question shows a friendly not-found state with a link home', async ({ page }) => {
    await registerViaApi(page.request);
    await page.goto('/question/987654321');
    await expect(page.getByRole('heading', { level: 1, name: 'Question not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to Questions' }).click();
    await expect(page).toHaveURL(/\/home$/);
  });
});

test.describe('the home list', () => {
  test('searches by word and by [tag], and says when nothing matches', async ({ page }) => {
    const account = await registerViaApi(page.request);
    const word = uniqueWord();
    const tag = uniqueTag();
    const byWord = await askViaApi(page, account.username, `Where is ${word} found`, { tags: [uniqueTag()] });
    const byTag = await askViaApi(page, account.username, `Tagged only ${uniqueWord()}`, { tags: [tag] });
    await page.goto('/home');

    const search = page.getByRole('searchbox', { name: 'Search questions' });
    await expect(search).toHaveAttribute('placeholder', 'Search...');
    await search.fill(word);
    await search.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/home\\?search=${word}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Search Results' })).toBeVisible();
    await expect(listCount(page, '1 question')).toBeVisible();
    await expect(questionRows(page)).toHaveCount(1);
    await expect(questionRows(page).getByRole('link', { name: byWord.title })).toBeVisible();
    await expect(search).toHaveValue(word);

    await search.fill(`[${tag}]`);
    await search.press('Enter');
    await expect(page).toHaveURL(/\/home\?search=%5B/);
    await expect(questionRows(page)).toHaveCount(1);
    await expect(questionRows(page).getByRole('link', { name: byTag.title })).toBeVisible();

    await search.fill(`[${tag}] ${word}`);
    await search.press('Enter');
    await expect(questionRows(page)).toHaveCount(2);
    await expect(listCount(page, '2 questions')).toBeVisible();

    await search.fill(uniqueWord('nothing'));
    await search.press('Enter');
    await expect(page.getByRole('heading', { name: 'No Questions Found' })).toBeVisible();
    await expect(listCount(page, '0 questions')).toBeVisible();
    await expect(page.locator('#live-announcer')).toHaveText('0 questions');
  });

  test('the sort buttons and the order selector stay in sync with the URL', async ({ page }) => {
    const account = await registerViaApi(page.request);
    const tag = uniqueTag();
    const answered = await askViaApi(page, account.username, `Answered ${uniqueWord()}`, { tags: [tag] });
    const open = await askViaApi(page, account.username, `Open ${uniqueWord()}`, { tags: [tag] });
    await answerViaApi(page, account.username, answered._id, 'Done.');
    await page.goto(`/home?tag=${tag}`);
    const select = page.getByLabel('Order');
    const button = (name: string) => page.getByRole('group', { name: 'Sort questions' }).getByRole('button', { name });
    await expect(button('Newest')).toHaveAttribute('aria-pressed', 'true');
    await expect(select).toHaveValue('newest');
    await expect(questionRows(page).first()).toContainText(open.title);

    await button('Unanswered').click();
    await expect(page).toHaveURL(/order=unanswered/);
    await expect(page).toHaveURL(new RegExp(`tag=${tag}`));
    await expect(button('Unanswered')).toHaveAttribute('aria-pressed', 'true');
    await expect(button('Newest')).toHaveAttribute('aria-pressed', 'false');
    await expect(select).toHaveValue('unanswered');
    await expect(questionRows(page)).toHaveCount(1);
    await expect(questionRows(page).first()).toContainText(open.title);

    await button('Active').click();
    await expect(page).toHaveURL(/order=active/);
    await expect(select).toHaveValue('active');
    await expect(questionRows(page).first()).toContainText(answered.title);

    await button('Most Viewed').click();
    await expect(page).toHaveURL(/order=mostViewed/);
    await expect(select).toHaveValue('mostViewed');

    await select.selectOption({ label: 'Unanswered' });
    await expect(page).toHaveURL(/order=unanswered/);
    await expect(button('Unanswered')).toHaveAttribute('aria-pressed', 'true');
    await expect(button('Most Viewed')).toHaveAttribute('aria-pressed', 'false');

    await select.selectOption({ label: 'Newest' });
    await expect(page).toHaveURL(/order=newest/);
    await expect(button('Newest')).toHaveAttribute('aria-pressed', 'true');
    await expect(questionRows(page)).toHaveCount(2);

    await page.goto('/home?order=active');
    await expect(button('Active')).toHaveAttribute('aria-pressed', 'true');
    await expect(select).toHaveValue('active');
  });

  test('a row opens its question; its tag and author are links of their own', async ({ page }) => {
    const account = await registerViaApi(page.request);
    const tag = uniqueTag();
    const question = await askViaApi(page, account.username, `Click me ${uniqueWord()}`, { tags: [tag] });
    await page.goto('/home');
    const row = questionRows(page).filter({ hasText: question.title });
    await expect(row.getByRole('link', { name: account.username })).toHaveAttribute(
      'href',
      `/profile/${account.username}`,
    );

    await row.getByRole('link', { name: tag }).click();
    await expect(page).toHaveURL(new RegExp(`/home\\?tag=${tag}$`));
    await expect(page.getByRole('heading', { level: 1, name: tag })).toBeVisible();
    await expect(page.getByText('user added tag')).toBeVisible();
    await expect(page.getByRole('searchbox', { name: 'Search questions' })).toHaveValue(`[${tag}]`);
    await expect(questionRows(page)).toHaveCount(1);

    // A click on the row outside its links opens the question.
    await questionRows(page)
      .first()
      .click({ position: { x: 12, y: 12 } });
    await expect(page).toHaveURL(new RegExp(`/question/${question._id}$`));
    await expect(page.getByRole('heading', { level: 1, name: question.title })).toBeVisible();
    await expect(page.getByText('1 view', { exact: true })).toBeVisible();
  });

  // The next page loads when the end of the list scrolls into view, or with the button.
  // Scrolling to the button loads it too, so the button is tested where the browser
  // cannot watch scrolling (no IntersectionObserver): there it is the only way.
  for (const way of ['scrolling to the end of the list', 'the Load more button'] as const) {
    test(`loads more questions past the first 50 by ${way}`, async ({ page }) => {
      if (way === 'the Load more button') {
        await page.addInitScript(() => {
          delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
        });
      }
      const account = await registerViaApi(page.request);
      const tag = uniqueTag();
      for (let index = 0; index < 52; index += 1) {
        await askViaApi(page, account.username, `Paged question ${index}`, { tags: [tag] });
      }
      await page.goto(`/home?tag=${tag}`);
      await expect(listCount(page, '52 questions')).toBeVisible();
      await expect(questionRows(page)).toHaveCount(50);
      const more = page.getByRole('button', { name: 'Load more' });
      // The next page follows the first page's cursor, never an offset (offsets stop at
      // LIMITS.listOffsetMax; a cursor reaches any depth).
      const nextPage = page.waitForRequest((request) => request.url().includes('/api/getQuestion?'));
      if (way === 'the Load more button') {
        expect(await page.evaluate(() => typeof IntersectionObserver)).toBe('undefined');
        await more.click();
      } else await more.scrollIntoViewIfNeeded();
      const params = new URL((await nextPage).url()).searchParams;
      expect(params.get('cursor')).toBeTruthy();
      expect(params.has('offset')).toBe(false);
      await expect(questionRows(page)).toHaveCount(52);
      await expect(more).toHaveCount(0);
    });
  }
});

test.describe('the tags page', () => {
  test('heads with the number of tags and each card opens its questions', async ({ page }) => {
    const account = await registerViaApi(page.request);
    const tag = uniqueTag();
    await askViaApi(page, account.username, `Tag card ${uniqueWord()}`, { tags: [tag] });
    await page.goto('/tags');
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText(/^All \d+ Wonderful Tags$/);
    const cards = page.locator('ul.tag-cards > li');
    const shown = await cards.count();
    await expect(heading).toHaveText(`All ${shown} Wonderful Tags`);

    const card = page.getByRole('link', { name: new RegExp(`^${tag}`) });
    await expect(card).toContainText('user added tag');
    await expect(card).toContainText('1 question');
    await card.click();
    await expect(page).toHaveURL(new RegExp(`/home\\?tag=${tag}$`));
    await expect(page.getByRole('heading', { level: 1, name: tag })).toBeVisible();
  });
});

test.describe('live updates', () => {
  test('another user on the question page and on /home sees votes, answers, comments and new questions without reload', async ({
    browser,
    baseURL,
  }) => {
    const actor = await member(browser, baseURL, 'live');
    const watcher = await member(browser, baseURL, 'live');
    const tag = uniqueTag();
    const question = await askViaApi(actor.page, actor.account.username, `Live ${uniqueWord()}`, { tags: [tag] });

    const watcherHome = watcher.page;
    const watcherQuestion = await watcherHome.context().newPage();
    await gotoWhenQuestionsWatched(watcherHome, '/home');
    await gotoWhenQuestionsWatched(watcherQuestion, `/question/${question._id}`);
    for (const page of [watcherHome, watcherQuestion]) {
      await page.evaluate(() => document.body.setAttribute('data-not-reloaded', 'yes'));
    }
    const row = questionRows(watcherHome).filter({ hasText: question.title });
    await expect(row).toContainText('0 votes');
    await expect(row).toContainText('1 view');

    // The actor opens the question: one more view, then votes and answers through the UI.
    await gotoWhenQuestionsWatched(actor.page, `/question/${question._id}`);
    await expect(row).toContainText('2 views');
    await expect(watcherQuestion.getByText('2 views', { exact: true })).toBeVisible();

    await actor.page.getByRole('button', { name: 'Upvote' }).click();
    await expect(watcherQuestion.locator('.vote__number')).toHaveText('1');
    await expect(watcherQuestion.getByRole('button', { name: 'Upvote' })).toHaveAttribute('aria-pressed', 'false');
    await expect(row).toContainText('1 vote');

    await actor.page.getByRole('link', { name: 'Answer Question' }).click();
    await actor.page.getByLabel('Answer Text').fill('Answered live.');
    await actor.page.getByRole('button', { name: 'Post Answer' }).click();
    await expect(actor.page).toHaveURL(new RegExp(`/question/${question._id}$`));
    await expect(watcherQuestion.getByRole('article', { name: `Answer by ${actor.account.username}` })).toContainText(
      'Answered live.',
    );
    await expect(row).toContainText('1 answer');

    await actor.page.getByRole('article', { name: question.title }).getByLabel('Add a comment').fill('Live comment');
    await actor.page.getByRole('article', { name: question.title }).getByLabel('Add a comment').press('Enter');
    await expect(watcherQuestion.getByRole('article', { name: question.title })).toContainText('Live comment');

    const second = await askViaApi(actor.page, actor.account.username, `Brand new ${uniqueWord()}`, { tags: [tag] });
    await expect(questionRows(watcherHome).first()).toContainText(second.title);

    for (const page of [watcherHome, watcherQuestion]) {
      await expect(page.locator('body')).toHaveAttribute('data-not-reloaded', 'yes');
    }
    await actor.page.context().close();
    await watcher.page.context().close();
  });
});

test.describe('accessibility', () => {
  // axe-core is injected as a script, which the app's CSP (script-src 'self') would block.
  test.use({ bypassCSP: true });

  test('the five question screens have no serious or critical axe violations', async ({ page }) => {
    const account = await registerViaApi(page.request);
    const question = await askViaApi(page, account.username, `Accessible ${uniqueWord()}`, {
      text: 'With [a link](https://example.com).',
      tags: [uniqueTag()],
    });
    await answerViaApi(page, account.username, question._id, 'An answer.');
    const checks: [string, string | RegExp][] = [
      ['/home', 'All Questions'],
      [`/question/${question._id}`, question.title],
      ['/new/question', 'Ask a Question'],
      [`/new/answer/${question._id}`, 'Answer the Question'],
      ['/tags', /Wonderful Tags/],
    ];
    for (const [path, heading] of checks) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expectNoSeriousAxeViolations(page);
    }
    // The ask form with its errors showing.
    await page.goto('/new/question');
    await page.getByRole('button', { name: 'Post Question' }).click();
    await expect(page.getByText(MESSAGES.titleEmpty)).toBeVisible();
    await expectNoSeriousAxeViolations(page);
  });
});

test.describe('accessibility in every theme', () => {
  test.use({ bypassCSP: true });

  for (const colorBlindness of ['redgreen', 'blueyellow', 'grayscale'] as const) {
    test(`the list and the question page pass axe in ${colorBlindness} with low vision`, async ({ page }) => {
      const account = await registerViaApi(page.request);
      const question = await askViaApi(page, account.username, `Theme ${uniqueWord()}`, { tags: [uniqueTag()] });
      await answerViaApi(page, account.username, question._id, 'Themed answer.');
      await overrideAccessibilitySettings(page, { lowVision: true, colorBlindness });
      for (const path of ['/home', `/question/${question._id}`]) {
        await page.goto(path);
        await expect(page.locator('body')).toHaveClass(new RegExp(colorBlindness));
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectNoSeriousAxeViolations(page);
      }
    });
  }
});

test.describe('content security policy', () => {
  test('the question screens load without Content-Security-Policy violations', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) violations.push(message.text());
    });
    const account = await registerViaApi(page.request);
    const question = await askViaApi(page, account.username, `CSP ${uniqueWord()}`, { tags: [uniqueTag()] });
    for (const path of [
      '/home',
      `/question/${question._id}`,
      '/new/question',
      `/new/answer/${question._id}`,
      '/tags',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    }
    expect(violations).toEqual([]);
  });
});
