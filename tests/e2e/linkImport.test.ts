import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, IMPORT_GRID_ROW_HEIGHT, libraryPath, MSG_EXTERNAL, ROUTES, type FolderResponse, type Library } from '../../src/contract';
import { FEED_VIDEOS, startLinkSite, type LinkSite } from '../fixtures/linkSite';
import { apiCall, e2eSuite, SCREENSHOT_DIR } from './harness';

// Link import in Chromium against a video site the test serves on loopback over https: the feed's
// link shows its 3 videos, 2 are chosen and added, both are indexed and found by search, and the
// third, added a second time, then shows 'In library' like the others.

/** Indexing runs one job at a time: the downloads one after the other, on a small machine. */
const INDEXED_MS = 360_000;

const env: Record<string, string> = { SIGNUP_BONUS_CREDITS: '100000' };
let site: LinkSite;
let dir: string;
// Registered before e2eSuite's own hook, so the site's address is in the server's settings.
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-e2e-links-'));
  site = await startLinkSite(dir);
  env.LINK_IMPORT_TEST_LOOPBACK = site.host;
}, 120_000);
afterAll(async () => {
  await site?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const { app, signedIn } = e2eSuite(env);

async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForFunction(() => [...document.images].every((img) => img.complete), null, { timeout: 10_000 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

/** Opens 'Add videos', its Link tab, and pastes `url`. */
async function openLinkTab(page: Page, url: string) {
  await page.getByRole('button', { name: 'Add videos' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add videos' });
  await dialog.getByRole('radio', { name: MSG_EXTERNAL.tabLink }).click();
  const input = dialog.getByLabel('Link to a video, playlist or channel');
  await input.fill(url);
  return dialog;
}

const status = (page: Page) => page.getByRole('dialog', { name: 'Add videos' }).locator('.link-tab__status');

async function waitCompleted(page: Page, libraryId: string, count: number) {
  const deadline = Date.now() + INDEXED_MS;
  for (;;) {
    const folder = await apiCall<FolderResponse>(page, 'GET', API.folder(libraryId));
    const external = folder.files.filter((m) => m.origin.source === 'external');
    const failed = external.find((m) => ['failed', 'errored', 'invalid'].includes(m.status));
    if (failed) throw new Error(`${failed.metadata.name}: ${failed.error?.message}`);
    if (external.length === count && external.every((m) => m.status === 'completed')) return external;
    if (Date.now() > deadline) throw new Error(`still indexing: ${external.map((m) => `${m.metadata.name} ${m.status}`).join(', ')}`);
    await page.waitForTimeout(2000);
  }
}

describe('link import', () => {
  it(
    "adds 2 of a feed's 3 videos, finds both by search, then adds the third and sees all 3 'In library'",
    { timeout: INDEXED_MS + 240_000 },
    async () => {
      const { page } = await signedIn('links', ROUTES.libraries, { width: 1280, height: 900 });
      const mine = (await apiCall<Library[]>(page, 'GET', API.libraries)).find((l) => l.isDefault)!;
      await page.goto(`${app.url}${libraryPath(mine._id)}`);

      const dialog = await openLinkTab(page, site.urls.feed);
      await expect
        .poll(() => status(page).innerText(), { timeout: 30_000 })
        .toMatch(/^Ready for upload • 3 video\(s\) found • 0:12 total duration$/);
      await shot(page, 'link-tab-1280');

      await dialog.getByRole('button', { name: 'Upload' }).click();
      const choose = page.getByRole('dialog', { name: MSG_EXTERNAL.chooseTitle });
      await choose.waitFor();
      const rows = choose.locator('tbody tr');
      await expect.poll(() => rows.count()).toBe(3);
      // offsetHeight: the layout height, unaffected by the dialog's opening scale animation.
      expect(await rows.first().evaluate((r) => (r as HTMLElement).offsetHeight)).toBe(IMPORT_GRID_ROW_HEIGHT);
      // Nothing chosen yet: adding is disabled.
      expect(await choose.getByRole('button', { name: 'Add selected' }).isDisabled()).toBe(true);
      // Sorting by duration then title, ascending first then descending.
      const titles = () => choose.locator('.link-grid__name').allInnerTexts();
      await choose.getByRole('button', { name: 'Title' }).click();
      expect(await titles()).toEqual(FEED_VIDEOS.map((v) => v.title).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      await choose.getByRole('button', { name: 'Title' }).click();
      expect(await titles()).toEqual(FEED_VIDEOS.map((v) => v.title).sort((a, b) => b.toLowerCase().localeCompare(a.toLowerCase())));
      // The duration filter in minutes: at least 1 minute leaves none of the 4 s videos; non-numeric input is ignored.
      await choose.getByLabel('Duration', { exact: true }).fill('1');
      await expect.poll(() => rows.count()).toBe(0);
      await choose.getByLabel('Duration', { exact: true }).fill('abc');
      await expect.poll(() => rows.count()).toBe(3);
      await choose.getByLabel('Duration', { exact: true }).fill('');

      const [dog, horses, giraffe] = FEED_VIDEOS;
      await choose.getByRole('checkbox', { name: `Select ${dog.title}` }).click();
      await choose.getByRole('checkbox', { name: `Select ${horses.title}` }).click();
      await shot(page, 'link-choose-1280');
      await choose.getByRole('button', { name: 'Add selected' }).click();

      const confirm = page.getByRole('dialog', { name: MSG_EXTERNAL.confirmTitle });
      await confirm.waitFor();
      await expect
        .poll(() => confirm.getByTestId('import-credits').innerText())
        .toMatch(/^Approximately 28 credits • [\d,]+ credits left • [\d,]+ credits after$/);
      await confirm.getByRole('button', { name: 'Add 2 videos' }).click();
      await page.locator('.toast').filter({ hasText: '2 video(s) added' }).waitFor();
      await page.getByRole('dialog', { name: 'Add videos' }).waitFor({ state: 'detached' });

      const added = await waitCompleted(page, mine._id, 2);
      expect(added.map((m) => m.metadata.name).sort()).toEqual([dog.title, horses.title].sort());

      // Both are found by what is seen in them.
      for (const [word, title] of [
        ['dog', dog.title],
        ['horse', horses.title],
      ] as const) {
        const media = added.find((m) => m.metadata.name === title)!;
        await page.goto(`${app.url}${ROUTES.search}?libs=${mine._id}&text=${word}&search=visual`);
        await page
          .locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${media._id}"]`)
          .first()
          .waitFor({ timeout: 90_000 })
          .catch(async (e: unknown) => {
            await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'link-search-failure.png') });
            const seen = {
              url: page.url(),
              alert: await page.getByRole('alert').allInnerTexts(),
              main: (await page.locator('main').innerText()).slice(0, 800),
            };
            throw new Error(`${(e as Error).message}\nThe page showed: ${JSON.stringify(seen, null, 1)}`);
          });
      }

      // The same link again: the two added are 'In library' and cannot be chosen; the third is added.
      await page.goto(`${app.url}${libraryPath(mine._id)}`);
      let again = await openLinkTab(page, site.urls.feed);
      await expect.poll(() => status(page).innerText(), { timeout: 30_000 }).toMatch(/^Ready for upload • 3 video\(s\) found/);
      await again.getByRole('button', { name: 'Upload' }).click();
      await choose.waitFor();
      for (const v of [dog, horses]) {
        const row = choose.locator('tbody tr').filter({ hasText: v.title });
        await row.getByText(MSG_EXTERNAL.inLibrary).waitFor();
        expect(await row.getByRole('checkbox').isDisabled()).toBe(true);
      }
      const third = choose.locator('tbody tr').filter({ hasText: giraffe.title });
      expect(await third.getByText(MSG_EXTERNAL.inLibrary).count()).toBe(0);
      await third.getByRole('checkbox').click();
      await choose.getByRole('button', { name: 'Add selected' }).click();
      await confirm.getByRole('button', { name: 'Add 1 video' }).click();
      await page.locator('.toast').filter({ hasText: '1 video(s) added' }).waitFor();
      await page.getByRole('dialog', { name: 'Add videos' }).waitFor({ state: 'detached' });
      await expect
        .poll(
          async () =>
            (await apiCall<FolderResponse>(page, 'GET', API.folder(mine._id))).files.filter((m) => m.origin.source === 'external').length,
        )
        .toBe(3);

      // A third look: all 3 'In library', nothing can be chosen.
      await page.reload();
      again = await openLinkTab(page, site.urls.feed);
      await expect.poll(() => status(page).innerText(), { timeout: 30_000 }).toMatch(/^Ready for upload/);
      await again.getByRole('button', { name: 'Upload' }).click();
      await choose.waitFor();
      await expect.poll(() => choose.getByText(MSG_EXTERNAL.inLibrary, { exact: true }).count()).toBe(3);
      expect(await choose.getByRole('button', { name: 'Add selected' }).isDisabled()).toBe(true);
    },
  );

  it('shows the link tab and the choice at 375 px; refuses an http link; remembers an added URL', { timeout: 120_000 }, async () => {
    const { page } = await signedIn('links-narrow', ROUTES.libraries, { width: 375, height: 812 });
    const mine = (await apiCall<Library[]>(page, 'GET', API.libraries)).find((l) => l.isDefault)!;
    await page.goto(`${app.url}${libraryPath(mine._id)}`);

    const dialog = await openLinkTab(page, `http://127.0.0.1:${site.trap.port}/video.mp4`);
    await expect.poll(() => status(page).innerText()).toBe(MSG_EXTERNAL.httpsRequired);
    expect(await dialog.getByRole('button', { name: 'Upload' }).isDisabled()).toBe(true);

    const input = dialog.getByLabel('Link to a video, playlist or channel');
    const isPeek = (u: string) => new URL(u).pathname === API.externalPeek;
    const peeks: string[] = [];
    const cancelled: string[] = [];
    page.on('request', (r) => isPeek(r.url()) && peeks.push(r.postDataBuffer()?.toString('latin1') ?? ''));
    page.on('requestfailed', (r) => isPeek(r.url()) && cancelled.push(r.postDataBuffer()?.toString('latin1') ?? ''));

    // Quick changes: each waits 800 ms, so only the last URL is checked.
    await input.fill(site.urls.mp4);
    await input.fill(site.urls.page);
    await input.fill(site.urls.feed);
    await expect.poll(() => status(page).innerText(), { timeout: 30_000 }).toMatch(/^Ready for upload • 3 video\(s\) found/);
    expect(peeks).toHaveLength(1);
    expect(peeks[0]).toContain('/feed.rss');

    // A change while a check runs cancels it: its answer is dropped and no error is shown.
    const inFlight = page.waitForRequest((r) => isPeek(r.url()));
    await input.fill(site.urls.hls);
    await inFlight;
    await input.fill(site.urls.feed);
    await expect.poll(() => cancelled.length).toBe(1);
    expect(cancelled[0]).toContain('/hls/index.m3u8');
    await expect.poll(() => status(page).innerText(), { timeout: 30_000 }).toMatch(/^Ready for upload • 3 video\(s\) found/);
    expect(await page.getByText(MSG_EXTERNAL.requestCancelled).count()).toBe(0);
    await shot(page, 'link-tab-375');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    const choose = page.getByRole('dialog', { name: MSG_EXTERNAL.chooseTitle });
    await choose.waitFor();
    await shot(page, 'link-choose-375');
    await choose.getByRole('button', { name: 'Cancel' }).click();

    // A single video into a new library (its length read from the file): its name is generated
    // after 1 to 3 s, the input disabled meanwhile.
    await input.fill(site.urls.mp4);
    await expect.poll(() => status(page).innerText(), { timeout: 30_000 }).toBe(MSG_EXTERNAL.readyWithVideos(1, '0:03', false));
    await dialog.getByRole('button', { name: 'Upload' }).click();
    const confirm = page.getByRole('dialog', { name: MSG_EXTERNAL.confirmTitle });
    await confirm.getByRole('checkbox', { name: 'Add to a new library' }).click();
    const name = confirm.getByLabel('New library name');
    const asked = Date.now();
    expect(await name.isDisabled()).toBe(true);
    expect(await confirm.getByRole('button', { name: 'Add 1 video' }).isDisabled()).toBe(true);
    await expect.poll(() => name.isEnabled(), { timeout: 4000, interval: 50 }).toBe(true);
    expect(Date.now() - asked).toBeGreaterThanOrEqual(900);
    expect(await name.inputValue()).toBe('video');
    await name.fill('Imported single');
    await confirm.getByRole('button', { name: 'Add 1 video' }).click();
    await page.locator('.toast').filter({ hasText: '1 video(s) added' }).waitFor();
    await page.getByRole('heading', { name: 'Imported single' }).waitFor();
    const libs = await apiCall<Library[]>(page, 'GET', API.libraries);
    expect(libs.find((l) => l.name === 'Imported single')!._id).not.toBe(mine._id);
    expect(page.url()).toContain(libraryPath(libs.find((l) => l.name === 'Imported single')!._id));

    // A URL added is remembered: pasting it again within 10 minutes is refused at once.
    const again = await openLinkTab(page, site.urls.mp4);
    await expect.poll(() => status(page).innerText()).toBe(MSG_EXTERNAL.alreadyAdded);
    expect(await again.getByRole('button', { name: 'Upload' }).isDisabled()).toBe(true);
    expect(site.trap.connections).toBe(0);
  });
});
