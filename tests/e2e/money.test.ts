// Money as a careful spender meets it (issue 37, items 6 and 7): every figure shown before a choice
// is what the ledger then takes, and nothing is paid that was not chosen that time.
// - Link import: an http:// link is told it needs https; a 20 s video linked directly (a file whose
//   listing gives no length) is estimated at what its indexing then charges (56 credits, not the
//   5 s minimum's 14).
// One account, one indexed video (the link's), one browser per test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  libraryPath,
  MSG_EXTERNAL,
  ROUTES,
  type FolderResponse,
  type Library,
  type Media,
  type UsageHistoryEntry,
} from '../../src/contract';
import { makeCounterVideo } from '../fixtures/counterVideo';
import { startLinkSite, type LinkSite } from '../fixtures/linkSite';
import { apiCall, e2eSuite, SCREENSHOT_DIR } from './harness';

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

const { app, signedIn } = e2eSuite(env);

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
});
