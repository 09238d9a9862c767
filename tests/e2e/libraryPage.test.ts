import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { libraryPath, mediaPath, ROUTES } from '../../src/contract';
import { uploadCounterVideo, uploadIndexed } from '../fixtures/counterVideo';
import { INTRO_SEGMENTS, makeIntroVideo } from '../fixtures/introVideo';
import { createVerifiedUser, e2eSuite, SCREENSHOT_DIR, signIn, uniqueEmail } from './harness';

/** The library and search screens as a demanding user meets them (issue 19), on an indexed counter video. */

const { app, openBrowser } = e2eSuite();

async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForFunction(() => [...document.images].every((img) => img.complete), null, { timeout: 20_000 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

async function withCounter(tag: string, viewport = { width: 1280, height: 900 }) {
  const email = uniqueEmail(tag);
  const password = `${tag} password`;
  await createVerifiedUser(app, email, password);
  const { library, media } = await uploadCounterVideo(app.url, email, password);
  expect(media.status).toBe('completed');
  const { page } = await openBrowser(viewport);
  await signIn(page, app.url, email, password, libraryPath(library._id));
  await page.waitForURL((u) => u.pathname === libraryPath(library._id));
  return { page, library, media };
}

describe('library and search screens (issue 19)', () => {
  it("a media's name opens it; Escape clears a selection; no toggle that changes nothing", { timeout: 240_000 }, async () => {
    const { page, library, media } = await withCounter('libname');
    const row = page.locator(`[data-media-id="${media._id}"]`).first();
    await row.waitFor();
    // The Visual / Transcript toggle changed nothing visible: it is gone.
    expect(await page.getByRole('radiogroup', { name: 'Search mode' }).count()).toBe(0);
    expect(await page.getByRole('radio', { name: 'Transcript' }).count()).toBe(0);
    await shot(page, 'library-1280');

    // The name, like the picture, opens the media (list view, then grid view).
    await row.getByText('counter', { exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === mediaPath(library._id, media._id));
    const modal = page.getByRole('dialog', { name: 'counter' });
    await modal.waitFor();
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
    await page.getByRole('radio', { name: 'Grid view' }).click();
    const card = page.locator(`.media-card[data-media-id="${media._id}"]`);
    await card.locator('.media-card__title').click();
    await page.waitForURL((u) => u.pathname === mediaPath(library._id, media._id));
    await modal.waitFor();
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    // Escape clears a selection.
    const bar = page.getByRole('toolbar', { name: 'Selection' });
    await card.getByRole('checkbox').check();
    await bar.waitFor();
    await page.keyboard.press('Escape');
    await bar.waitFor({ state: 'detached' });
    expect(await card.getByRole('checkbox').isChecked()).toBe(false);

    // And on the search page, a selection of moments.
    await page.goto(`${app.url}${ROUTES.search}?libs=${library._id}&text=counter`);
    const moment = page.locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${media._id}"]`).first();
    await moment.waitFor({ timeout: 60_000 });
    await moment.getByRole('checkbox').check();
    await bar.waitFor();
    await page.keyboard.press('Escape');
    await bar.waitFor({ state: 'detached' });
    expect(await moment.getByRole('checkbox').isChecked()).toBe(false);
  });

  it('fits a 375 px screen: the first video near the top, nothing sideways', { timeout: 240_000 }, async () => {
    const { page, media } = await withCounter('libmobile', { width: 375, height: 812 });
    for (const view of ['list', 'grid'] as const) {
      if (view === 'grid') await page.getByRole('radio', { name: 'Grid view' }).click();
      const first = page.locator(`[data-media-id="${media._id}"]`).first();
      await first.waitFor();
      await shot(page, `library-${view}-375`);
      const box = (await first.boundingBox())!;
      const m = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        wide: [...document.querySelectorAll<HTMLElement>('main *')]
          .filter((el) => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && (r.left < -0.5 || r.right > window.innerWidth + 0.5) && !el.closest('.media-table__wrap'); // the table scrolls in its own box;
          })
          .map((el) => `${el.tagName}.${el.className}`)
          .slice(0, 8),
      }));
      expect(m.page, view).toBeLessThanOrEqual(375);
      expect(m.wide, view).toEqual([]);
      // The controls above the list leave room: the first video starts in the top half of the screen.
      expect(box.y, view).toBeLessThan(812 / 2);
      // The primary action is on screen.
      const add = (await page.getByRole('button', { name: /Add videos/ }).boundingBox())!;
      expect(add.x + add.width).toBeLessThanOrEqual(375);
    }
  });
  it(
    'library cards and media thumbnails show a representative frame, not the opening bars, black or title card',
    { timeout: 300_000 },
    async () => {
      const email = uniqueEmail('poster');
      const password = 'poster password';
      await createVerifiedUser(app, email, password);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-poster-'));
      try {
        // A video opening with colour bars, black and a title card before its first scene (a dog photo).
        const file = makeIntroVideo(path.join(dir, 'opening.mp4'));
        const { library, media } = await uploadIndexed(app.url, email, password, 'opening.mp4', (f) => fs.copyFileSync(file, f), 240_000);
        expect(media.status).toBe('completed');

        // What each stretch of the video looks like, 32x18 RGB.
        const reference = (t: number) =>
          execFileSync('ffmpeg', [
            '-v',
            'error',
            '-ss',
            String(t),
            '-i',
            file,
            '-frames:v',
            '1',
            '-vf',
            'scale=32:18',
            '-f',
            'rawvideo',
            '-pix_fmt',
            'rgb24',
            'pipe:1',
          ]);
        const refs = INTRO_SEGMENTS.map((s) => ({ what: s.what, pixels: reference((s.start + s.end) / 2) }));
        /** Which stretch a shown picture is closest to, with the distances (mean absolute difference, 0..255). */
        const closest = async (img: Locator) => {
          await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
          const shown = await img.evaluate((el: HTMLImageElement) => {
            const canvas = document.createElement('canvas');
            canvas.width = 32;
            canvas.height = 18;
            const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
            ctx.drawImage(el, 0, 0, 32, 18);
            return Array.from(ctx.getImageData(0, 0, 32, 18).data).filter((_, i) => i % 4 !== 3);
          });
          const distances = refs.map((r) => ({
            what: r.what,
            d: shown.reduce((sum, v, i) => sum + Math.abs(v - r.pixels[i]!), 0) / shown.length,
          }));
          return distances.sort((a, b) => a.d - b.d);
        };

        const { page } = await openBrowser({ width: 1280, height: 900 });
        await signIn(page, app.url, email, password, ROUTES.libraries);
        await page.waitForURL((u) => u.pathname === ROUTES.libraries);
        const cardPicture = page.locator('.library-card').filter({ hasText: library.name }).locator('.library-card__thumb img');
        const onCard = await closest(cardPicture);
        expect(onCard[0]!.what, JSON.stringify(onCard)).toBe('dog');
        expect(onCard[0]!.d).toBeLessThan(20);
        await shot(page, 'libraries-representative-poster');

        await page.goto(`${app.url}${libraryPath(library._id)}`);
        await page.getByRole('radio', { name: 'Grid view' }).click();
        const thumb = page.locator(`.media-card[data-media-id="${media._id}"] img.thumb__img`).first();
        const onThumb = await closest(thumb);
        expect(onThumb[0]!.what, JSON.stringify(onThumb)).toBe('dog');
        await shot(page, 'library-grid-representative-poster');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
