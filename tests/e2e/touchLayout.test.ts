import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { libraryPath as libraryRoute, MSG_DOWNLOAD, MSG_MERGE, ROUTES, type Library, type Media } from '../../src/contract';
import { makeCounterVideo, uploadCounterVideo } from '../fixtures/counterVideo';
import { createVerifiedUser, e2eSuite, SCREENSHOT_DIR, signIn, uniqueEmail, type BrowserOptions, type Viewport } from './harness';

/**
 * A phone and a laptop's window (issue 37, items 4 and 14): on a touch screen a result card's select
 * box, find-similar and download show without hover and the selection bar fits 320 px with every
 * control reachable; at 1280×800 the moment dialog's zoom and Start/End fields and the merge editor's
 * download are in view without scrolling, the download toast covers none of the dialog's buttons,
 * I and O keep the times they were pressed at, and the library's rows keep their order while media
 * index. One account with one indexed 60 s counter video (cut at 6 s: a search finds two moments)
 * serves all three tests.
 */
const { app, openBrowser } = e2eSuite();
const password = 'touch password';
let account: { email: string; library: Library; media: Media };

beforeAll(async () => {
  const email = uniqueEmail('touch');
  await createVerifiedUser(app, email, password);
  // 60 s: the timeline is ~770 px wide at 1280, so its 36 px handle minimum is 2.8 s, more than I to O below.
  const { library, media } = await uploadCounterVideo(app.url, email, password, { cutAt: 6, seconds: 60 });
  expect(media.status).toBe('completed');
  account = { email, library, media };
}, 240_000);

async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

async function searchCounter(viewport: Viewport, options: BrowserOptions = {}) {
  const { page } = await openBrowser(viewport, options);
  await signIn(page, app.url, account.email, password, `${ROUTES.search}?libs=${account.library._id}`);
  await page.waitForURL((u) => u.pathname === ROUTES.search);
  await page.getByPlaceholder(/Ask me anything/).fill('counter');
  const cards = page.locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${account.media._id}"]`);
  await expect.poll(() => cards.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  return { page, cards };
}

const opacity = (l: Locator) => l.evaluate((el) => Number(getComputedStyle(el).opacity));

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const boxOf = async (l: Locator): Promise<Box> => {
  const b = await l.boundingBox();
  if (!b) throw new Error(`${String(l)} has no box`);
  return b;
};
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
/** Wholly inside the window, as laid out without scrolling. */
const inWindow = (b: Box, w: Viewport) => b.x >= 0 && b.y >= 0 && b.x + b.width <= w.width + 0.5 && b.y + b.height <= w.height + 0.5;

describe('touch and layout (issue 37, items 4 and 14)', () => {
  it('on a phone, cards show their select box, similar and download, and the selection bar fits 320 px', { timeout: 180_000 }, async () => {
    const phone = { width: 375, height: 812 };
    const { page, cards } = await searchCounter(phone, { touch: true });
    expect(await page.evaluate(() => matchMedia('(hover: none)').matches)).toBe(true);
    // Nothing to hover on a touch screen: every card's controls are there to be seen and tapped
    // (the second card's too: the emulated pointer rests over the first).
    await shot(page, 'touch-cards-375');
    for (const card of [cards.first(), cards.nth(1)]) {
      await expect.poll(() => opacity(card.getByRole('checkbox'))).toBe(1);
      await expect.poll(() => opacity(card.locator('.moment-card__actions'))).toBe(1);
    }
    const first = cards.first();
    const check = first.getByRole('checkbox');
    for (const control of [
      check,
      first.getByRole('button', { name: 'Search for similar moments' }),
      first.getByRole('button', { name: /^Download moment/ }),
    ]) {
      const box = await boxOf(control);
      expect(inWindow(box, phone)).toBe(true);
      expect(Math.min(box.width, box.height), 'a finger-sized target').toBeGreaterThanOrEqual(28);
    }

    // Tap two select boxes: the bar shows, inside the window.
    await check.tap();
    await cards.nth(1).getByRole('checkbox').tap();
    const bar = page.getByRole('toolbar', { name: 'Selection' });
    await expect.poll(() => bar.innerText()).toMatch(/2 selected/);
    await shot(page, 'touch-selection-375');
    for (const width of [375, 320]) {
      await page.setViewportSize({ width, height: 812 });
      const window = { width, height: 812 };
      await expect.poll(async () => inWindow(await boxOf(bar), window), { message: `the bar at ${width} px` }).toBe(true);
      const parts = [bar.getByText('2 selected'), ...(await bar.getByRole('button').all())];
      expect(parts.length).toBeGreaterThanOrEqual(6);
      for (const part of parts) expect(inWindow(await boxOf(part), window), `${await part.innerText()} at ${width} px`).toBe(true);
    }
    // The search bar's three types fit inside it at 320 px too (Both ran into its edge).
    const searchBar = await boxOf(page.locator('.search-bar'));
    const both = await boxOf(page.getByRole('radio', { name: 'Both' }));
    expect(both.x + both.width, 'Both inside the search bar at 320 px').toBeLessThanOrEqual(searchBar.x + searchBar.width - 8);
    await shot(page, 'touch-selection-320');
    // Merge, tapped at 320 px, opens the merge editor.
    await bar.getByRole('button', { name: MSG_MERGE.merge }).tap();
    const merge = page.getByRole('dialog', { name: MSG_MERGE.dialogTitle });
    await merge.getByTestId('sequence-timeline').locator('canvas').waitFor({ timeout: 30_000 });
    await shot(page, 'touch-merge-320');
    await page.setViewportSize(phone);
    await shot(page, 'touch-merge-375');
    await merge.getByRole('button', { name: 'Close' }).first().tap();
    await merge.waitFor({ state: 'detached' });

    // The moment dialog on the phone: its download's progress toast leaves Download and Close free.
    await bar.getByRole('button', { name: 'Close selection' }).tap();
    await bar.waitFor({ state: 'detached' });
    await first.locator('.moment-card__frame').tap();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('timeline-canvas').locator('canvas').waitFor({ timeout: 30_000 });
    await shot(page, 'touch-moment-dialog-375');
    const download = dialog.getByRole('button', { name: 'Download', exact: true });
    await download.tap();
    await page.getByRole('menuitem', { name: 'MP4', exact: true }).tap();
    const toast = page.locator('.toast').filter({ hasText: MSG_DOWNLOAD.progressTitle('mp4') });
    await toast.waitFor();
    const close = dialog.getByRole('button', { name: 'Close', exact: true });
    await expect
      .poll(async () => {
        const t = await boxOf(toast);
        const covered = await Promise.all([download, ...(await close.all())].map(async (b) => overlaps(t, await boxOf(b))));
        return covered.some(Boolean);
      })
      .toBe(false);
    await shot(page, 'touch-moment-toast-375');
  });

  it(
    'at 1280×800 the dialogs show their controls unscrolled, the toast covers no button, and I and O keep their times',
    { timeout: 180_000 },
    async () => {
      const laptop = { width: 1280, height: 800 };
      const { page, cards } = await searchCounter(laptop);
      // A mouse still reveals the card's controls by hovering (and hides them after).
      const check = cards.first().getByRole('checkbox');
      await page.mouse.move(5, 5);
      await expect.poll(() => opacity(check)).toBe(0);
      await cards.first().hover();
      await expect.poll(() => opacity(check)).toBe(1);

      await cards.first().locator('.moment-card__frame').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByTestId('timeline-canvas').locator('canvas').waitFor({ timeout: 30_000 });
      const start = dialog.getByRole('textbox', { name: 'Start' });
      const end = dialog.getByRole('textbox', { name: 'End' });
      const zoomIn = dialog.getByRole('button', { name: 'Zoom in' });
      await shot(page, 'moment-dialog-layout-1280');
      for (const el of [dialog.getByRole('slider', { name: 'Zoom' }), zoomIn, start, end])
        expect(inWindow(await boxOf(el), laptop), `${String(el)} in view`).toBe(true);

      // I at 4.0 s, O at 6.0 s: the moment is 4.0-6.0 (the 36 px handle minimum is more than 2 s here).
      const time = dialog.getByRole('textbox', { name: 'Current time' });
      // K stops the moment's autoplay first; then each mark is a seek (the time field) and its key.
      await zoomIn.focus();
      await page.keyboard.press('k');
      await page.waitForFunction(() => document.querySelector<HTMLVideoElement>('[role=dialog] video')!.paused, null, { timeout: 5_000 });
      const markAt = async (t: string, key: string) => {
        await time.click();
        await time.fill(t);
        await time.press('Enter');
        await expect.poll(() => dialog.locator('.timeline__timecode').innerText()).toBe(`${t}:00`);
        await zoomIn.focus();
        await page.keyboard.press(key);
      };
      await markAt('00:00:04', 'i');
      await markAt('00:00:06', 'o');
      await expect.poll(() => Promise.all([start.inputValue(), end.inputValue()])).toEqual(['00:00:04', '00:00:06']);
      await expect.poll(() => dialog.getByTestId('moment-range').innerText()).toMatch(/^00:00:04 – 00:00:06/);

      // Download MP4: the progress toast leaves Download and both Close buttons free.
      const download = dialog.getByRole('button', { name: 'Download', exact: true });
      await download.click();
      await page.getByRole('menuitem', { name: 'MP4', exact: true }).click();
      const toast = page.locator('.toast').filter({ hasText: MSG_DOWNLOAD.progressTitle('mp4') });
      await toast.waitFor();
      const buttons = [download, ...(await dialog.getByRole('button', { name: 'Close', exact: true }).all())];
      expect(buttons.length).toBeGreaterThanOrEqual(3); // Download, the header's Close (X) and the footer's
      // Read once the toast has slid in (0.18 s) and been lifted clear of the footer.
      const covered = async () => {
        const toastBox = await boxOf(toast);
        const over = await Promise.all(buttons.map(async (b) => (overlaps(toastBox, await boxOf(b)) ? await b.innerText() : null)));
        return over.filter(Boolean).join(', ');
      };
      await expect.poll(covered, { timeout: 5_000, message: 'the toast over these buttons' }).toBe('');
      await shot(page, 'moment-dialog-toast-1280');
      // (Escape here would dismiss the toast, Radix's top layer, rather than the dialog.)
      await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
      await dialog.waitFor({ state: 'detached' });

      // The merge editor: its Download MP4 in view without scrolling.
      for (const card of (await cards.all()).slice(0, 2)) await card.getByRole('checkbox').check();
      await shot(page, 'search-selection-1280');
      await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: MSG_MERGE.merge }).click();
      const merge = page.getByRole('dialog', { name: MSG_MERGE.dialogTitle });
      await merge.getByTestId('sequence-timeline').locator('canvas').waitFor({ timeout: 30_000 });
      await shot(page, 'merge-dialog-layout-1280');
      expect(inWindow(await boxOf(merge.getByRole('button', { name: /^Download MP4/ })), laptop)).toBe(true);
      expect(inWindow(await boxOf(merge.getByRole('checkbox', { name: /watermark/i })), laptop)).toBe(true);
    },
  );

  it('library rows keep their order while media index', { timeout: 180_000 }, async () => {
    const { page } = await openBrowser({ width: 1280, height: 800 });
    const libraryPath = libraryRoute(account.library._id);
    await signIn(page, app.url, account.email, password, libraryPath);
    await page.waitForURL((u) => u.pathname === libraryPath);
    const rows = page.locator('tr.media-row');
    await rows.first().waitFor();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-order-'));
    const files = ['alpha', 'bravo', 'charlie'].map((n, i) => {
      const file = path.join(dir, `${n}.mp4`);
      makeCounterVideo(file, { seconds: 3, offset: i * 100 });
      return file;
    });
    await page.getByTestId('file-input').setInputFiles(files);
    // The order of the rows, read every 50 ms until all four are indexed.
    const orders: string[][] = [];
    const idle = async () => {
      const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-media-id') ?? ''));
      if (orders.at(-1)?.join() !== ids.join()) orders.push(ids);
      const busy = await rows.filter({ hasText: /Uploading|Queued|Indexing/ }).count();
      return ids.length === 4 && busy === 0;
    };
    await expect.poll(idle, { timeout: 120_000, interval: 50 }).toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });
    // Two rows, once both shown, never swap.
    for (let i = 1; i < orders.length; i++) {
      const before = orders[i - 1]!.filter((id) => orders[i]!.includes(id));
      const after = orders[i]!.filter((id) => before.includes(id));
      expect(after, `order ${i} of ${orders.length}: ${JSON.stringify(orders)}`).toEqual(before);
    }
    await shot(page, 'library-order-1280');

    // The library page's selection bar fits a phone too.
    const phone = { width: 375, height: 812 };
    await page.setViewportSize(phone);
    await rows.first().getByRole('checkbox').check();
    const bar = page.getByRole('toolbar', { name: 'Selection' });
    await expect.poll(() => bar.innerText()).toMatch(/1 selected/);
    for (const part of [bar.getByText('1 selected'), ...(await bar.getByRole('button').all())])
      expect(inWindow(await boxOf(part), phone), await part.innerText()).toBe(true);
    await shot(page, 'library-selection-375');
  });
});
