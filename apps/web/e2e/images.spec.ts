/**
 * Images in posts (docs/product.md section 14): 'Add image' (and pasted images) upload with
 * their progress shown, 'Describe this image' before `![description](url)` goes in at the
 * cursor, the preview and the question page show the image at its size with its room kept
 * (no layout shift), the server's refusals are shown, and the composer passes axe in every
 * colour theme, with and without low vision. Against the built server in Chromium.
 */
import { expect, type Locator, type Page, type Route } from '@playwright/test';
import { MESSAGES, type ImageSize } from '@porpoise/core';
import sharp from 'sharp';
import {
  askViaApi,
  expectNoSeriousAxeViolations,
  member,
  overrideAccessibilitySettings,
  registerViaApi,
  stamp,
  test,
} from './support.ts';

/** A PNG of one colour, made here (Node side) and handed to the page as bytes. */
const png = (width: number, height: number, background: { r: number; g: number; b: number }) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

const UPLOADED = /^\/uploads\/[0-9a-f]{64}\.webp$/;

/**
 * Holds the requests `url` matches until the returned function releases them: the state
 * before the answer (an upload in progress, an image not yet loaded) can be looked at.
 */
async function hold(page: Page, url: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route: Route) => {
    await held;
    // (A request the page has cancelled meanwhile is gone: nothing to continue.)
    await route.continue().catch(() => undefined);
  });
  return release;
}

/** The composer's parts. */
const describeField = (page: Page) => page.getByLabel('Describe this image', { exact: true });
const addImage = (page: Page) => page.getByRole('button', { name: 'Add image' });
const fileInput = (page: Page) => page.locator('input[type="file"]');

/** Uploads an image through the API as the page's member. */
async function uploadViaApi(page: Page, bytes: Buffer): Promise<ImageSize> {
  const response = await page.request.post('/api/uploads', {
    multipart: { file: { name: 'image.png', mimeType: 'image/png', buffer: bytes } },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as ImageSize;
}

/** Pastes a file made in the page from `bytes` into `target` (a ClipboardEvent holding it, as a screenshot paste does). */
async function pasteImage(target: Locator, bytes: Buffer, name = 'image.png'): Promise<void> {
  await target.evaluate(
    (element, { data, fileName }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], fileName, { type: 'image/png' }));
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    },
    { data: [...bytes], fileName: name },
  );
}

/** Resolves once the image has arrived and been decoded. */
async function expectLoaded(image: Locator): Promise<void> {
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0))
    .toBe(true);
}

declare global {
  interface Window {
    /** The page's layout shifts so far (their CLS scores), gathered by the init script below. */
    layoutShifts: () => number;
  }
}

/** Gathers every layout shift not caused by input from the page's start, as CLS counts them. */
function watchLayoutShifts() {
  let total = 0;
  const add = (entries: PerformanceEntryList) => {
    for (const entry of entries as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
      if (!entry.hadRecentInput) total += entry.value;
    }
  };
  const observer = new PerformanceObserver((list) => add(list.getEntries()));
  observer.observe({ type: 'layout-shift', buffered: true });
  window.layoutShifts = () => {
    add(observer.takeRecords());
    return total;
  };
}

/** The layout shifts so far, once two frames have been drawn (so any shift of the last change is counted). */
const layoutShifts = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.layoutShifts()))),
      ),
  );

test.describe('images in posts', () => {
  test("'Add image' uploads with progress, is described and previewed, and the question page keeps its room", async ({
    page,
    browser,
    baseURL,
  }) => {
    await registerViaApi(page.request);
    await page.goto('/new/question');
    const title = `A chart of porpoise sleep ${stamp()}`;
    await page.getByLabel('Question Title').fill(title);
    const text = page.getByLabel('Question Text');
    await text.fill('Before. After.');
    // The cursor after 'Before. ': the image goes in there.
    await text.evaluate((element: HTMLTextAreaElement) => element.setSelectionRange(8, 8));

    // A real button that opens the picker (a hidden input that takes the four kinds).
    await expect(fileInput(page)).toHaveAttribute('accept', 'image/png,image/jpeg,image/gif,image/webp');
    await expect(fileInput(page)).toBeHidden();
    const releaseUpload = await hold(page, '**/api/uploads');
    const chooser = page.waitForEvent('filechooser');
    await addImage(page).click();
    const picker = await chooser;
    expect(picker.isMultiple()).toBe(false);
    await picker.setFiles({
      name: 'chart.png',
      mimeType: 'image/png',
      buffer: await png(320, 200, { r: 200, g: 40, b: 40 }),
    });

    // Its progress, named, while the server has not answered; one upload at a time.
    const progress = page.getByRole('progressbar', { name: /chart\.png/ });
    await expect(progress).toBeVisible();
    await expect(addImage(page)).toHaveAttribute('aria-disabled', 'true');
    releaseUpload();
    await expect(progress).toBeHidden();

    // Then the description, required and empty, with the focus (it was on 'Add image').
    const describe = describeField(page);
    await expect(describe).toBeFocused();
    await expect(describe).toHaveValue('');
    await expect(describe).toHaveAttribute('required', '');

    // Empty: the error, on the field, and nothing goes in.
    await page.getByRole('button', { name: 'Insert image' }).click();
    await expect(page.getByRole('alert').filter({ hasText: MESSAGES.imageDescription })).toBeVisible();
    await expect(describe).toHaveAttribute('aria-invalid', 'true');
    await expect(describe).toHaveAccessibleDescription(new RegExp(MESSAGES.imageDescription));
    await expect(describe).toBeFocused();
    await expect(text).toHaveValue('Before. After.');

    // Enter puts it in (it does not post the question), at the cursor, and the focus goes back after it.
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/addQuestion')) posts.push(request.method());
    });
    await describe.fill('A red chart [of sleep]');
    await describe.press('Enter');
    await expect(text).toHaveValue(
      /^Before\. !\[A red chart \\\[of sleep\\\]\]\(\/uploads\/[0-9a-f]{64}\.webp\)After\.$/,
    );
    const value = await text.inputValue();
    const markdown = value.slice('Before. '.length, value.length - 'After.'.length);
    await expect(text).toBeFocused();
    expect(await text.evaluate((element: HTMLTextAreaElement) => element.selectionStart)).toBe(8 + markdown.length);
    await expect(describe).toHaveCount(0);
    await expect(addImage(page)).not.toHaveAttribute('aria-disabled');
    expect(posts).toEqual([]);
    const url = /\((\/uploads\/[^)]+)\)/.exec(markdown)![1]!;
    expect(url).toMatch(UPLOADED);

    // The preview shows it, at its size.
    await page.getByRole('button', { name: 'Preview' }).click();
    const previewed = page
      .getByRole('region', { name: 'Preview' })
      .getByRole('img', { name: 'A red chart [of sleep]' });
    await expect(previewed).toHaveAttribute('src', url);
    await expect(previewed).toHaveAttribute('width', '320');
    await expect(previewed).toHaveAttribute('height', '200');
    await expectLoaded(previewed);

    await page.getByLabel('Tags').fill('marine');
    await page.getByRole('button', { name: 'Post Question' }).click();
    await expect(page).toHaveURL(/\/home$/);
    const link = page.getByRole('link', { name: title });
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/question\//);

    // Another member opens it, in a browser that has never loaded the image: the image's
    // room is kept while it loads (held here), and nothing moves when it arrives.
    const reader = await member(browser, baseURL, 'img');
    await reader.page.addInitScript(watchLayoutShifts);
    const releaseImage = await hold(reader.page, '**/uploads/*.webp');
    await reader.page.goto(href!);
    await expect(reader.page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const image = reader.page
      .locator('.post--question .post__text')
      .getByRole('img', { name: 'A red chart [of sleep]' });
    await expect(image).toHaveAttribute('src', url);
    await expect(image).toHaveAttribute('width', '320');
    await expect(image).toHaveAttribute('height', '200');
    await expect(image).toHaveAttribute('loading', 'lazy');
    await expect(image).toHaveAttribute('decoding', 'async');
    await expect(image).toBeVisible();
    expect(await image.evaluate((element: HTMLImageElement) => element.complete)).toBe(false);
    const before = await image.boundingBox();
    expect(before?.height).toBeGreaterThan(0);
    // Its width over its height is the image's, before a byte of it has arrived.
    expect(before!.width / before!.height).toBeCloseTo(320 / 200, 1);
    const shiftsBefore = await layoutShifts(reader.page);
    releaseImage();
    await expectLoaded(image);
    const shiftsAfter = await layoutShifts(reader.page);
    // Around the image's loading only: the app shell's own start (its loading line) shifts the page before.
    expect(shiftsAfter - shiftsBefore).toBeLessThan(0.01);
    expect(await image.boundingBox()).toEqual(before);
  });

  test('an image pasted into the answer composer goes in at the cursor once described', async ({ page }) => {
    const account = await registerViaApi(page.request);
    const question = await askViaApi(page, account.username, `Pasted pictures ${stamp()}`, {
      text: 'What does a pod look like?',
    });
    await page.goto(`/new/answer/${question._id}`);
    const text = page.getByLabel('Answer Text');
    await text.fill('Like this: ');
    await pasteImage(text, await png(200, 120, { r: 30, g: 160, b: 60 }), 'image.png');

    // Uploaded while the writer stays in the text: the description waits, the focus is not taken.
    const describe = describeField(page);
    await expect(describe).toBeVisible();
    await expect(text).toBeFocused();
    await expect(text).toHaveValue('Like this: ');
    await expect(page.getByRole('status').filter({ hasText: 'image.png uploaded' })).toBeAttached();
    await describe.fill('A green pod');
    await page.getByRole('button', { name: 'Insert image' }).click();
    await expect(text).toHaveValue(/^Like this: !\[A green pod\]\(\/uploads\/[0-9a-f]{64}\.webp\)$/);
    await expect(text).toBeFocused();
    const value = await text.inputValue();
    expect(await text.evaluate((element: HTMLTextAreaElement) => element.selectionStart)).toBe(value.length);

    await page.getByRole('button', { name: 'Post Answer' }).click();
    await expect(page).toHaveURL(new RegExp(`/question/${question._id}$`));
    const image = page.locator('ol.answers__list .post__text').getByRole('img', { name: 'A green pod' });
    await expect(image).toHaveAttribute('width', '200');
    await expect(image).toHaveAttribute('height', '120');
    await expectLoaded(image);
  });

  test('an image dropped on the text area is uploaded too', async ({ page }) => {
    await registerViaApi(page.request);
    await page.goto('/new/question');
    const text = page.getByLabel('Question Text');
    await text.fill('Dropped: ');
    const bytes = await png(64, 48, { r: 90, g: 20, b: 120 });
    const dropped = await text.evaluate(
      (element, data) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(data)], 'dropped.png', { type: 'image/png' }));
        const over = new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true });
        element.dispatchEvent(over);
        const drop = new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true });
        element.dispatchEvent(drop);
        // Both taken by the composer: the browser neither refuses the drop nor opens the file.
        return over.defaultPrevented && drop.defaultPrevented;
      },
      [...bytes],
    );
    expect(dropped).toBe(true);
    await describeField(page).fill('A purple tile');
    await page.getByRole('button', { name: 'Insert image' }).click();
    await expect(text).toHaveValue(/^Dropped: !\[A purple tile\]\(\/uploads\/[0-9a-f]{64}\.webp\)$/);
  });

  test('a post sent while its image uploads or waits for its description is held, and says why', async ({ page }) => {
    const account = await registerViaApi(page.request);
    const question = await askViaApi(page, account.username, `Held answers ${stamp()}`, { text: 'Show me.' });
    await page.goto(`/new/answer/${question._id}`);
    const posts: string[] = [];
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/answer/addAnswer')) posts.push(request.method());
      if (request.url().endsWith('/api/uploads')) uploads.push(request.method());
    });
    const text = page.getByLabel('Answer Text');
    await text.fill('Here it is: ');
    const release = await hold(page, '**/api/uploads');
    await pasteImage(text, await png(50, 30, { r: 200, g: 120, b: 10 }), 'chart.png');
    await expect(page.getByRole('button', { name: 'Cancel upload' })).toBeVisible();

    // While it uploads: held, with the reason.
    await page.getByRole('button', { name: 'Post Answer' }).click();
    await expect(page.getByRole('alert').filter({ hasText: MESSAGES.imageStillUploading })).toBeVisible();
    // A second file dropped meanwhile is refused in place (the browser does not open it).
    const dropped = await text.evaluate((element) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array([1, 2, 3])], 'second.png', { type: 'image/png' }));
      const over = new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true });
      element.dispatchEvent(over);
      const drop = new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true });
      element.dispatchEvent(drop);
      return over.defaultPrevented && drop.defaultPrevented;
    });
    expect(dropped).toBe(true);
    release();

    // Waiting for its description: held, the description field says why and has the focus.
    const describe = describeField(page);
    await expect(describe).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: MESSAGES.imageStillUploading })).toHaveCount(0);
    await page.getByRole('button', { name: 'Post Answer' }).click();
    await expect(describe).toHaveAccessibleDescription(`Error: ${MESSAGES.imageNotInserted}`);
    await expect(describe).toBeFocused();
    expect(posts).toEqual([]);
    expect(uploads).toEqual(['POST']);
    await expect(page).toHaveURL(new RegExp(`/new/answer/${question._id}$`));

    // Once it is in, the post goes, with it.
    await describe.fill('An orange bar');
    await describe.press('Enter');
    await expect(text).toHaveValue(/^Here it is: !\[An orange bar\]\(\/uploads\/[0-9a-f]{64}\.webp\)$/);
    await page.getByRole('button', { name: 'Post Answer' }).click();
    await expect(page).toHaveURL(new RegExp(`/question/${question._id}$`));
    expect(posts).toEqual(['POST']);
    await expect(
      page.locator('ol.answers__list .post__text').getByRole('img', { name: 'An orange bar' }),
    ).toBeVisible();
  });

  test('an animation can be paused, and starts paused while motion is reduced; a still has no control', async ({
    page,
  }) => {
    const account = await registerViaApi(page.request);
    // Three frames of 40 px, one above the other, as a looping GIF.
    const frames = await Promise.all(
      [0, 1, 2].map((index) =>
        sharp({ create: { width: 40, height: 40, channels: 3, background: { r: index * 120, g: 60, b: 200 } } })
          .raw()
          .toBuffer(),
      ),
    );
    const gif = await sharp(Buffer.concat(frames), { raw: { width: 40, height: 120, channels: 3, pageHeight: 40 } })
      .gif({ loop: 0, delay: [200, 200, 200] })
      .toBuffer();
    const moving = await uploadViaApi(page, gif);
    expect(moving.animated).toBe(true);
    const still = await uploadViaApi(page, await png(30, 20, { r: 5, g: 5, b: 5 }));
    const question = await askViaApi(page, account.username, `A spinning wheel ${stamp()}`, {
      text: `![A spinning wheel](${moving.url})\n\n![A black tile](${still.url})`,
    });
    const post = page.locator('.post__text').first();
    const wheel = post.getByRole('img', { name: 'A spinning wheel' });
    const tagOf = (image: Locator) => image.evaluate((element) => element.tagName);
    /** True once the paused frame is drawn (its centre pixel is opaque). */
    const drawn = (image: Locator) =>
      image.evaluate(
        (element: HTMLCanvasElement) => element.getContext('2d')!.getImageData(20, 20, 1, 1).data[3] === 255,
      );

    await page.goto(`/question/${question._id}`);
    await expect(wheel).toHaveAttribute('width', '40');
    await expect.poll(() => tagOf(wheel)).toBe('IMG');
    await expect(post.getByRole('button', { name: /animation/ })).toHaveCount(1);
    await post.getByRole('button', { name: 'Pause animation: A spinning wheel' }).click();
    await expect.poll(() => tagOf(wheel)).toBe('CANVAS');
    await expect(wheel).toHaveAttribute('width', '40');
    await expect.poll(() => drawn(wheel)).toBe(true);
    await expect(post.getByRole('button', { name: 'Play animation: A spinning wheel' })).toBeFocused();
    await post.getByRole('button', { name: 'Play animation: A spinning wheel' }).click();
    await expect.poll(() => tagOf(wheel)).toBe('IMG');

    // Motion reduced while it plays: it stops, without a reload.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await expect.poll(() => tagOf(wheel)).toBe('CANVAS');
    await page.reload();
    await expect(wheel).toBeVisible();
    await expect.poll(() => tagOf(wheel)).toBe('CANVAS');
    await expect.poll(() => drawn(wheel)).toBe(true);
    await post.getByRole('button', { name: 'Play animation: A spinning wheel' }).click();
    await expect.poll(() => tagOf(wheel)).toBe('IMG');
    await expect(post.getByRole('img', { name: 'A black tile' })).toHaveAttribute('width', '30');
  });

  test("the upload's refusals are shown: not an image, and past 5 MB (refused before sending)", async ({ page }) => {
    await registerViaApi(page.request);
    await page.goto('/new/question');
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/uploads')) uploads.push(request.method());
    });
    // Text named and declared a PNG: the server reads the content.
    await fileInput(page).setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('just some text that calls itself a picture'),
    });
    const refusal = page.getByRole('alert').filter({ hasText: MESSAGES.imageType });
    await expect(refusal).toBeVisible();
    await expect(addImage(page)).toHaveAccessibleDescription(new RegExp(MESSAGES.imageType));
    await expect(describeField(page)).toHaveCount(0);
    expect(uploads).toEqual(['POST']);

    await fileInput(page).setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(5_242_881, 1),
    });
    await expect(page.getByRole('alert').filter({ hasText: MESSAGES.imageTooLarge })).toBeVisible();
    await expect(refusal).toHaveCount(0);
    expect(uploads).toEqual(['POST']);

    // Cancelled while it goes: nothing is left, and the next one is taken.
    const release = await hold(page, '**/api/uploads');
    await fileInput(page).setInputFiles({
      name: 'later.png',
      mimeType: 'image/png',
      buffer: await png(40, 40, { r: 1, g: 2, b: 3 }),
    });
    await page.getByRole('button', { name: 'Cancel upload' }).click();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await expect(addImage(page)).toBeFocused();
    await expect(describeField(page)).toHaveCount(0);
    release();
    await page.unrouteAll({ behavior: 'wait' });
    await fileInput(page).setInputFiles({
      name: 'again.png',
      mimeType: 'image/png',
      buffer: await png(40, 40, { r: 1, g: 2, b: 3 }),
    });
    await expect(describeField(page)).toBeVisible();
  });

  test("an edit's preview shows the images the post already has, at their size", async ({ page }) => {
    const account = await registerViaApi(page.request);
    const image = await uploadViaApi(page, await png(90, 60, { r: 20, g: 20, b: 200 }));
    const question = await askViaApi(page, account.username, `Edit with an image ${stamp()}`, {
      text: `A blue box: ![a blue box](${image.url})`,
    });
    expect(question.images).toEqual([image]);
    await page.goto(`/edit/question/${question._id}`);
    await page.getByRole('button', { name: 'Preview' }).click();
    const previewed = page.getByRole('region', { name: 'Preview' }).getByRole('img', { name: 'a blue box' });
    await expect(previewed).toHaveAttribute('width', '90');
    await expect(previewed).toHaveAttribute('height', '60');
  });
});

test.describe('the image composer passes axe', () => {
  test.use({ bypassCSP: true });
  test('a paused animation and its control on a question page', async ({ page }) => {
    const account = await registerViaApi(page.request);
    const gif = await sharp(
      await Promise.all(
        [0, 1].map((index) =>
          sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 200, g: index * 200, b: 40 } } })
            .png()
            .toBuffer(),
        ),
      ),
      { join: { animated: true } },
    )
      .gif({ loop: 0 })
      .toBuffer();
    const moving = await uploadViaApi(page, gif);
    const question = await askViaApi(page, account.username, `Blinking lights ${stamp()}`, {
      text: `Look: ![Two blinking lights](${moving.url})`,
    });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`/question/${question._id}`);
    await expect(page.getByRole('button', { name: 'Play animation: Two blinking lights' })).toBeVisible();
    await expectNoSeriousAxeViolations(page);
  });

  for (const colorBlindness of ['none', 'redgreen', 'blueyellow', 'grayscale'] as const) {
    for (const lowVision of [false, true]) {
      test(`uploading, describing and previewing (${colorBlindness}${lowVision ? ', low vision' : ''})`, async ({
        page,
      }) => {
        await registerViaApi(page.request);
        await overrideAccessibilitySettings(page, { lowVision, colorBlindness });
        await page.goto('/new/question');
        await page.getByLabel('Question Text').fill('A picture: ');
        const release = await hold(page, '**/api/uploads');
        await fileInput(page).setInputFiles({
          name: 'picture.png',
          mimeType: 'image/png',
          buffer: await png(240, 160, { r: 240, g: 200, b: 40 }),
        });
        await expect(page.getByRole('progressbar', { name: /picture\.png/ })).toBeVisible();
        await expectNoSeriousAxeViolations(page);
        release();

        await expect(describeField(page)).toBeVisible();
        await page.getByRole('button', { name: 'Insert image' }).click();
        await expect(page.getByRole('alert').filter({ hasText: MESSAGES.imageDescription })).toBeVisible();
        await expectNoSeriousAxeViolations(page);

        await describeField(page).fill('A yellow card');
        await page.getByRole('button', { name: 'Insert image' }).click();
        await page.getByRole('button', { name: 'Preview' }).click();
        const previewed = page.getByRole('region', { name: 'Preview' }).getByRole('img', { name: 'A yellow card' });
        await expectLoaded(previewed);
        await expectNoSeriousAxeViolations(page);
      });
    }
  }
});
