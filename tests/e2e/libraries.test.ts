import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  MEDIA_STATUS_LABEL,
  MSG,
  MSG_LIB,
  MSG_MEDIA,
  ROUTES,
  UNSUPPORTED_FILE_TYPE,
  UPLOAD_CHUNK_SIZE,
  WELCOME_LIBRARY_NAME,
} from '../../src/contract';
import { e2eSuite, SCREENSHOT_DIR, signIn, uniqueEmail, waitForPath } from './harness';

const { app, openBrowser, signedIn } = e2eSuite();
let mediaDir: string;

interface TestFile {
  name: string;
  type: string;
  base64: string;
}
const files: Record<'alpha' | 'bravo' | 'charlie' | 'notes', TestFile> = {} as never;

/** Small, different test videos made by ffmpeg (house style 16), plus a text file the upload must reject. */
function makeMedia() {
  mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-e2e-media-'));
  const video = (name: string, source: string, seconds: number) => {
    const out = path.join(mediaDir, name);
    execFileSync('/usr/bin/ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      source,
      '-t',
      String(seconds),
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      '-y',
      out,
    ]);
    return { name, type: 'video/mp4', base64: fs.readFileSync(out).toString('base64') };
  };
  files.alpha = video('alpha-test.mp4', 'testsrc2=size=320x240:rate=25', 2);
  files.bravo = video('bravo-test.mp4', 'mandelbrot=size=320x240:rate=25', 3);
  files.charlie = video('charlie-first.mp4', 'smptebars=size=320x240:rate=25', 2);
  fs.writeFileSync(path.join(mediaDir, 'notes.txt'), 'not a video');
  files.notes = { name: 'notes.txt', type: 'text/plain', base64: Buffer.from('not a video').toString('base64') };
  // Bigger than one 20 MiB part, and not media: it uploads in two parts and then fails indexing.
  fs.writeFileSync(path.join(mediaDir, BIG.name), randomBytes(BIG.size));
}

const BIG = { name: 'big-noise.mp4', size: UPLOAD_CHUNK_SIZE + 1_234_567 };

beforeAll(() => {
  makeMedia();
});
afterAll(() => {
  fs.rmSync(mediaDir, { recursive: true, force: true });
});

/** A full-window screenshot once every image on the page has settled (loaded or failed). */
async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForFunction(() => [...document.images].every((img) => img.complete), null, { timeout: 10_000 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

/** A drop of files on the page, built in page context as a user's drag would deliver it. */
async function dropFiles(page: Page, list: TestFile[]) {
  await page.evaluate((items) => {
    const dt = new DataTransfer();
    for (const f of items) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    for (const type of ['dragenter', 'dragover', 'drop'])
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, list);
}

const toast = (page: Page, text: string | RegExp) => page.locator('.toast').filter({ hasText: text });
const nameOf = (f: TestFile) => f.name.replace(/\.[^.]+$/, '');
const row = (page: Page, f: TestFile) => page.locator('tr.media-row').filter({ hasText: nameOf(f) });
const card = (page: Page, name: string) =>
  page.locator('li.media-card').filter({ has: page.locator('.media-card__title', { hasText: name }) });
const cardTitles = (page: Page) => page.locator('.media-card__title').allTextContents();

async function waitForStatus(scope: Locator, status: string, timeout = 60_000) {
  await scope.locator(`[data-status="${status}"]`).waitFor({ timeout });
}

describe('libraries, media and upload', () => {
  it('first-time workspace, create a library, drop videos, watch them finish, then sort, rename, open and bulk delete', async () => {
    const { page } = await signedIn('libraries', ROUTES.workspace);

    // Workspace for a first-time user: upload box and the Welcome Library card.
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    await page.getByRole('button', { name: 'Choose files' }).waitFor();
    const welcome = page.locator('.welcome-card');
    await welcome.getByText(WELCOME_LIBRARY_NAME, { exact: true }).waitFor();
    // (this app ships no samples: its demo library is empty)
    await welcome.getByText('No sample videos yet').waitFor();
    await shot(page, 'workspace-first-time');

    // Libraries: the default and the demo library; demo and default libraries offer no delete.
    await page.getByRole('link', { name: 'Libraries', exact: true }).first().click();
    await waitForPath(page, ROUTES.libraries);
    await page.locator('.library-card').filter({ hasText: 'My Library' }).waitFor();
    await page.locator('.library-card').filter({ hasText: WELCOME_LIBRARY_NAME }).waitFor();
    await page.getByRole('button', { name: `Actions for ${WELCOME_LIBRARY_NAME}` }).click();
    const demoMenu = page.getByRole('menu');
    expect(await demoMenu.getByRole('menuitem', { name: 'Delete' }).getAttribute('data-disabled')).not.toBeNull();
    expect(await demoMenu.getByRole('menuitem', { name: 'Rename' }).getAttribute('data-disabled')).not.toBeNull();
    await page.keyboard.press('Escape');
    await shot(page, 'libraries');

    // Create a library: the name is trimmed, and the create button needs a file.
    await page.getByRole('button', { name: 'Create library' }).click();
    const create = page.getByRole('dialog', { name: 'Create a library' });
    await create.getByLabel('Library name').fill('  Holiday clips  ');
    expect(await create.getByRole('button', { name: 'Create library' }).isDisabled()).toBe(true);
    await create.locator('input[type=file]').setInputFiles(path.join(mediaDir, files.charlie.name));
    await create.getByText(files.charlie.name).waitFor();
    await shot(page, 'libraries-create-dialog');
    await create.getByRole('button', { name: 'Create library' }).click();
    await waitForPath(page, /^\/library\/[0-9a-f-]{36}$/);
    const libraryId = new URL(page.url()).pathname.split('/')[2]!;
    await page.getByRole('heading', { name: 'Holiday clips', exact: true }).waitFor();
    // The batch's toast ends as 'Upload batch completed' (how it gets there is the next test's subject).
    await toast(page, MSG_MEDIA.uploadBatchCompleted).filter({ hasText: '1 file uploaded.' }).waitFor();

    // Drag in two videos and a text file: the text file is recorded as rejected.
    await dropFiles(page, [files.alpha, files.bravo, files.notes]);
    await toast(page, MSG_MEDIA.uploadBatchCompleted).filter({ hasText: '2 files uploaded.' }).waitFor();
    await row(page, files.alpha).waitFor();
    await page.getByRole('button', { name: /processing/ }).click();
    const processing = page.getByRole('dialog', { name: MSG_MEDIA.processingTitle });
    for (const label of ['Uploading', 'Indexing', 'Queued for upload', 'Queued for indexing'])
      await processing.getByRole('button', { name: new RegExp(`^${label} \\d+$`) }).waitFor();
    await shot(page, 'library-processing-modal');
    await processing.getByRole('button', { name: 'Close' }).last().click();

    // Dropping only unsupported files says so.
    await dropFiles(page, [files.notes]);
    await toast(page, MSG_MEDIA.allDroppedRejected).waitFor();

    // Progress to completion, for all three.
    for (const f of [files.alpha, files.bravo, files.charlie]) await waitForStatus(row(page, f), 'completed');
    await page.getByText('3 videos', { exact: true }).waitFor();
    // The range refresh the page runs every 30 s answers the window asked for, in the stored sort order.
    const range = await page.evaluate(
      async (p) => {
        const r = await fetch(p, {
          headers: { accept: 'application/json', authorization: `Bearer ${localStorage.getItem('clipseek.token')}` },
        });
        return ((await r.json()) as { data: Array<{ metadata: { name: string } }> }).data.map((m) => m.metadata.name);
      },
      `${API.mediaRange(libraryId)}?sort=${encodeURIComponent('title#-1')}&start=0&end=2`,
    );
    expect(range).toEqual(['charlie-first', 'bravo-test']);
    await shot(page, 'library-list');

    // The rejected files are in Failed Videos, under Failed Uploads.
    await page.getByRole('button', { name: /failed/ }).click();
    const failed = page.getByRole('dialog', { name: MSG_MEDIA.failedTitle });
    await failed.getByRole('button', { name: /^Failed Uploads \d+$/ }).waitFor();
    await failed.getByRole('button', { name: /^Failed Indexing \d+$/ }).waitFor();
    expect(await failed.getByText(files.notes.name).count()).toBe(2);
    await failed.getByText(UNSUPPORTED_FILE_TYPE).first().waitFor();
    await shot(page, 'library-failed-modal');
    await failed.getByRole('button', { name: 'Close' }).last().click();

    // Uploading the same file again is skipped as a duplicate.
    await dropFiles(page, [files.alpha]);
    await toast(page, MSG_LIB.duplicateInFolder).waitFor();

    // Grid view, with the title filter and the sort selector.
    await page.getByRole('radio', { name: 'Grid view' }).click();
    await card(page, nameOf(files.alpha)).waitFor();
    await page.getByLabel('Sort').selectOption('title#-1');
    await expect.poll(() => cardTitles(page)).toEqual(['charlie-first', 'bravo-test', 'alpha-test']);
    await page.getByLabel('Sort').selectOption('title#1');
    await expect.poll(() => cardTitles(page)).toEqual(['alpha-test', 'bravo-test', 'charlie-first']);
    await page.getByLabel('Filter by title').fill('zzz');
    await page.getByText(MSG_MEDIA.noResults).waitFor();
    await page.getByText(MSG_MEDIA.noResultsHint).waitFor();
    await page.getByLabel('Filter by title').fill('');
    await card(page, nameOf(files.bravo)).locator('img.thumb__img').waitFor();
    await shot(page, 'library-grid');

    // Rename: the current name is preselected; the new one is saved.
    await page.getByRole('button', { name: `Actions for ${nameOf(files.bravo)}` }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename media' });
    const field = rename.getByLabel('Name');
    expect(await field.inputValue()).toBe(nameOf(files.bravo));
    expect(await field.evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd])).toEqual([0, nameOf(files.bravo).length]);
    await field.fill('Mandelbrot zoom');
    await rename.getByRole('button', { name: 'Save' }).click();
    await toast(page, MSG_MEDIA.mediaRenamed).waitFor();
    await card(page, 'Mandelbrot zoom').waitFor();

    // The media modal: details, poster or player, and the original's download.
    await card(page, nameOf(files.alpha))
      .getByRole('button', { name: `Open ${nameOf(files.alpha)}` })
      .click();
    await waitForPath(page, new RegExp(`^/library/${libraryId}/media/[0-9a-f-]{36}$`));
    const modal = page.getByRole('dialog', { name: nameOf(files.alpha) });
    await modal.getByText('320 × 240').waitFor();
    const download = page.waitForEvent('download');
    await modal.getByRole('button', { name: 'Download original' }).click();
    expect((await download).suggestedFilename()).toBe(files.alpha.name);
    await modal.locator('video').waitFor();
    // Screenshot once the player can play (no loading spinner).
    await page.waitForFunction(() => document.querySelector('video')!.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA);
    await shot(page, 'library-media-modal');
    await modal.getByRole('button', { name: 'Close' }).last().click();
    await waitForPath(page, `/library/${libraryId}`);

    // Bulk delete two of the three.
    await page.getByRole('checkbox', { name: `Select ${nameOf(files.alpha)}` }).click();
    await page.getByRole('checkbox', { name: 'Select Mandelbrot zoom' }).click();
    const bar = page.getByRole('toolbar', { name: 'Selection' });
    await bar.getByText('2 selected').waitFor();
    await shot(page, 'library-grid-selection');
    await bar.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete 2 media?' }).getByRole('button', { name: 'Delete 2' }).click();
    await toast(page, /^2 media were deleted\. This operation freed .+ of storage\.$/).waitFor();
    await expect.poll(() => cardTitles(page)).toEqual(['charlie-first']);
    await bar.waitFor({ state: 'detached' });

    // Back to the list view; a missing media and a missing library send the user back.
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname === API.meSettings && r.request().method() === 'POST');
    await page.getByRole('radio', { name: 'List view' }).click();
    expect((await saved).status()).toBe(200);
    await row(page, files.charlie).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'library-list-mobile');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${app.url}/library/${libraryId}/media/00000000-0000-4000-8000-000000000000`);
    await toast(page, MSG_LIB.mediaNotFound).waitFor();
    await waitForPath(page, `/library/${libraryId}`);
    await page.goto(`${app.url}/library/00000000-0000-4000-8000-000000000000`);
    await waitForPath(page, ROUTES.libraries);

    // With media in an own library, the workspace is no longer for this user.
    await page.goto(`${app.url}${ROUTES.workspace}`);
    await waitForPath(page, ROUTES.libraries);

    // The view mode was saved on the account.
    const me = await page.evaluate(async (p) => {
      const r = await fetch(p, {
        headers: { accept: 'application/json', authorization: `Bearer ${localStorage.getItem('clipseek.token')}` },
      });
      return ((await r.json()) as { data: { settings: { libraryViewMode: string } } }).data.settings;
    }, API.me);
    expect(me.libraryViewMode).toBe('list');
  });

  it('reports each upload batch in one toast that turns from progress into completed or failed, never beside it', async () => {
    const { page } = await signedIn('toasts', ROUTES.libraries);
    await page.locator('.library-card').filter({ hasText: 'My Library' }).getByRole('link').first().click();
    await waitForPath(page, /^\/library\/[0-9a-f-]{36}$/);
    await page.getByText(MSG_MEDIA.noVideos).waitFor();
    // For the whole test, every moment at which a 'don't leave' toast stood beside a finished upload's is recorded.
    await page.evaluate(
      ({ leave, finished }) => {
        const w = window as unknown as { toastClashes: string[] };
        w.toastClashes = [];
        const check = () => {
          const texts = [...document.querySelectorAll<HTMLElement>('.toast')].map((t) => t.innerText);
          if (texts.some((t) => t.includes(leave)) && texts.some((t) => finished.some((f) => t.includes(f))))
            w.toastClashes.push(texts.join(' | '));
        };
        new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
      },
      { leave: "Please don't leave this page.", finished: [MSG_MEDIA.uploadBatchCompleted, MSG_MEDIA.uploadFailedTitle] },
    );
    const clashes = () => page.evaluate(() => (window as unknown as { toastClashes: string[] }).toastClashes);
    const toasts = page.locator('.toast');

    // Two files chosen at once, their parts held back: one progress toast for the batch, spec wording.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/blobs/upload/**', async (route) => {
      await held;
      await route.fallback();
    });
    await page.getByTestId('file-input').setInputFiles([files.alpha, files.bravo].map((f) => path.join(mediaDir, f.name)));
    const batch = toast(page, MSG_MEDIA.filesQueued(2));
    await batch.getByRole('progressbar').waitFor();
    expect(await toasts.count()).toBe(1);
    await batch.evaluate((el) => el.setAttribute('data-batch', 'one'));
    await shot(page, 'upload-batch-progress');

    // Sent: that same toast now says the batch completed, and nothing asks to stay any more.
    release();
    const same = page.locator('.toast[data-batch="one"]');
    await same.filter({ hasText: MSG_MEDIA.uploadBatchCompleted }).filter({ hasText: '2 files uploaded.' }).waitFor();
    expect(await same.getByRole('progressbar').count()).toBe(0);
    expect(await toasts.count()).toBe(1);
    await shot(page, 'upload-batch-completed');
    await same.getByRole('button', { name: 'Dismiss' }).click();
    await toasts.first().waitFor({ state: 'detached' });

    // A batch whose parts the store refuses (every attempt): the batch's toast turns into the failure.
    await page.unroute('**/blobs/upload/**');
    await page.route('**/blobs/upload/**', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'internal', message: 'Disk full' } }),
      }),
    );
    await page.getByTestId('file-input').setInputFiles(path.join(mediaDir, files.charlie.name));
    const failing = toast(page, MSG_MEDIA.filesQueued(1));
    await failing.waitFor();
    await failing.evaluate((el) => el.setAttribute('data-batch', 'two'));
    await page
      .locator('.toast[data-batch="two"]')
      .filter({ hasText: MSG_MEDIA.uploadFailedTitle })
      .filter({ hasText: MSG_MEDIA.uploadFailed(files.charlie.name, MSG_MEDIA.chunkFailed) })
      .waitFor({ timeout: 20_000 });
    expect(await toasts.count()).toBe(1);
    expect(await clashes()).toEqual([]);
  });

  it('unverified accounts see the verification notice and cannot create libraries or add videos', async () => {
    const { page } = await openBrowser();
    const email = uniqueEmail('unverified');
    const password = 'unverified password';
    const res = await fetch(`${app.url}${API.register}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(res.status).toBeLessThan(300);
    await signIn(page, app.url, email, password, ROUTES.workspace);
    await waitForPath(page, ROUTES.verifyEmail);

    await page.goto(`${app.url}${ROUTES.workspace}`);
    await page.getByText(MSG.verifyToAdd).first().waitFor();
    await page.getByRole('button', { name: MSG.resendVerification }).waitFor();
    expect(await page.getByRole('button', { name: 'Choose files' }).isDisabled()).toBe(true);
    await shot(page, 'workspace-unverified');

    await page.goto(`${app.url}${ROUTES.libraries}`);
    const createButton = page.getByRole('button', { name: 'Create library' });
    await createButton.waitFor();
    expect(await createButton.isDisabled()).toBe(true);
    await createButton.locator('..').hover();
    await page.getByRole('tooltip').getByText(MSG.verifyToAdd).waitFor();
    await page.locator('.library-card').filter({ hasText: 'My Library' }).getByRole('link').first().click();
    await waitForPath(page, /^\/library\//);
    expect(await page.getByRole('button', { name: 'Add videos' }).first().isDisabled()).toBe(true);
    await page.getByText(MSG_MEDIA.noVideos).waitFor();
    await shot(page, 'library-unverified-empty');
  });

  it('uploads a large file in 20 MiB parts with progress, and a non-media file ends in Failed Indexing', async () => {
    const { page } = await signedIn('bigfile', ROUTES.libraries);
    await page.locator('.library-card').filter({ hasText: 'My Library' }).getByRole('link').first().click();
    await waitForPath(page, /^\/library\/[0-9a-f-]{36}$/);
    await page.getByText(MSG_MEDIA.noVideos).waitFor();

    // Hold the last part back so the upload can be seen in progress.
    const parts: number[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && new URL(r.url()).pathname.startsWith('/blobs/upload/')) parts.push(r.postDataBuffer()?.length ?? -1);
    });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/blobs/upload/**/2?**', async (route) => {
      await held;
      await route.fallback();
    });
    await page.getByTestId('file-input').setInputFiles(path.join(mediaDir, BIG.name));
    await toast(page, MSG_MEDIA.filesQueued(1)).waitFor();
    const bigRow = page.locator('tr.media-row').filter({ hasText: 'big-noise' });
    await waitForStatus(bigRow, 'uploading');
    await bigRow.getByRole('progressbar').waitFor();
    await page.getByRole('button', { name: /processing/ }).click();
    const processing = page.getByRole('dialog', { name: MSG_MEDIA.processingTitle });
    await processing.getByRole('progressbar', { name: `Uploading ${BIG.name}` }).waitFor();
    await shot(page, 'library-uploading');
    await processing.getByRole('button', { name: 'Close' }).last().click();
    release();

    // Both parts were sent with the right sizes; the server then finds it is not media.
    await waitForStatus(bigRow, 'invalid');
    expect(parts.sort((a, b) => b - a)).toEqual([UPLOAD_CHUNK_SIZE, BIG.size - UPLOAD_CHUNK_SIZE]);
    await bigRow.getByText(MEDIA_STATUS_LABEL.invalid!).waitFor();
    // In the grid, a failed media carries the errored overlay.
    await page.getByRole('radio', { name: 'Grid view' }).click();
    await card(page, 'big-noise').getByText(MSG_MEDIA.erroredOverlay).waitFor();
    await shot(page, 'library-grid-invalid');
    await page.getByRole('button', { name: '1 failed' }).click();
    const failed = page.getByRole('dialog', { name: MSG_MEDIA.failedTitle });
    await failed.getByText('big-noise', { exact: true }).waitFor();
    // Invalid files cannot be retried, only deleted.
    expect(await failed.getByRole('button', { name: 'Retry all' }).count()).toBe(0);
    await shot(page, 'library-failed-indexing');
    await failed.getByRole('button', { name: 'Delete failed' }).click();
    await toast(page, /^1 media was deleted\. This operation freed .+ of storage\.$/).waitFor();
    await page.getByText(MSG_MEDIA.noVideos).waitFor();
  });
});
