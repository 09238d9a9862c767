import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG_MOMENT, ROUTES } from '../../src/contract';
import { COUNTER_FPS, COUNTER_SECONDS, uploadCounterVideo } from '../fixtures/counterVideo';
import { createVerifiedUser, e2eSuite, SCREENSHOT_DIR, shownFrame, signIn, uniqueEmail, type Viewport } from './harness';

/**
 * The moment dialog as a demanding user drives it (issue 19), on a counter video (every frame shows
 * its own number) cut at 6 s, so that its first moment ends well before the media does.
 */

const { app, openBrowser } = e2eSuite();

const LAST_FRAME = COUNTER_FPS * COUNTER_SECONDS - 1;

/** A full-window screenshot once the dialog's video shows a frame and every image has settled. */
async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll<HTMLVideoElement>('[role=dialog] video')].every((v) => v.readyState >= 2) &&
      // (lazy pictures out of view never load)
      [...document.images].every((img) => img.complete || img.loading === 'lazy'),
    null,
    { timeout: 20_000 },
  );
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

/** A new account with the counter video indexed, signed in on a search for it; the first moment's card. */
async function counterSearch(tag: string, viewport: Viewport = { width: 1280, height: 900 }) {
  const email = uniqueEmail(tag);
  const password = `${tag} password`;
  await createVerifiedUser(app, email, password);
  const { library, media } = await uploadCounterVideo(app.url, email, password, { cutAt: 6 });
  expect(media.status).toBe('completed');
  const { page } = await openBrowser(viewport);
  await signIn(page, app.url, email, password, `${ROUTES.search}?libs=${library._id}`);
  await page.waitForURL((u) => u.pathname === ROUTES.search);
  await page.getByPlaceholder(/Ask me anything/).fill('counter');
  // The moment from the first frame (the cut makes a second one from 6 s).
  const card = page
    .locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${media._id}"]`)
    .filter({ has: page.locator('.moment-card__chips .time-chip', { hasText: /^00:00:00 – / }) })
    .first();
  await card.waitFor({ timeout: 60_000 });
  return { page, card, library, media };
}

/** Opens the card's dialog and waits for its timeline and a playable picture. */
async function openDialog(page: Page, card: ReturnType<Page['locator']>) {
  await card.locator('.moment-card__frame').click();
  const dialog = page.getByRole('dialog');
  await dialog
    .getByTestId('timeline-canvas')
    .locator('canvas')
    .waitFor()
    .catch(async (e: unknown) => {
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'moment-dialog-debug.png') });
      throw e;
    });
  await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('[role=dialog] video')?.readyState ?? 0) >= 2);
  return dialog;
}

describe('moment dialog (issue 19)', () => {
  it(
    "Home and End go to the moment's first and last frame in Moment mode, to the video's in Full video, as the keys' help says",
    { timeout: 240_000 },
    async () => {
      const { page, card } = await counterSearch('endkey');
      const dialog = await openDialog(page, card);
      await dialog.getByRole('radio', { name: MSG_MOMENT.moment, checked: true }).waitFor();
      await shot(page, 'moment-dialog-1280');
      // The moment ends well before the media's last frame (at a shot change).
      const range = await dialog.getByTestId('moment-range').innerText();
      expect(range).toMatch(/^00:00:00(\.00)? – 00:00:0\d/);
      const seconds = (clock: string) => clock.split(':').reduce((total, part) => total * 60 + Number(part), 0);
      const momentLastFrame = Math.round(seconds(range.split(' – ')[1]!.split(/\s/)[0]!) * COUNTER_FPS) - 1;
      expect(momentLastFrame).toBeGreaterThan(0);
      expect(momentLastFrame).toBeLessThan(LAST_FRAME - COUNTER_FPS);

      // Keys go to the timeline from any control that does not take them itself.
      await dialog.getByRole('button', { name: 'Zoom in' }).focus();
      await page.keyboard.press('k');
      await page.waitForFunction(() => document.querySelector<HTMLVideoElement>('[role=dialog] video')!.paused, null, { timeout: 5_000 });
      const frame = (expected: number) => expect.poll(() => shownFrame(page), { timeout: 5_000 }).toBe(expected);

      // Moment mode: End is the moment's last frame (it was the media's, which left the moment), and it stays there, in Moment mode.
      await page.keyboard.press('End');
      await frame(momentLastFrame);
      await page.waitForTimeout(500);
      expect(await shownFrame(page)).toBe(momentLastFrame);
      await dialog.getByRole('radio', { name: MSG_MOMENT.moment, checked: true }).waitFor();
      // Home: the moment's first frame.
      await page.keyboard.press('Home');
      await frame(0);
      await page.keyboard.press('End');
      await frame(momentLastFrame);

      // The keys' help says which ends they are.
      await dialog.getByRole('button', { name: 'Keyboard shortcuts' }).click();
      const help = page.getByTestId('keyboard-help');
      await expect.poll(() => help.innerText()).toMatch(/Home\s*End\s*The moment's first \/ last frame/);
      await shot(page, 'moment-dialog-keys-1280');
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });
      await dialog.waitFor();

      // Full video: End is the media's last frame, Home its first.
      await dialog.getByRole('radio', { name: MSG_MOMENT.fullVideo }).click();
      await dialog.getByRole('radio', { name: MSG_MOMENT.fullVideo, checked: true }).waitFor();
      await dialog.getByRole('button', { name: 'Zoom in' }).focus();
      await page.keyboard.press('k');
      await page.keyboard.press('End');
      await frame(LAST_FRAME);
      await expect.poll(() => dialog.locator('.timeline__timecode').innerText()).toMatch(/^00:00:1[12]/);
      await page.waitForTimeout(500);
      expect(await shownFrame(page)).toBe(LAST_FRAME);
      await page.keyboard.press('Home');
      await frame(0);
      await dialog.getByRole('button', { name: 'Keyboard shortcuts' }).click();
      await expect.poll(() => help.innerText()).toMatch(/Home\s*End\s*The video's first \/ last frame/);
      await page.setViewportSize({ width: 375, height: 812 });
      await shot(page, 'moment-dialog-keys-375');
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });

      // Back in Moment mode the moment plays again from its start.
      await dialog.getByRole('radio', { name: MSG_MOMENT.moment }).click();
      await expect.poll(() => shownFrame(page), { timeout: 5_000 }).toBeLessThan(6 * COUNTER_FPS);
    },
  );

  it('has its own address: Back closes it, Forward opens it again, a link opens it', { timeout: 240_000 }, async () => {
    const { page, card } = await counterSearch('momenturl');
    const searchUrl = page.url();
    const dialog = await openDialog(page, card);
    const opened = new URL(page.url());
    expect(opened.pathname).toBe(ROUTES.search);
    const id = opened.searchParams.get('open');
    expect(id).toMatch(/^m_[0-9a-f-]{36}_\d+_\d+$/);
    expect(opened.searchParams.get('text')).toBe('counter');

    // Back closes the dialog and stays on the search page, with its results.
    await page.goBack();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('open')).toBeNull();
    expect(new URL(page.url()).pathname).toBe(ROUTES.search);
    await card.waitFor();
    // Forward opens it again.
    await page.goForward();
    await page.getByRole('dialog').getByTestId('timeline-canvas').locator('canvas').waitFor();
    expect(new URL(page.url()).searchParams.get('open')).toBe(id);
    // Its Close button leaves no entry behind: Back from there leaves the search page's first address.
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).last().click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('open')).toBeNull();
    expect(page.url()).toBe(searchUrl);

    // A link to the dialog (a fresh load) opens it on the same moment; closing it stays on the search.
    await page.goto(opened.href);
    const linked = page.getByRole('dialog', { name: 'counter' });
    await linked.getByTestId('timeline-canvas').locator('canvas').waitFor({ timeout: 30_000 });
    await expect.poll(() => linked.getByTestId('moment-dialog-range').innerText()).toMatch(/^00:00:00 – /);
    await page.keyboard.press('Escape');
    await linked.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(ROUTES.search);
    expect(new URL(page.url()).searchParams.get('open')).toBeNull();
    await card.waitFor();
  });

  it('zooms one small step per ctrl+wheel notch; a plain wheel does not zoom', { timeout: 240_000 }, async () => {
    const { page, card } = await counterSearch('wheelzoom');
    const dialog = await openDialog(page, card);
    const zoom = dialog.locator('.timeline__zoom-value');
    expect(await zoom.innerText()).toBe('100 %');
    const box = (await dialog.getByTestId('timeline-canvas').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 60);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -100);
    await expect.poll(() => zoom.innerText()).toBe('120 %');
    // A big or accelerated notch is still one step (it went from 500 % to 10,000 % in one).
    await page.mouse.wheel(0, -600);
    await expect.poll(() => zoom.innerText()).toBe('144 %');
    await page.mouse.wheel(0, 100);
    await expect.poll(() => zoom.innerText()).toBe('120 %');
    await page.keyboard.up('Control');
    // The plain wheel scrolls the timeline sideways, as in video editors: the zoom stays.
    await page.mouse.wheel(0, -300);
    // (no event to await when nothing changes: a wheel that zoomed would have shown by now)
    await page.waitForTimeout(500);
    expect(await zoom.innerText()).toBe('120 %');
  });

  it(
    'trims in place, without a second dialog; the card then shows a frame from inside the trim and says it is trimmed',
    { timeout: 240_000 },
    async () => {
      const { page, card } = await counterSearch('trimplace');
      const dialog = await openDialog(page, card);
      expect(await dialog.getByRole('button', { name: 'Trim', exact: true }).count()).toBe(0);
      expect(await card.getByRole('button', { name: /^Trim/ }).count()).toBe(0);
      const trim = dialog.getByRole('group', { name: 'Trim' });
      const start = trim.getByRole('textbox', { name: 'Start' });
      const end = trim.getByRole('textbox', { name: 'End' });
      expect(await start.inputValue()).toBe('00:00:00');

      // A start after the end is no range: said so, and nothing is saved.
      await start.click();
      await start.fill('00:00:05');
      await start.press('Enter');
      await trim.getByText(MSG_MOMENT.noRangeSelected, { exact: false }).waitFor();
      expect(await dialog.getByTestId('moment-trimmed').count()).toBe(0);

      // Valid boundaries are saved at once, from the keyboard: the range, the timeline and the marker follow.
      await start.click();
      await start.fill('00:00:00.40');
      await start.press('Enter');
      await end.click();
      await end.fill('00:00:01');
      await end.press('Enter');
      await dialog.getByTestId('moment-range').filter({ hasText: '00:00:00.4 – 00:00:01' }).waitFor();
      await trim.getByText('Length 0.6s').waitFor();
      await dialog.getByTestId('moment-trimmed').waitFor();
      expect(await page.getByRole('dialog').count()).toBe(1);
      await shot(page, 'moment-trim-in-place-1280');

      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // The card: the trimmed range, a visible marker, and a picture from inside the range (0.7 s).
      await expect.poll(() => card.locator('.moment-card__chips .time-chip').first().innerText()).toBe('00:00:00 – 00:00:01');
      await card.getByTestId('moment-card-trimmed').waitFor();
      expect(await card.getByTestId('moment-card-trimmed').isVisible()).toBe(true);
      const src = new URL((await card.locator('img.moment-card__poster').getAttribute('src'))!, app.url);
      const t = Number(src.searchParams.get('t'));
      expect(t).toBeGreaterThan(0.4);
      expect(t).toBeLessThan(1);
      // and the picture is that frame: 0.7 s is frame 17 (the poster is 280 px wide, so its stripes are 28 px)
      const bits = await card.locator('img.moment-card__poster').evaluate(async (img: HTMLImageElement) => {
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = 640;
        canvas.height = 360;
        const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
        ctx.drawImage(img, 0, 0, 640, 360);
        let n = 0;
        for (let i = 0; i < 10; i++) {
          const [r, g, b] = ctx.getImageData(i * 64 + 32, 50, 1, 1).data;
          if (r! + g! + b! > 3 * 128) n |= 1 << i;
        }
        return n;
      });
      expect(bits).toBeGreaterThanOrEqual(10);
      expect(bits).toBeLessThan(25);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'search-card-trimmed-1280.png') });
    },
  );

  it("marks the search's words in the side panel's lines", { timeout: 240_000 }, async () => {
    const { page, card } = await counterSearch('matchwords');
    const dialog = await openDialog(page, card);
    // The counter video has no speech: its visual summary reads its on-screen text, 'counter'.
    await dialog.getByRole('radio', { name: 'Visual summary' }).click();
    const lines = dialog.getByRole('list', { name: 'Visual summary' });
    await lines.locator('.moment-lines__item').first().waitFor();
    const marks = lines.locator('mark.moment-lines__match');
    await expect.poll(() => marks.count()).toBeGreaterThan(0);
    expect((await marks.allInnerTexts()).every((t) => t.toLowerCase() === 'counter')).toBe(true);
    // Only the words: 'Colours' and 'Text on screen' are not marked.
    expect(await lines.locator('.moment-lines__item').first().locator('mark').count()).toBe(1);
    await shot(page, 'moment-matched-words-1280');
  });

  it('fits a 375 px screen: nothing sideways, the controls whole, the actions in view', { timeout: 240_000 }, async () => {
    const { page, card } = await counterSearch('mobile', { width: 375, height: 812 });
    await card.locator('img.moment-card__poster').evaluate((img: HTMLImageElement) => img.decode());
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'search-375.png') });
    const dialog = await openDialog(page, card);
    await shot(page, 'moment-dialog-375');
    const overflow = await page.evaluate(() => {
      const wide = [...document.querySelectorAll<HTMLElement>('[role=dialog] *')]
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && (r.left < -0.5 || r.right > window.innerWidth + 0.5);
        })
        .map((el) => `${el.tagName}.${el.className}`);
      const d = document.querySelector<HTMLElement>('[role=dialog]')!;
      return { wide: wide.slice(0, 8), page: document.documentElement.scrollWidth, dialog: d.scrollWidth - d.clientWidth };
    });
    expect(overflow.wide).toEqual([]);
    expect(overflow.page).toBeLessThanOrEqual(375);
    expect(overflow.dialog).toBeLessThanOrEqual(0);
    // The volume slider and the time code are whole and on screen.
    for (const el of [dialog.getByRole('slider', { name: 'Volume' }), dialog.getByRole('textbox', { name: 'Current time' })]) {
      const b = (await el.boundingBox())!;
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(375);
    }
    // The primary actions are on screen without scrolling.
    for (const name of ['Download', 'Close']) {
      const b = (await dialog.getByRole('button', { name, exact: true }).last().boundingBox())!;
      expect(b.y + b.height, name).toBeLessThanOrEqual(812);
      expect(b.x + b.width, name).toBeLessThanOrEqual(375);
    }
  });
});
