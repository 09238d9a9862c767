import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/contract';
import { uploadIndexed } from '../fixtures/counterVideo';
import { FOX_PHRASE, makeSpeechVideo } from '../fixtures/makeMedia';
import { createVerifiedUser, e2eSuite, SCREENSHOT_DIR, signIn, uniqueEmail, type Viewport } from './harness';

/**
 * Transcript search by meaning (issue 40) in the app: a video saying the fox phrase is found by
 * words it does not say ('a canine', of which a dog is a kind), and the moment dialog's transcript
 * marks what was said that matched ('dog'), as it marks the query's own words.
 */

const { app, openBrowser } = e2eSuite();

/** One account with the fox video indexed, made by the first test that needs it. */
let account: Promise<{ email: string; password: string; libraryId: string; mediaId: string }> | null = null;
function foxAccount() {
  account ??= (async () => {
    const email = uniqueEmail('meaning');
    const password = 'meaning password';
    await createVerifiedUser(app, email, password);
    const { library, media } = await uploadIndexed(app.url, email, password, 'fox.mp4', (file) => makeSpeechVideo(file, [FOX_PHRASE]));
    expect(media.status).toBe('completed');
    return { email, password, libraryId: library._id, mediaId: media._id };
  })();
  return account;
}

describe('conversational search by meaning', () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 812 },
  ] satisfies Viewport[])
    it(`finds what was said in other words and marks the words said (${viewport.width} px)`, { timeout: 300_000 }, async () => {
      const { email, password, libraryId, mediaId } = await foxAccount();
      const touch = viewport.width < 500;
      const { page } = await openBrowser(viewport, { touch });
      const q = new URLSearchParams({ libs: libraryId, search: 'transcript', text: 'a canine' });
      await signIn(page, app.url, email, password, `${ROUTES.search}?${q}`);
      await page.waitForURL((u) => u.pathname === ROUTES.search);
      const card = page.locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${mediaId}"]`).first();
      await card.waitFor({ timeout: 30_000 });
      await shot(page, `search-meaning-${viewport.width}`);
      const frame = card.locator('.moment-card__frame');
      await (touch ? frame.tap() : frame.click());
      const marks = page.getByRole('dialog').locator('.moment-lines__item--in mark.moment-lines__match');
      await expect.poll(() => marks.allInnerTexts(), { timeout: 20_000 }).toContain('dog');
      await shot(page, `search-meaning-dialog-${viewport.width}`);
    });
});

async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForFunction(() => [...document.images].every((img) => img.complete || img.loading === 'lazy'), null, { timeout: 20_000 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}
