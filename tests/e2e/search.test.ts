import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API, MSG, MSG_SEARCH, MSG_SEARCH_UI, ROUTES, WELCOME_LIBRARY_NAME, type FolderResponse, type Library } from '../../src/contract';
import { createVerifiedUser, openBrowser, SCREENSHOT_DIR, startApp, uniqueEmail, type App, type Browser } from './harness';

const DOG_JPG = '/usr/share/darknet/data/dog.jpg';
/** Indexing the two demo videos (speech, objects, embeddings) takes a while on a small machine. */
const DEMO_READY_MS = 240_000;

let app: App;
let browser: Browser | null = null;

beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});
afterEach(async () => {
  if (!browser) return;
  const { offHost, pageErrors } = browser;
  await browser.close();
  browser = null;
  expect(offHost, 'requests to hosts other than 127.0.0.1').toEqual([]);
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

/** A full-window screenshot once every image on the page has settled (loaded or failed). */
async function shot(page: Page, name: string, settle = true) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  if (settle) await page.waitForFunction(() => [...document.images].every((img) => img.complete), null, { timeout: 10_000 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

async function signIn(page: Page, email: string, password: string, next: string) {
  await page.goto(`${app.url}${ROUTES.login}?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: MSG.loginSubmit }).click();
}

/** A JSON API call made by the page with its own session token. */
function call<T>(page: Page, method: 'GET' | 'POST', p: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, p, body }) => {
      const r = await fetch(p, {
        method,
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          authorization: `Bearer ${localStorage.getItem('clipseek.token')}`,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await r.json()) as { data: unknown; error?: { message: string } };
      if (!r.ok) throw new Error(`${method} ${p} answered ${r.status}: ${json.error?.message}`);
      return json.data;
    },
    { method, p, body },
  ) as Promise<T>;
}

/** Waits until both demo videos are indexed (search covers completed media only). */
async function waitForDemo(page: Page): Promise<{ demo: Library; files: FolderResponse['files'] }> {
  const until = Date.now() + DEMO_READY_MS;
  for (;;) {
    const demo = (await call<Library[]>(page, 'GET', API.libraries)).find((l) => l.isDemo);
    if (demo) {
      const { files } = await call<FolderResponse>(page, 'GET', API.folder(demo._id));
      if (files.length === 2 && files.every((f) => f.status === 'completed')) return { demo, files };
      if (files.some((f) => f.status === 'errored')) throw new Error(`Demo media failed: ${JSON.stringify(files.map((f) => f.error))}`);
    }
    if (Date.now() > until) throw new Error('The demo library did not finish indexing in time');
    await page.waitForTimeout(2000);
  }
}

/** A drop of an image file on the search bar, built in page context as a user's drag would deliver it. */
async function dropImage(page: Page, file: string) {
  const base64 = fs.readFileSync(file).toString('base64');
  await page.locator('[data-testid="search-bar"]').evaluate(
    (bar, { name, base64 }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name, { type: 'image/jpeg' }));
      for (const type of ['dragenter', 'dragover', 'drop'])
        bar.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { name: path.basename(file), base64 },
  );
}

const toast = (page: Page, text: string | RegExp) => page.locator('.toast').filter({ hasText: text });
const cards = (page: Page) => page.locator('.moment-card:not(.moment-card--skeleton)');
const query = (page: Page) => new URL(page.url()).searchParams;

describe('search', () => {
  it('finds moments by text, image and moment, opens one, and switches libraries', { timeout: DEMO_READY_MS + 180_000 }, async () => {
    browser = await openBrowser();
    const { page } = browser;
    const email = uniqueEmail('search');
    const password = 'search password';
    await createVerifiedUser(app, email, password);
    await signIn(page, email, password, ROUTES.search);
    await page.waitForURL((u) => u.pathname === ROUTES.search);

    // Nothing asked yet: the headline, the subline, and the demo library chosen for the search.
    await page.getByRole('heading', { name: MSG_SEARCH.searchHeadline }).waitFor();
    await page.getByText(MSG_SEARCH.searchSubline).waitFor();
    const { demo, files } = await waitForDemo(page);
    const animals = files.find((f) => f.metadata.filename === 'animals.mp4')!;
    const switcher = page.getByRole('button', { name: /^Libraries: / });
    await switcher.filter({ hasText: WELCOME_LIBRARY_NAME }).waitFor();
    await page.waitForURL((u) => u.searchParams.get('libs') === demo._id);
    await shot(page, 'search-empty');

    // Text: skeletons while it runs, then the dog moment of the animals video.
    const box = page.getByPlaceholder(MSG_SEARCH.placeholder);
    await box.pressSequentially('dog');
    await page.locator('.moment-card--skeleton').first().waitFor();
    expect(await page.locator('.moment-card--skeleton').count()).toBe(10);
    await shot(page, 'search-searching', false);
    expect(query(page).get('text')).toBe('dog');
    await page.locator(`.moment-card[data-media-id="${animals._id}"]`).first().waitFor({ timeout: 30_000 });
    await page.getByText(/^\d+ moments?$/).waitFor();
    await page.getByRole('switch', { name: 'Autoplay moments' }).waitFor();
    await shot(page, 'search-results');

    // Hovering a card plays its moment from the HLS preview (after the hover delay); autoplay plays them all.
    const dogCard = page.locator(`.moment-card[data-media-id="${animals._id}"]`).first();
    await dogCard.locator('.moment-card__frame').hover();
    await page.locator(`.moment-card[data-media-id="${animals._id}"][data-preview="playing-hover"]`).first().waitFor({ timeout: 20_000 });
    expect(await dogCard.locator('video').evaluate((v: HTMLVideoElement) => v.muted && v.currentTime >= 0 && v.currentTime <= 4.5)).toBe(
      true,
    );
    await page.mouse.move(0, 0);
    await page.locator('.moment-card[data-preview="paused"]').first().waitFor();
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname === API.meSettings && r.request().method() === 'POST');
    await page.getByRole('switch', { name: 'Autoplay moments' }).click();
    await expect.poll(() => page.locator('.moment-card[data-preview="playing-autoplay"]').count(), { timeout: 20_000 }).toBe(2);
    expect((await saved).ok()).toBe(true);
    await page.getByRole('switch', { name: 'Autoplay moments' }).click();
    await expect.poll(() => page.locator('.moment-card[data-preview="paused"]').count()).toBe(2);

    // Conversational results match the narration ('A dog sits by the bicycle'): the card shows the words.
    await page.getByRole('radio', { name: 'Conversational' }).click();
    await toast(page, MSG_SEARCH_UI.nowViewing('conversational')).waitFor();
    await page.waitForURL((u) => u.searchParams.get('search') === 'transcript');
    await box.fill('bicycle');
    const spoken = page.locator(`.moment-card[data-media-id="${animals._id}"]`).filter({ hasText: /bicycle/i });
    await spoken.first().waitFor({ timeout: 30_000 });

    // The moment dialog: the transcript tab opens first for a moment with words.
    await spoken.first().locator('.moment-card__frame').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: 'Transcript', checked: true }).waitFor();
    await dialog
      .locator('.moment-lines__item--in')
      .filter({ hasText: /bicycle/i })
      .first()
      .waitFor();
    await dialog.getByRole('radio', { name: 'Full video' }).waitFor();
    const videoReady = () => ((document.querySelector('[role=dialog] video') as HTMLVideoElement | null)?.readyState ?? 0) >= 2;
    await page.waitForFunction(videoReady, null, { timeout: 20_000 });
    await shot(page, 'search-moment-modal');
    await dialog.getByRole('radio', { name: 'Visual summary' }).click();
    // The visual summary of the animals video (what the frames show).
    await dialog.getByRole('list', { name: 'Visual summary' }).locator('.moment-lines__item').first().waitFor();

    // Within one video: the media pill shows, every result is from that media, and the pill removes it.
    await dialog.getByRole('button', { name: 'Search in this video' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.waitForURL((u) => u.searchParams.get('media') === animals._id);
    await page.locator('.media-pill').filter({ hasText: 'In animals' }).waitFor();
    await spoken.first().waitFor({ timeout: 30_000 });
    expect(new Set(await cards(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-media-id'))))).toEqual(
      new Set([animals._id]),
    );
    await page.getByRole('button', { name: 'Search all videos' }).click();
    await page.waitForURL((u) => !u.searchParams.has('media'));
    await page.getByRole('radio', { name: 'Visual' }).click();
    await page.waitForURL((u) => !u.searchParams.has('search'));

    // An image dropped on the search bar: the query image shows and results come back.
    await dropImage(page, DOG_JPG);
    await page.locator('[data-testid="query-preview"]').filter({ hasText: 'Image search' }).waitFor();
    await page.waitForURL((u) => !u.searchParams.has('text'));
    await expect.poll(() => box.inputValue()).toBe('');
    await cards(page).first().waitFor({ timeout: 30_000 });

    // Similar moments from a card: the query moment shows and results come back.
    const first = cards(page).first();
    await first.hover();
    await first.getByRole('button', { name: MSG_SEARCH_UI.similarMoments }).click();
    await page.waitForURL((u) => /^m_/.test(u.searchParams.get('moment') ?? ''));
    await page
      .locator('[data-testid="query-preview"]')
      .filter({ hasText: /\d\d:\d\d:\d\d – \d\d:\d\d:\d\d/ })
      .waitFor();
    await page.locator('.moment-card--skeleton').first().waitFor({ state: 'detached', timeout: 30_000 });
    await cards(page).first().waitFor({ timeout: 30_000 });
    await shot(page, 'search-similar-moments');

    // Library switching: a second library, picked in single-select mode.
    const second = await call<Library>(page, 'POST', API.libraries, { name: 'Second library for search', settings: { v1: {} } });
    await page.goto(`${app.url}${ROUTES.search}?text=dog`);
    await switcher.filter({ hasText: WELCOME_LIBRARY_NAME }).waitFor();
    await cards(page).first().waitFor({ timeout: 30_000 });
    await switcher.click();
    const panel = page.getByRole('dialog', { name: 'Libraries to search' });
    await panel.getByRole('button', { name: /Second library for search/ }).waitFor();
    await shot(page, 'search-library-switcher');
    await panel.getByRole('button', { name: /Second library for search/ }).click();
    await toast(page, MSG_SEARCH_UI.libraryChanged).waitFor();
    await page.waitForURL((u) => u.searchParams.get('libs') === second._id);
    // The name is cut at 20 characters.
    await switcher.filter({ hasText: 'Second library for s...' }).waitFor();

    // Multi-select: Select all honours the filter (shown as a pill cut at 8 characters).
    await switcher.click();
    await panel.getByRole('switch', { name: 'Select multiple' }).click();
    await panel.getByPlaceholder('Filter libraries').fill('Welcome Library');
    await panel.locator('.switcher__pill').filter({ hasText: 'Welcome ...' }).waitFor();
    await panel.getByRole('button', { name: 'Select all', exact: true }).click();
    await page.keyboard.press('Escape');
    await toast(page, MSG_SEARCH_UI.libraryChanged).first().waitFor();
    await switcher.filter({ hasText: MSG_SEARCH_UI.searchingLibraries(2) }).waitFor();
    expect(query(page).get('libs')).toBe(`${second._id},${demo._id}`);
    // Without a filter it takes them all: two icons and '+1'.
    await switcher.click();
    await panel.getByRole('button', { name: 'Select all', exact: true }).click();
    await page.keyboard.press('Escape');
    await switcher
      .filter({ hasText: MSG_SEARCH_UI.searchingLibraries(3) })
      .filter({ hasText: '+1' })
      .waitFor();
    await page.waitForURL((u) => (u.searchParams.get('libs') ?? '').split(',').length === 3);
    await page.getByText(/^\d+ moments? in 3 libraries$/).waitFor({ timeout: 30_000 });

    // Nothing selected: the demo library takes over.
    await switcher.click();
    await panel.getByRole('button', { name: 'Deselect all', exact: true }).click();
    await page.keyboard.press('Escape');
    await toast(page, MSG_SEARCH_UI.switchingToDemo).filter({ hasText: MSG_SEARCH_UI.noLibrarySelected }).waitFor();
    await switcher.filter({ hasText: WELCOME_LIBRARY_NAME }).waitFor();
    await page.waitForURL((u) => u.searchParams.get('libs') === demo._id);
  });
});
