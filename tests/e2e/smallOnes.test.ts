import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { API, MSG, MSG_DOWNLOAD, MSG_MERGE, ROUTES, WELCOME_LIBRARY_NAME } from '../../src/contract';
import { makeCounterVideo, uploadCounterVideo } from '../fixtures/counterVideo';
import { createVerifiedUser, e2eSuite, SCREENSHOT_DIR, signIn, uniqueEmail, waitForPath, WITH_DEMO } from './harness';

/**
 * Issue 37, item 15: the small things a new user trips over, each checked as that user meets it.
 * (Home and End in the moment dialog are in momentDialog.test.ts; the top-up's confirmation, the
 * upgrade's word on proration and the invoice page's icon in billing.test.ts.)
 */

/** A full-window screenshot once the pictures in view have loaded. */
async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForFunction(() => [...document.images].every((img) => img.complete || img.loading === 'lazy'), null, { timeout: 10_000 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

const post = (appUrl: string, p: string, body: object) =>
  fetch(`${appUrl}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });

describe('issue 37, item 15: the small ones', () => {
  const { app, openBrowser, signedIn } = e2eSuite();

  it(
    "a card's title opens its moment (tapped, on a phone); a compilation's download says it is a compilation",
    { timeout: 180_000 },
    async () => {
      const email = uniqueEmail('cardtitle');
      const password = 'card title password';
      await createVerifiedUser(app, email, password);
      // Cut at 6 s: two moments of one video, to merge.
      const { library, media } = await uploadCounterVideo(app.url, email, password, { cutAt: 6 });
      expect(media.status).toBe('completed');
      const { page } = await openBrowser({ width: 375, height: 812 }, { touch: true });
      await signIn(page, app.url, email, password, `${ROUTES.search}?libs=${library._id}`);
      await waitForPath(page, ROUTES.search);
      await page.getByPlaceholder(/Ask me anything/).fill('counter');
      const cards = page.locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${media._id}"]`);
      await expect.poll(() => cards.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);

      // The title, tapped, opens the moment as the picture does.
      const title = cards.first().locator('.moment-card__name');
      await title.scrollIntoViewIfNeeded();
      await title.tap();
      const dialog = page.getByRole('dialog');
      await dialog.getByTestId('timeline-canvas').locator('canvas').waitFor({ timeout: 20_000 });
      expect(new URL(page.url()).searchParams.get('open')).toBeTruthy();
      await dialog.getByRole('button', { name: 'Close' }).last().tap();
      await dialog.waitFor({ state: 'detached' });

      // Two moments merged and downloaded: the progress toast names a compilation, not a moment.
      for (const card of (await cards.all()).slice(0, 2)) await card.getByRole('checkbox').check();
      await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: MSG_MERGE.merge }).tap();
      const merge = page.getByRole('dialog', { name: MSG_MERGE.dialogTitle });
      await merge.getByTestId('sequence-timeline').locator('canvas').waitFor({ timeout: 30_000 });
      const saved = page.waitForEvent('download', { timeout: 120_000 });
      await merge.getByRole('button', { name: 'Download MP4' }).tap();
      const toast = page.locator('.toast').filter({ hasText: MSG_DOWNLOAD.compilationTitle });
      await toast.waitFor({ timeout: 10_000 });
      expect(
        await page
          .locator('.toast')
          .filter({ hasText: /Downloading moment/ })
          .count(),
      ).toBe(0);
      await shot(page, 'compilation-toast-375');
      await page.setViewportSize({ width: 1280, height: 800 });
      await shot(page, 'compilation-toast-1280');
      expect(await (await saved).failure()).toBeNull();
    },
  );

  it('the Terms page is headed for the web app and the extension, not the extension alone', async () => {
    const { page } = await openBrowser({ width: 1280, height: 800 });
    await page.goto(`${app.url}${ROUTES.terms}`);
    await page.getByRole('heading', { name: 'Terms of Service', level: 1 }).waitFor();
    const eyebrow = page.locator('.legal__eyebrow');
    expect(await eyebrow.innerText()).toBe('CLIPSEEK WEB APP AND BROWSER EXTENSION');
    await shot(page, 'terms-1280');
    await page.setViewportSize({ width: 375, height: 812 });
    await shot(page, 'terms-375');
  });

  it('a used reset link says so when it is opened; opening a fresh one leaves it working', async () => {
    const email = uniqueEmail('usedlink');
    await createVerifiedUser(app, email, 'used link password');
    expect((await post(app.url, API.resetRequest, { email })).status).toBe(200);
    const link = await app.mailbox.waitForLink(email, ROUTES.resetPassword);
    const { page } = await openBrowser({ width: 1280, height: 800 });

    // Opened (twice), the fresh link shows the form and still works.
    await page.goto(link);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('a newer password');
    await page.getByLabel('Confirm new password').fill('a newer password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('button', { name: MSG.goToHomepage }).waitFor();

    // Used, it says so at once, with the way to a new one, and no form to fill in for nothing.
    await page.goto(link);
    await page.getByRole('heading', { name: "This link can't be used" }).waitFor();
    await page.getByText(MSG.codeInvalid).waitFor();
    expect(await page.getByRole('button', { name: 'Set new password' }).count()).toBe(0);
    expect(await page.getByLabel('New password', { exact: true }).count()).toBe(0);
    await shot(page, 'reset-link-used-1280');
    await page.setViewportSize({ width: 375, height: 812 });
    await shot(page, 'reset-link-used-375');
    await page.getByRole('link', { name: 'Request a new link' }).click();
    await page.getByRole('button', { name: 'Send reset link' }).waitFor();
  });

  it('sign-in honours ?next= on the way through registering and verifying the email', { timeout: 60_000 }, async () => {
    const { page } = await openBrowser({ width: 1280, height: 800 });
    const email = uniqueEmail('nextpath');
    const password = 'next path password';
    await page.goto(`${app.url}${ROUTES.settings}/password`);
    await waitForPath(page, ROUTES.login);
    expect(new URL(page.url()).searchParams.get('next')).toBe('/settings/password');

    // No account yet: register from the sign-in page, then verify the email.
    await page.getByRole('link', { name: MSG.noAccountLink }).click();
    await waitForPath(page, ROUTES.register);
    // The URL changes as the register screen loads; until it shows, 'Email' is still sign-in's field.
    await page.getByRole('heading', { name: MSG.registerHeading }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('checkbox').click();
    await page.getByRole('button', { name: MSG.registerSubmit }).click();
    await waitForPath(page, ROUTES.verifyEmail);
    const link = await app.mailbox.waitForLink(email, ROUTES.confirmEmail);
    expect((await post(app.url, API.verifyEmail, { token: new URL(link).searchParams.get('code') })).status).toBe(200);

    // The verify screen notices (it asks every 5 s) and goes on where the visitor was going, not to /.
    await page.waitForURL((u) => u.pathname === '/settings/password', { timeout: 20_000 });
    await page.getByRole('heading', { name: 'Change password' }).waitFor();

    // An unsafe next is never followed (no open redirect), whichever way in.
    for (const next of ['//evil.example', 'https://evil.example/x']) {
      await page.goto(`${app.url}${ROUTES.register}?next=${encodeURIComponent(next)}`);
      await page.waitForURL((u) => u.pathname === ROUTES.workspace || u.pathname === ROUTES.libraries);
      expect(new URL(page.url()).host).toBe(new URL(app.url).host);
    }
  });

  it('asks for no poster that does not exist yet while a video is indexed (no thumbnail 404s)', { timeout: 180_000 }, async () => {
    const { page, browser } = await signedIn('posters', ROUTES.workspace, { width: 1280, height: 800 });
    const missing: string[] = [];
    const posters: string[] = [];
    browser.context.on('response', (r) => {
      if (!r.url().includes('/thumbnail.webp')) return;
      const url = r.url().split('?')[0]!;
      posters.push(`${r.status()} ${url}`);
      if (r.status() === 404) missing.push(url);
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-posters-'));
    try {
      const video = path.join(dir, 'poster-counter.mp4');
      makeCounterVideo(video);
      await page.locator('input[type=file]').first().setInputFiles(video);
      await waitForPath(page, /^\/library\//);
      // (its row in the list, the library page's first view)
      const card = page.locator('tr, li.media-card').filter({ hasText: 'poster-counter' });
      await card.waitFor({ timeout: 30_000 });
      // While it is indexed, the libraries page too (its card's cover).
      await card.locator('[data-status="processing"], [data-status="queued"]').first().waitFor({ timeout: 30_000 });
      const libraryUrl = page.url();
      await page.getByRole('link', { name: 'Libraries', exact: true }).first().click();
      await waitForPath(page, ROUTES.libraries);
      await page.locator('.library-card').first().waitFor();
      await page.goto(libraryUrl);
      await card.locator('[data-status="completed"]').waitFor({ timeout: 120_000 });
      // Once made, the poster shows (so the check above is not met by never asking).
      await card.locator('img.thumb__img').waitFor({ timeout: 20_000 });
      await expect
        .poll(() => card.locator('img.thumb__img').evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 10_000 })
        .toBeGreaterThan(0);
      await page.goto(`${app.url}${ROUTES.libraries}`);
      await expect.poll(() => page.locator('.library-card__thumb img').count(), { timeout: 10_000 }).toBeGreaterThan(0);
      expect(missing, `posters asked for: ${posters.join(', ')}`).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('issue 37, item 15: the demo card right after sign-up', () => {
  const { signedIn } = e2eSuite(WITH_DEMO);

  it("says its samples are being made ready, never '0 videos ready', and follows them until they are", { timeout: 180_000 }, async () => {
    const { page } = await signedIn('democard', ROUTES.workspace, { width: 1280, height: 800 });
    const meta = page.locator('.welcome-card .welcome-card__meta');
    const seen = new Set<string>();
    const read = async () => {
      const text = (await meta.innerText().catch(() => '')).trim();
      if (text) seen.add(text);
      return text;
    };
    await page.locator('.welcome-card').getByText(WELCOME_LIBRARY_NAME, { exact: true }).waitFor();
    await expect
      .poll(read, { timeout: 10_000 })
      .toMatch(/^(Getting 2 videos ready to search…|1 of 2 videos ready to search, the rest on the way…)$/);
    await page.setViewportSize({ width: 375, height: 812 });
    await meta.scrollIntoViewIfNeeded();
    await shot(page, 'workspace-demo-indexing-375');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, 'workspace-demo-indexing-1280');
    // Without a reload, the card follows the samples until both are ready.
    await expect.poll(read, { timeout: 150_000, interval: 500 }).toBe('2 videos ready to search');
    await shot(page, 'workspace-demo-ready-1280');
    expect(
      [...seen].filter((t) => /^0 videos/.test(t)),
      `the card said: ${[...seen].join(' | ')}`,
    ).toEqual([]);
  });
});
