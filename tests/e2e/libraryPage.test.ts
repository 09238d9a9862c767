import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { libraryPath, mediaPath, ROUTES } from '../../src/contract';
import { uploadCounterVideo } from '../fixtures/counterVideo';
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
});
