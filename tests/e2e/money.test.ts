// Money as a careful spender meets it (issue 37, items 6 and 7): every figure shown before a choice
// is what the ledger then takes, and nothing is paid that was not chosen that time.
// - Link import: an http:// link is told it needs https; a 20 s video linked directly (a file whose
//   listing gives no length) is estimated at what its indexing then charges (56 credits, not the
//   5 s minimum's 14).
// - Downloads: 'Remove watermark' is off whenever a download menu or the merge editor opens, its
//   price is on the option and, once chosen, on the format or button that takes it; the charge is
//   that price; the next download, not chosen again, is free.
// One account, one indexed video (the link's), one browser per test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  libraryPath,
  MSG_DOWNLOAD,
  MSG_EXTERNAL,
  MSG_MERGE,
  ROUTES,
  type FolderResponse,
  type Library,
  type Media,
  type UsageHistoryEntry,
} from '../../src/contract';
import { makeCounterVideo } from '../fixtures/counterVideo';
import { startLinkSite, type LinkSite } from '../fixtures/linkSite';
import { apiCall, e2eSuite, SCREENSHOT_DIR, signIn } from './harness';

/** The linked video: 20 s (the issue's), a counter video with a shot cut at 10 s, so a search finds two moments. */
const SECONDS = 20;
/** Download, then indexing, one job at a time on a small machine. */
const INDEXED_MS = 240_000;

const env: Record<string, string> = {};
let site: LinkSite;
let dir: string;
let longUrl: string;
// Registered before e2eSuite's own hook, so the site's address is in the server's settings.
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-e2e-money-'));
  const file = path.join(dir, 'twenty.mp4');
  makeCounterVideo(file, { seconds: SECONDS, cutAt: SECONDS / 2 });
  site = await startLinkSite(dir, { '/twenty-seconds.mp4': file });
  longUrl = `${site.origin}/twenty-seconds.mp4`;
  env.LINK_IMPORT_TEST_LOOPBACK = site.host;
}, 120_000);
afterAll(async () => {
  await site?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const { app, signedIn, openBrowser } = e2eSuite(env);

/** The account both tests use, and what the first one imported. */
const account = { email: '', password: '' };
let library: Library;
let imported: Media;

async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForFunction(() => [...document.images].every((img) => img.complete), null, { timeout: 10_000 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

/** The same screen at 375×812 too (scrolled to `show`), then back at 1280×800. */
async function shots(page: Page, name: string, show?: Locator) {
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 812 });
  await show?.scrollIntoViewIfNeeded();
  await shot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

const balance = async (page: Page) => (await apiCall<{ creditsLeft: number }>(page, 'GET', API.billingInfo)).creditsLeft;
/** The ledger's charges, newest first. */
const charges = async (page: Page) =>
  (await apiCall<UsageHistoryEntry[]>(page, 'GET', API.usageHistory)).filter((e) => e.kind === 'charge');
/** A figure as the app writes it ('1,234') as a number. */
const figure = (text: string | undefined) => Number((text ?? 'NaN').replace(/,/g, ''));

describe('money', () => {
  it(
    'an http link is told https is needed; a 20 s linked video is estimated at exactly what its indexing charges',
    { timeout: INDEXED_MS + 120_000 },
    async () => {
      const { page, email, password } = await signedIn('money', ROUTES.libraries, { width: 1280, height: 800 });
      Object.assign(account, { email, password });
      library = (await apiCall<Library[]>(page, 'GET', API.libraries)).find((l) => l.isDefault)!;
      await page.goto(`${app.url}${libraryPath(library._id)}`);

      await page.getByRole('button', { name: 'Add videos' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add videos' });
      await dialog.getByRole('radio', { name: MSG_EXTERNAL.tabLink }).click();
      const input = dialog.getByLabel('Link to a video, playlist or channel');
      const status = dialog.locator('.link-tab__status');

      // http: said to need https (not only 'not valid'), and nothing is asked of it.
      await input.fill(`http://127.0.0.1:${site.trap.port}/twenty-seconds.mp4`);
      await expect.poll(() => status.innerText()).toBe(MSG_EXTERNAL.httpsRequired);
      expect(MSG_EXTERNAL.httpsRequired).toMatch(/https:\/\//);
      expect(await dialog.getByRole('button', { name: 'Upload' }).isDisabled()).toBe(true);
      await shots(page, 'money-link-http');

      // The direct link: its length is read from the file, and the estimate is the indexing charge.
      await input.fill(longUrl);
      await expect.poll(() => status.innerText(), { timeout: 30_000 }).toBe(MSG_EXTERNAL.readyWithVideos(1, `0:${SECONDS}`, false));
      await dialog.getByRole('button', { name: 'Upload' }).click();
      const confirm = page.getByRole('dialog', { name: MSG_EXTERNAL.confirmTitle });
      const before = await balance(page);
      const summary = confirm.getByTestId('import-credits');
      await expect.poll(() => summary.innerText()).toMatch(/^Approximately [\d,]+ credits • [\d,]+ credits left • [\d,]+ credits after$/);
      const [, shownCost, shownLeft, shownAfter] = /^Approximately ([\d,]+) credits • ([\d,]+) credits left • ([\d,]+) credits after$/
        .exec(await summary.innerText())!
        .map(figure);
      expect(shownLeft).toBe(before);
      expect(shownAfter).toBe(before - shownCost!);
      await shots(page, 'money-link-estimate');
      await confirm.getByRole('button', { name: 'Add 1 video' }).click();
      await page.locator('.toast').filter({ hasText: '1 video(s) added' }).waitFor();

      const deadline = Date.now() + INDEXED_MS;
      for (;;) {
        const { files } = await apiCall<FolderResponse>(page, 'GET', API.folder(library._id));
        const m = files.find((f) => f.origin.source === 'external');
        if (m && ['failed', 'errored', 'invalid'].includes(m.status)) throw new Error(`${m.metadata.name}: ${m.error?.message}`);
        if (m?.status === 'completed') {
          imported = m;
          break;
        }
        if (Date.now() > deadline) throw new Error(`still indexing: ${m?.status}`);
        await page.waitForTimeout(2000);
      }
      expect(imported.metadata.video.duration).toBeCloseTo(SECONDS, 1);

      // The ledger took exactly the figure shown, once.
      const indexing = (await charges(page)).filter((c) => c.reason.startsWith('Indexing'));
      expect(indexing.map((c) => Math.abs(c.amount))).toEqual([shownCost]);
      expect(await balance(page)).toBe(before - shownCost!);
    },
  );

  it(
    "leaves 'Remove watermark' off whenever a download menu or the merge editor opens, and charges the price shown when chosen",
    { timeout: 300_000 },
    async () => {
      expect(imported, 'the first test imported the video').toBeTruthy();
      const { page } = await openBrowser({ width: 1280, height: 800 });
      await signIn(page, app.url, account.email, account.password, `${ROUTES.search}?libs=${library._id}&text=counter`);
      const cards = page.locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${imported._id}"]`);
      await expect.poll(() => cards.count(), { timeout: 90_000 }).toBeGreaterThanOrEqual(2);
      const [first, second] = [cards.nth(0), cards.nth(1)];

      const menu = page.getByRole('menu', { name: 'Download moment' });
      const watermarkBox = (scope: Locator) => scope.getByRole('menuitemcheckbox', { name: /Remove watermark/ });
      const openMenu = async (card: Locator) => {
        await card.hover();
        await card.getByRole('button', { name: /^Download moment / }).click();
        await menu.waitFor();
      };
      const takeOut = async (item: Locator) => {
        const saved = page.waitForEvent('download', { timeout: 120_000 });
        await item.click();
        expect(await (await saved).failure()).toBeNull();
      };

      // The first moment: off when the menu opens, its price on it; chosen, MP4 says what it costs.
      await openMenu(first);
      expect(await watermarkBox(menu).getAttribute('aria-checked')).toBe('false');
      const perFile = figure(/([\d,]+) credits per file/.exec(await watermarkBox(menu).innerText())?.[1]);
      expect(perFile).toBeGreaterThan(0);
      expect(await menu.getByRole('menuitem', { name: 'MP4', exact: true }).count()).toBe(1);
      await watermarkBox(menu).click();
      expect(await watermarkBox(menu).getAttribute('aria-checked')).toBe('true');
      const mp4 = menu.getByRole('menuitem', { name: /^MP4 [\d,]+ credits$/ });
      const mp4Price = figure(/^MP4 ([\d,]+) credits$/.exec((await mp4.innerText()).replace(/\s+/g, ' ').trim())?.[1]);
      expect(mp4Price).toBe(perFile);
      expect(await menu.getByRole('menuitem', { name: /^MP4 and GIF [\d,]+ credits$/ }).innerText()).toContain(
        (2 * perFile).toLocaleString('en-US'),
      );
      await shots(page, 'money-download-menu-chosen');
      const before = await balance(page);
      await takeOut(mp4);
      expect(await balance(page)).toBe(before - mp4Price);
      expect((await charges(page))[0]).toMatchObject({ amount: expect.any(Number), reason: 'Download without watermark (mp4)' });
      expect(Math.abs((await charges(page))[0]!.amount)).toBe(mp4Price);

      // The next moment: the choice is not carried over; its MP4 is free.
      await openMenu(second);
      expect(await watermarkBox(menu).getAttribute('aria-checked')).toBe('false');
      await shots(page, 'money-download-menu-next');
      const afterFirst = await balance(page);
      await takeOut(menu.getByRole('menuitem', { name: 'MP4', exact: true }));
      expect(await balance(page)).toBe(afterFirst);
      // Nor back on the first.
      await openMenu(first);
      expect(await watermarkBox(menu).getAttribute('aria-checked')).toBe('false');
      await page.keyboard.press('Escape');

      // Both selected: the selection's download menu starts off too, and prices each format when chosen.
      for (const card of [first, second]) await card.getByRole('checkbox').check();
      const bar = page.getByRole('toolbar', { name: 'Selection' });
      await bar.getByText('2 selected').waitFor();
      await bar.getByRole('button', { name: 'Download' }).click();
      const selectionMenu = page.getByRole('menu', { name: 'Download', exact: true });
      expect(await watermarkBox(selectionMenu).getAttribute('aria-checked')).toBe('false');
      await watermarkBox(selectionMenu).click();
      await selectionMenu.getByRole('menuitem', { name: /^MP4 [\d,]+ credits$/ }).waitFor();
      await page.keyboard.press('Escape');
      await bar.getByRole('button', { name: 'Download' }).click();
      expect(await watermarkBox(selectionMenu).getAttribute('aria-checked')).toBe('false');
      await page.keyboard.press('Escape');

      // The merge editor: off when it opens; its price beside it and, chosen, on the Download button.
      await bar.getByRole('button', { name: MSG_MERGE.merge }).click();
      const merge = page.getByRole('dialog', { name: MSG_MERGE.dialogTitle });
      const mergeBox = merge.getByRole('checkbox', { name: MSG_DOWNLOAD.removeWatermark });
      await mergeBox.waitFor();
      expect(await mergeBox.getAttribute('aria-checked')).toBe('false');
      // (0 until the editor has its clips)
      const priced = async () =>
        figure(/^([\d,]+) credits · [\d,]+ left$/.exec(await merge.locator('.merge-footer__cost').innerText())?.[1]);
      await expect.poll(priced, { timeout: 30_000 }).toBeGreaterThan(0);
      const mergePrice = await priced();
      const download = merge.getByRole('button', { name: /^Download MP4/ });
      expect((await download.innerText()).trim()).toBe('Download MP4');
      await mergeBox.click();
      await expect
        .poll(async () => (await download.innerText()).replace(/\s+/g, ' ').trim())
        .toBe(`Download MP4 ${MSG_DOWNLOAD.credits(mergePrice)}`);
      await shots(page, 'money-merge-chosen', download);
      const beforeMerge = await balance(page);
      await takeOut(download);
      expect(await balance(page)).toBe(beforeMerge - mergePrice);
      expect(Math.abs((await charges(page))[0]!.amount)).toBe(mergePrice);
      await merge.getByRole('button', { name: 'Close' }).first().click();
      await merge.waitFor({ state: 'detached' });

      // Opened again: off again.
      await bar.getByRole('button', { name: MSG_MERGE.merge }).click();
      await mergeBox.waitFor();
      expect(await mergeBox.getAttribute('aria-checked')).toBe('false');
      await shots(page, 'money-merge-reopened', mergeBox);
    },
  );
});
