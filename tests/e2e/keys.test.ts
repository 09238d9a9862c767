import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG_MERGE, ROUTES, type Library, type Media } from '../../src/contract';
import { uploadCounterVideo } from '../fixtures/counterVideo';
import { createVerifiedUser, e2eSuite, SCREENSHOT_DIR, signIn, uniqueEmail, waitForVideo, type Viewport } from './harness';

/**
 * Keys in the app's dialogs (issue 37, items 2 and 3), as a person presses them: Space plays and
 * pauses the moment dialog wherever focus is in it, and presses only a button the user tabbed to;
 * Ctrl/Cmd+Z undoes exactly one step of the merge editor wherever focus is in it, and no key inside
 * a dialog edits the search behind it. One account and one indexed counter video (cut at 6 s, so a
 * search finds several moments) serve both tests.
 */
const { app, openBrowser } = e2eSuite();
const password = 'keys password';
let account: { email: string; library: Library; media: Media };

beforeAll(async () => {
  const email = uniqueEmail('keys');
  await createVerifiedUser(app, email, password);
  const { library, media } = await uploadCounterVideo(app.url, email, password, { cutAt: 6 });
  expect(media.status).toBe('completed');
  account = { email, library, media };
}, 240_000);

const VIDEO = '[role=dialog] video';

/** Signs in on the search page and types the search, key by key (the field keeps an undo history, as a person's does). */
async function searchCounter(viewport: Viewport) {
  const browser = await openBrowser(viewport);
  const { page } = browser;
  await signIn(page, app.url, account.email, password, `${ROUTES.search}?libs=${account.library._id}`);
  await page.waitForURL((u) => u.pathname === ROUTES.search);
  const search = page.getByPlaceholder(/Ask me anything/);
  await search.click();
  await page.keyboard.type('count');
  await page.keyboard.type('er');
  const cards = page.locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${account.media._id}"]`);
  await expect.poll(() => cards.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  return { page, search, cards };
}

/** Where focus is: the focused element's role or tag and name. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    return `${el.getAttribute('role') ?? el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.textContent?.trim() ?? ''}`.trim();
  });

/** Presses Tab (or Shift+Tab) until `target` has focus, at most 40 times: focus that arrived by keyboard. */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  for (let i = 0; i < 40; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`Tab never reached the target; focus is on ${await focused(page)}`);
}

const openParam = (page: Page) => new URL(page.url()).searchParams.get('open');
const paused = (page: Page) => page.evaluate((s) => document.querySelector<HTMLVideoElement>(s)!.paused, VIDEO);

describe('keys in dialogs (issue 37)', () => {
  it(
    'Space plays and pauses the moment dialog wherever focus is, and presses only a button reached by Tab',
    { timeout: 240_000 },
    async () => {
      const { page, cards } = await searchCounter({ width: 1280, height: 800 });
      await cards.first().locator('.moment-card__frame').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByTestId('timeline-canvas').locator('canvas').waitFor({ timeout: 30_000 });
      const opened = openParam(page);
      expect(opened).toBeTruthy();
      // Focus starts on the player (not on Close, which Space would press), and the moment plays.
      expect(await focused(page)).toMatch(/^video Video counter/);
      await waitForVideo(page, VIDEO, { paused: false });
      fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'moment-dialog-focus-1280.png') });

      // Space pauses and plays; the dialog and its address stay.
      await page.keyboard.press('Space');
      await waitForVideo(page, VIDEO, { paused: true }, 5_000);
      await page.keyboard.press('Space');
      await waitForVideo(page, VIDEO, { paused: false }, 5_000);
      expect(await dialog.isVisible()).toBe(true);
      expect(openParam(page)).toBe(opened);

      // A button that took focus from a click does not swallow Space: Zoom in zoomed once, Space pauses.
      const zoom = dialog.locator('.timeline__zoom-value');
      const zoomIn = dialog.getByRole('button', { name: 'Zoom in' });
      await zoomIn.click();
      await expect.poll(() => zoom.innerText()).toBe('150 %');
      await page.keyboard.press('Space');
      await waitForVideo(page, VIDEO, { paused: true }, 5_000);
      await page.keyboard.press('Space');
      await waitForVideo(page, VIDEO, { paused: false }, 5_000);
      expect(await zoom.innerText()).toBe('150 %');

      // A button the user tabbed to is pressed by Space, as always: Zoom out, and playback goes on.
      const zoomOut = dialog.getByRole('button', { name: 'Zoom out' });
      await tabTo(page, zoomOut, 'Shift+Tab');
      await page.keyboard.press('Space');
      await expect.poll(() => zoom.innerText()).toBe('100 %');
      expect(await paused(page)).toBe(false);

      // In a text field Space is typed (the field's Escape then cancels the edit, not the dialog).
      const time = dialog.getByRole('textbox', { name: 'Current time' });
      await time.click();
      await page.keyboard.press('Space');
      expect(await paused(page)).toBe(false);
      await page.keyboard.press('Escape');
      expect(openParam(page)).toBe(opened);
      // The field blurs itself: focus stays in the dialog (not on the page's body), where Space plays and pauses.
      expect(await focused(page)).toMatch(/^dialog counter/);
      await page.keyboard.press('Space');
      await waitForVideo(page, VIDEO, { paused: true }, 5_000);

      // A click on the picture plays and focuses the player; Space there pauses.
      await page.locator(VIDEO).click();
      await waitForVideo(page, VIDEO, { paused: false }, 5_000);
      expect(await focused(page)).toMatch(/^video Video counter/);
      await page.keyboard.press('Space');
      await waitForVideo(page, VIDEO, { paused: true }, 5_000);
      expect(await dialog.isVisible()).toBe(true);

      // The footer's Close, tabbed to, closes on Space: the keyboard's way of pressing it.
      await tabTo(page, dialog.getByRole('button', { name: 'Close', exact: true }).last(), 'Shift+Tab');
      await page.keyboard.press('Space');
      await dialog.waitFor({ state: 'detached' });
      expect(openParam(page)).toBeNull();

      // The same at a phone's width.
      await page.setViewportSize({ width: 375, height: 812 });
      await cards.first().locator('.moment-card__frame').click();
      await page.getByRole('dialog').getByTestId('timeline-canvas').locator('canvas').waitFor({ timeout: 30_000 });
      expect(await focused(page)).toMatch(/^video Video counter/);
      await page.waitForFunction((s) => (document.querySelector<HTMLVideoElement>(s)?.readyState ?? 0) >= 2, VIDEO);
      await page.keyboard.press('Space');
      await waitForVideo(page, VIDEO, { paused: true }, 5_000);
      expect(openParam(page)).toBeTruthy();
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'moment-dialog-focus-375.png') });
    },
  );

  it(
    'Ctrl/Cmd+Z undoes one step of the merge editor wherever focus is, and never edits the search behind',
    { timeout: 240_000 },
    async () => {
      const { page, search, cards } = await searchCounter({ width: 1280, height: 800 });
      for (const card of (await cards.all()).slice(0, 2)) await card.getByRole('checkbox').check();
      await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: MSG_MERGE.merge }).click();
      const dialog = page.getByRole('dialog', { name: MSG_MERGE.dialogTitle });
      await dialog.getByTestId('sequence-timeline').locator('canvas').waitFor({ timeout: 30_000 });
      const items = page.getByTestId('merge-clip');
      await expect.poll(() => items.count()).toBe(2);
      // The clips in order, by their ranges (the label without its position).
      const order = () => items.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')!.replace(/^\d+ of \d+: /, '')));
      const [a, b] = (await order()) as [string, string];
      expect(a).not.toBe(b);
      const undo = dialog.getByRole('button', { name: 'Undo', exact: true });
      const redo = dialog.getByRole('button', { name: 'Redo', exact: true });

      // Two edits: A moves after B, then B is duplicated.
      await items.first().focus();
      await page.keyboard.press('Alt+ArrowRight');
      await expect.poll(order).toEqual([b, a]);
      await dialog
        .getByRole('button', { name: /^Duplicate / })
        .first()
        .click();
      await expect.poll(order).toEqual([b, b, a]);

      // Undo, then Redo, by mouse: Redo disables itself, and focus stays in the dialog (on Undo).
      await undo.click();
      await expect.poll(order).toEqual([b, a]);
      await redo.click();
      await expect.poll(order).toEqual([b, b, a]);
      expect(await redo.isDisabled()).toBe(true);
      // (The browser lets go of a disabled control's focus at its next rendering step, after the click.)
      await expect.poll(() => focused(page)).toBe('button Undo');

      // One Ctrl+Z: one step, the search behind untouched.
      await page.keyboard.press('Control+z');
      await expect.poll(order).toEqual([b, a]);
      expect([await undo.isEnabled(), await redo.isEnabled()]).toEqual([true, true]);
      expect(await search.inputValue()).toBe('counter');

      // From the footer (outside the editor's own area), Cmd+Z: the second step; Undo then disables.
      await dialog.getByRole('button', { name: 'Download MP4' }).focus();
      await page.keyboard.press('Meta+z');
      await expect.poll(order).toEqual([a, b]);
      expect(await undo.isDisabled()).toBe(true);
      // Once more changes nothing: there is nothing left to undo, and the search stays.
      await page.keyboard.press('Control+z');
      expect(await order()).toEqual([a, b]);
      expect(await search.inputValue()).toBe('counter');

      // Redo from the keyboard: Ctrl+Shift+Z, then Ctrl+Y.
      await page.keyboard.press('Control+Shift+z');
      await expect.poll(order).toEqual([b, a]);
      await page.keyboard.press('Control+y');
      await expect.poll(order).toEqual([b, b, a]);

      // Undo by mouse until it disables itself: focus moves to Redo, and Ctrl+Shift+Z redoes one step.
      await undo.click();
      await expect.poll(order).toEqual([b, a]);
      await undo.click();
      await expect.poll(order).toEqual([a, b]);
      expect(await undo.isDisabled()).toBe(true);
      await expect.poll(() => focused(page)).toBe('button Redo');
      await page.keyboard.press('Control+Shift+z');
      await expect.poll(order).toEqual([b, a]);

      // A clip's "Move later" (disabled once its clip is last) leaves focus on the moved clip.
      await dialog
        .getByRole('button', { name: /^Move .* later$/ })
        .first()
        .click();
      await expect.poll(order).toEqual([a, b]);
      await expect.poll(() => focused(page)).toMatch(/^li 2 of 2: /);
      await page.keyboard.press('Control+z');
      await expect.poll(order).toEqual([b, a]);

      // The page behind never saw a key: its search and its results are as they were.
      expect(await search.inputValue()).toBe('counter');
      expect(new URL(page.url()).searchParams.get('text')).toBe('counter');
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'merge-dialog-keys-1280.png') });
      await page.setViewportSize({ width: 375, height: 812 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'merge-dialog-keys-375.png') });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await cards.count()).toBeGreaterThanOrEqual(2);
    },
  );
});
