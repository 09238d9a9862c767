// Photos in a library (issue 37, item 5), as a person meets them: an EXIF-rotated JPEG (stored
// sideways, shown upright) and a PNG with transparency are dropped on the library page, indexed,
// and then seen as pictures everywhere: the list, the grid, the library's cover, search cards, and
// opened in the media modal and the moment dialog as the photo itself at a size worth looking at
// (no film-strip placeholder, no video player). Each photo carries a counter drawn in stripes
// across its top as seen upright (tests/fixtures/mediaMatrix.ts), so every picture the browser
// shows is read back: a sideways or mirrored picture reads another number.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, libraryPath, mediaPath, MSG_MEDIA, ROUTES, type FolderResponse, type Library, type Media } from '../../src/contract';
import { counterOfGrey, IMAGE_COUNTER, makeMatrix, type MatrixVariant } from '../fixtures/mediaMatrix';
import { apiCall, e2eSuite, SCREENSHOT_DIR } from './harness';

const { app, signedIn } = e2eSuite();

let dir: string;
let jpeg: MatrixVariant;
let png: MatrixVariant;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-e2e-photos-'));
  [jpeg, png] = await makeMatrix(dir, ['exif-rot-jpeg', 'png-alpha']);
}, 120_000);
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A full-window screenshot once every image on the page has settled (loaded or failed). */
async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForFunction(() => [...document.images].every((img) => img.complete), null, { timeout: 20_000 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

/** Files dropped on the page as a user's drag delivers them. */
async function dropFiles(page: Page, files: Array<{ file: string; name: string; type: string }>) {
  const list = files.map((f) => ({ name: f.name, type: f.type, base64: fs.readFileSync(f.file).toString('base64') }));
  await page.locator('body').evaluate((el, items) => {
    const dt = new DataTransfer();
    for (const f of items) dt.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
    for (const type of ['dragenter', 'dragover', 'drop'])
      el.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, list);
}

interface Shown {
  /** The picture's own size as the browser lays it out (EXIF orientation applied). */
  width: number;
  height: number;
  /** The counter read from the picture as shown (transparency over black). */
  counter: number;
}

/**
 * Waits for the <img> `img` finds to have loaded a picture, and reads it as the browser shows it:
 * its natural size and the counter of its stripes.
 */
async function shownPicture(img: Locator): Promise<Shown> {
  await img.waitFor();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), { timeout: 20_000 }).toBe(true);
  const { width, height, grey } = await img.evaluate((el: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 90;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    ctx.drawImage(el, 0, 0, 160, 90);
    const { data } = ctx.getImageData(0, 0, 160, 90);
    const out: number[] = [];
    for (let i = 0; i < data.length; i += 4) out.push(Math.round(((data[i]! + data[i + 1]! + data[i + 2]!) / 3) * (data[i + 3]! / 255)));
    return { width: el.naturalWidth, height: el.naturalHeight, grey: out };
  });
  return { width, height, counter: counterOfGrey(Uint8Array.from(grey), 160, 90) };
}

const upright = (s: Shown, aspect: number) => {
  expect(s.counter, 'the counter of the picture as shown (another number: sideways or mirrored)').toBe(IMAGE_COUNTER);
  expect(s.width / s.height).toBeCloseTo(aspect, 1);
};

describe('photos', () => {
  it(
    'shows a JPEG (EXIF-rotated) and a PNG as upright pictures in the list, grid, cover, search and when opened',
    { timeout: 300_000 },
    async () => {
      const { page } = await signedIn('photos', ROUTES.libraries, { width: 1280, height: 800 });
      const mine = (await apiCall<Library[]>(page, 'GET', API.libraries)).find((l) => l.isDefault)!;
      await page.goto(`${app.url}${libraryPath(mine._id)}`);
      await page.getByText(MSG_MEDIA.noVideos).waitFor();
      await dropFiles(page, [
        { file: jpeg.file, name: 'dog-sideways.jpg', type: 'image/jpeg' },
        { file: png.file, name: 'see-through.png', type: 'image/png' },
      ]);
      const row = (name: string) => page.locator('tr.media-row').filter({ hasText: name });
      for (const name of ['dog-sideways', 'see-through'])
        await row(name).locator('[data-status="completed"]').waitFor({ timeout: 120_000 });
      const { files } = await apiCall<FolderResponse>(page, 'GET', API.folder(mine._id));
      const dog = files.find((m) => m.metadata.name === 'dog-sideways')!;
      const glass = files.find((m) => m.metadata.name === 'see-through')!;
      expect([dog.kind, glass.kind]).toEqual(['image', 'image']);
      const photos: Array<[Media, number]> = [
        [dog, 768 / 576],
        [glass, 640 / 360],
      ];

      // The list: each row's picture is the photo, upright; no placeholder.
      for (const [m, aspect] of photos) {
        const r = page.locator(`tr.media-row[data-media-id="${m._id}"]`);
        upright(await shownPicture(r.locator('img.thumb__img')), aspect);
        expect(await r.locator('.thumb--placeholder').count()).toBe(0);
      }
      // The header counts photos as photos, with no total duration (a photo has none).
      await page.locator('.library-stats').getByText('2 photos', { exact: true }).waitFor();
      expect(await page.getByLabel('Total duration').count()).toBe(0);
      await shot(page, 'photos-list-1280');

      // The grid.
      await page.getByRole('radio', { name: 'Grid view' }).click();
      for (const [m, aspect] of photos) {
        const card = page.locator(`.media-card[data-media-id="${m._id}"]`);
        upright(await shownPicture(card.locator('img.thumb__img')), aspect);
        expect(await card.locator('.thumb--placeholder').count()).toBe(0);
      }
      // The spec's grid: at 1280 px, 3 columns of at least 300 px, 16 px apart.
      const grid = await page
        .locator('.media-grid')
        .evaluate((el) => ({ columns: getComputedStyle(el).gridTemplateColumns.split(' '), gap: getComputedStyle(el).columnGap }));
      expect(grid.columns).toHaveLength(3);
      for (const c of grid.columns) expect(parseFloat(c)).toBeGreaterThanOrEqual(300);
      expect(grid.gap).toBe('16px');
      await shot(page, 'photos-grid-1280');

      // Opened: the photo itself at its own size (not the 280 px thumbnail), upright, and no player.
      await page.locator(`.media-card[data-media-id="${dog._id}"] .media-card__title`).click();
      await page.waitForURL((u) => u.pathname === mediaPath(mine._id, dog._id));
      const modal = page.getByRole('dialog', { name: 'dog-sideways' });
      const picture = await shownPicture(modal.getByRole('img', { name: 'dog-sideways' }));
      upright(picture, 768 / 576);
      expect(picture.width).toBe(768);
      expect(await modal.locator('video').count()).toBe(0);
      expect(await modal.locator('.thumb--placeholder').count()).toBe(0);
      // Its details are a photo's: no duration or frame count.
      await modal.getByText('768 × 576').waitFor();
      expect(await modal.getByText('Duration', { exact: true }).count()).toBe(0);
      await shot(page, 'photos-modal-1280');
      await page.setViewportSize({ width: 375, height: 812 });
      upright(await shownPicture(modal.getByRole('img', { name: 'dog-sideways' })), 768 / 576);
      await shot(page, 'photos-modal-375');
      await page.keyboard.press('Escape');
      await modal.waitFor({ state: 'detached' });
      await shot(page, 'photos-grid-375');
      await page.setViewportSize({ width: 1280, height: 800 });

      // The library's cover is its latest photo (which of the two dropped together is latest depends on
      // which upload started first: the library says).
      await page.getByRole('link', { name: 'Libraries', exact: true }).first().click();
      await page.waitForURL((u) => u.pathname === ROUTES.libraries);
      const latest = (await apiCall<Library>(page, 'GET', API.library(mine._id))).latestMediaIds[0];
      const coverAspect = photos.find(([m]) => m._id === latest)?.[1];
      expect(coverAspect, 'the cover is one of the two photos').toBeDefined();
      const cover = page.locator('.library-card').filter({ hasText: mine.name }).locator('.library-card__thumb');
      upright(await shownPicture(cover.locator('img')), coverAspect!);
      expect(await cover.locator('.library-card__placeholder').count()).toBe(0);
      const meta = await page.locator('.library-card').filter({ hasText: mine.name }).locator('.library-card__meta').innerText();
      expect(meta).toMatch(/^2 photos · \d/);
      expect(meta).not.toContain('0:00');
      await shot(page, 'photos-libraries-1280');

      // Search finds the dog photo; its card shows the photo, and opening it shows the picture, not a player.
      await page.goto(`${app.url}${ROUTES.search}?libs=${mine._id}&text=dog`);
      const card = page.locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${dog._id}"]`).first();
      await card.waitFor({ timeout: 60_000 });
      upright(await shownPicture(card.locator('img.moment-card__poster')), 768 / 576);
      expect(await card.locator('.moment-card__placeholder').count()).toBe(0);
      await shot(page, 'photos-search-1280');
      await card.locator('.moment-card__frame').click();
      const dialog = page.getByRole('dialog', { name: 'dog-sideways' });
      const opened = await shownPicture(dialog.getByRole('img', { name: 'dog-sideways' }));
      upright(opened, 768 / 576);
      expect(opened.width).toBe(768);
      expect(await dialog.locator('video').count()).toBe(0);
      // A photo is one moment: nothing in it to search ("Search in this video" was offered).
      expect(await dialog.getByRole('button', { name: /Search in this/ }).count()).toBe(0);
      await shot(page, 'photos-moment-1280');
      await page.setViewportSize({ width: 375, height: 812 });
      await shot(page, 'photos-moment-375');
      await page.keyboard.press('Escape');
      await shot(page, 'photos-search-375');
    },
  );
});
