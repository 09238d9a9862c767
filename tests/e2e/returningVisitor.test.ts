import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MSG_MERGE, ROUTES } from '../../src/contract';
import { uploadCounterVideo } from '../fixtures/counterVideo';
import { createVerifiedUser, e2eSuite, SCREENSHOT_DIR, signIn, uniqueEmail } from './harness';

/**
 * A returning visitor (issue 37, item 1): a browser that keeps its HTTP cache loads the app, builds
 * the merge editor's local preview (ffmpeg.wasm in workers whose scripts come from the app's assets),
 * reloads, so that the cached app is revalidated (If-None-Match answered 304) or, for its hashed
 * (immutable) assets, taken from the cache, and builds the preview again. A 304 that carried the API's policy (default-src 'none') replaced the cached worker script's
 * policy, and the worker could no longer load ffmpeg-core: "The preview could not be built."
 */
const { app, openBrowser } = e2eSuite();

/** What the server answered (its own record: a browser shows a revalidated file as the 200 it cached). */
interface Served {
  path: string;
  status: number;
  csp: string;
}

const APP_POLICY = "script-src 'self' 'wasm-unsafe-eval'";
const WORKER_SCRIPT = /^\/assets\/compile\.worker-[^/]*\.js$/;

/** Selects the first two moments of the counter video, merges them and builds the local preview. */
async function buildPreview(page: Page, mediaId: string) {
  const cards = page.locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${mediaId}"]`);
  await expect.poll(() => cards.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  for (const card of (await cards.all()).slice(0, 2)) await card.getByRole('checkbox').check();
  await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: MSG_MERGE.merge }).click();
  const dialog = page.getByRole('dialog', { name: MSG_MERGE.dialogTitle });
  await dialog.getByTestId('sequence-timeline').locator('canvas').waitFor({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Build preview' }).click();
  // The preview, or the toast that says it could not be built (no need to wait out a timeout for that).
  const failed = page.getByText(MSG_MERGE.previewFailed);
  await dialog.getByTestId('local-preview').or(failed).first().waitFor({ timeout: 120_000 });
  expect(await failed.count(), MSG_MERGE.previewFailed).toBe(0);
  // Chromium decodes it: its first frame shows.
  await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('[data-testid=local-preview]')?.readyState ?? 0) >= 2);
  return dialog;
}

describe('a returning visitor', () => {
  it('builds the merge preview, reloads (304s from the warm cache) and builds it again', { timeout: 600_000 }, async () => {
    const email = uniqueEmail('returning');
    const password = 'returning password';
    await createVerifiedUser(app, email, password);
    const { library, media } = await uploadCounterVideo(app.url, email, password, { cutAt: 6 });
    expect(media.status).toBe('completed');

    const served: Served[] = [];
    const record = (req: IncomingMessage, res: ServerResponse) =>
      res.on('finish', () =>
        served.push({ path: req.url ?? '', status: res.statusCode, csp: String(res.getHeader('content-security-policy') ?? '') }),
      );
    const http = app.server.app.server;
    http.on('request', record);
    onTestFinished(() => void http.off('request', record));

    const { page, context } = await openBrowser({ width: 1280, height: 800 }, { httpCache: true });
    // The documents and scripts the browser used, with the headers it holds for them (a revalidated
    // file's cached headers are updated from the 304).
    const used: { url: string; csp: string }[] = [];
    context.on('response', (r) => {
      const code = ['document', 'script'].includes(r.request().resourceType()) || new URL(r.url()).pathname.endsWith('.js');
      if (code && new URL(r.url()).origin === app.url) used.push({ url: r.url(), csp: r.headers()['content-security-policy'] ?? '' });
    });
    await signIn(page, app.url, email, password, `${ROUTES.search}?libs=${library._id}`);
    await page.waitForURL((u) => u.pathname === ROUTES.search);
    await page.getByPlaceholder(/Ask me anything/).fill('counter');
    // (Two preview workers: the second one's script is already a revalidation of the first one's.)
    const first = await buildPreview(page, media._id);
    await page.keyboard.press('Escape');
    await first.waitFor({ state: 'detached' });
    expect(served.filter((a) => WORKER_SCRIPT.test(a.path)).map((a) => a.status)).toContain(200);

    // The visitor comes back: the page reloads from the warm cache, which the browser revalidates.
    served.length = 0;
    used.length = 0;
    await page.reload();
    await page.waitForURL((u) => u.pathname === ROUTES.search && u.searchParams.get('text') === 'counter');
    const again = await buildPreview(page, media._id);
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'merge-preview-returning-1280.png') });

    // 304s really happened (for files that are not hashed), the
    // hashed assets (the preview worker's script among them) came from the cache without a request
    // (they are immutable), and each of the app's scripts and documents carried the app's policy, 200 or 304.
    const revalidated = served.filter((a) => a.status === 304);
    console.log(
      `after the reload the server answered ${served.length} requests, ${revalidated.length} with 304:`,
      revalidated.map((a) => a.path.replace(/-[\w-]{8}\./, '.')).join(' '),
    );
    // (Which files the browser revalidates varies: the favicon, the service worker's script when it
    // checks for an update. The integration test checks each one's 304 carries its 200's policy.)
    expect(revalidated.length).toBeGreaterThan(0);
    expect(served.filter((a) => a.path.startsWith('/assets/')).map((a) => a.path)).toEqual([]);
    expect(used.some((u) => WORKER_SCRIPT.test(new URL(u.url).pathname))).toBe(true);
    const code = served.filter((a) => /\.(js|html)$/.test(a.path.split('?')[0]!) && (a.status === 200 || a.status === 304));
    for (const a of code) expect(a.csp, `${a.status} ${a.path}`).toContain(APP_POLICY);
    for (const u of used) expect(u.csp, u.url).toContain(APP_POLICY);

    await page.setViewportSize({ width: 375, height: 812 });
    await again.getByTestId('local-preview').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'merge-preview-returning-375.png') });
  });
});
