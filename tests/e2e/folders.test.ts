import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  folderPath,
  libraryPath,
  mediaPath,
  MSG_FOLDER,
  MSG_MEDIA,
  MSG_SEARCH_UI,
  ROUTES,
  WELCOME_LIBRARY_NAME,
  type FolderResponse,
  type Library,
  type Media,
  type SearchResults,
} from '../../src/contract';
import { uploadCounterVideo } from '../fixtures/counterVideo';
import { makeSolidImage } from '../fixtures/makeMedia';
import { makeVideo } from '../integration/support/upload';
import { apiCall, createVerifiedUser, e2eSuite, SCREENSHOT_DIR, signIn, uniqueEmail, waitForVideo } from './harness';

/** Issue 17, library and media: folders, watching while indexing, ?tab=, selections, copy link, sounds. */

const { app, openBrowser } = e2eSuite();
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-folders-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const toast = (page: Page, text: string | RegExp) => page.locator('.toast').filter({ hasText: text });
/** Marks the toasts on screen, so that `freshToast` waits for one shown after this (an earlier batch's may linger). */
const markToastsSeen = (page: Page) =>
  page.evaluate(() => document.querySelectorAll('.toast').forEach((t) => t.setAttribute('data-seen', '')));
const freshToast = (page: Page, text: string | RegExp) => page.locator('.toast:not([data-seen])').filter({ hasText: text });
const row = (page: Page, name: string) => page.locator('tr.media-row').filter({ hasText: name });
const tile = (page: Page, name: string) => page.locator('.folder-tile').filter({ hasText: name });
const breadcrumb = (page: Page) => page.getByRole('navigation', { name: 'Breadcrumb' });

async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForFunction(() => [...document.images].every((img) => img.complete), null, { timeout: 20_000 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

/** A drop of a file on the page, built in page context as a user's drag delivers it. */
async function dropFile(page: Page, file: string, type: string) {
  await page.evaluate(
    ({ base64, name, type }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type }));
      for (const t of ['dragenter', 'dragover', 'drop'])
        document.body.dispatchEvent(new DragEvent(t, { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { base64: fs.readFileSync(file).toString('base64'), name: path.basename(file), type },
  );
}

async function createFolder(page: Page, name: string) {
  await page.getByRole('button', { name: 'New folder' }).click();
  const dialog = page.getByRole('dialog', { name: 'New folder' });
  await dialog.getByLabel('Folder name').fill(name);
  await dialog.getByRole('button', { name: 'Create folder' }).click();
  await dialog.waitFor({ state: 'detached' });
  await tile(page, name).waitFor();
}

/** Signs in on a fresh verified account whose pages count the notes WebAudio starts (window.__notes). */
async function signedInCountingSounds(tag: string, viewport = { width: 1280, height: 900 }) {
  const email = uniqueEmail(tag);
  const password = `${tag} password`;
  await createVerifiedUser(app, email, password);
  const browser = await openBrowser(viewport);
  await browser.context.addInitScript(() => {
    const w = window as unknown as { __notes: number };
    w.__notes = 0;
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (...args: Parameters<OscillatorNode['start']>) {
      w.__notes++;
      return start.apply(this, args);
    };
  });
  await signIn(browser.page, app.url, email, password, ROUTES.libraries);
  await browser.page.waitForURL((u) => u.pathname === ROUTES.libraries);
  return { ...browser, email, password };
}

const notes = (page: Page) => page.evaluate(() => (window as unknown as { __notes: number }).__notes);

describe('folders in the library (issue 17)', () => {
  it(
    'creates, opens (an address each, Back works), uploads and drops into, renames and deletes folders',
    { timeout: 400_000 },
    async () => {
      const { page } = await signedInCountingSounds('folders');
      const lib = (await apiCall<Library[]>(page, 'GET', API.libraries)).find((l) => l.isDefault)!;
      await page.goto(`${app.url}${libraryPath(lib._id)}`);
      await page.getByText('No videos yet').waitFor();

      await createFolder(page, 'Trips');
      await toast(page, MSG_FOLDER.created).waitFor();
      await createFolder(page, 'Alps');
      // by creation, the oldest first
      expect(await page.locator('.folder-tile__name').allTextContents()).toEqual(['Trips', 'Alps']);
      // a name already there is refused, with the server's words, in the dialog
      await page.getByRole('button', { name: 'New folder' }).click();
      const dialog = page.getByRole('dialog', { name: 'New folder' });
      await dialog.getByLabel('Folder name').fill('trips');
      await dialog.getByRole('button', { name: 'Create folder' }).click();
      await dialog.getByText(MSG_FOLDER.nameTaken('trips')).waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      // Open Trips: its own address, the breadcrumb back, and an empty folder.
      const trips = (await apiCall<FolderResponse>(page, 'GET', API.folder(lib._id))).subFolders.find((f) => f.name === 'Trips')!;
      await tile(page, 'Trips').getByRole('link').click();
      await page.waitForURL((u) => u.pathname === folderPath(lib._id, trips._id));
      await breadcrumb(page).getByText('Trips').waitFor();
      await page.getByText(MSG_FOLDER.empty).waitFor();

      // A picked file and a dropped one go into the open folder.
      const video = path.join(dir, 'beach.mp4');
      fs.writeFileSync(video, makeVideo(1));
      await page.getByTestId('file-input').setInputFiles(video);
      await row(page, 'beach').waitFor();
      const png = await makeSolidImage(dir, 'orange', 64);
      await dropFile(page, png, 'image/png');
      await row(page, 'solid-orange').waitFor();
      const inTrips = await apiCall<FolderResponse>(page, 'GET', API.folder(lib._id, trips._id));
      expect(inTrips.files.map((f) => f.metadata.filename).sort()).toEqual(['beach.mp4', 'solid-orange.png']);
      expect(inTrips.ancestors.map((f) => f._id)).toEqual([lib.rootFolderId]);
      expect((await apiCall<FolderResponse>(page, 'GET', API.folder(lib._id))).files).toEqual([]);

      // A folder inside, opened, then back through the breadcrumb and the browser's Back.
      await createFolder(page, 'Day 1');
      await tile(page, 'Day 1').getByRole('link').click();
      await breadcrumb(page).getByText('Day 1').waitFor();
      expect(await breadcrumb(page).getByRole('listitem').allTextContents()).toEqual([lib.name, 'Trips', 'Day 1']);
      const dayUrl = page.url();
      await breadcrumb(page).getByRole('link', { name: 'Trips' }).click();
      await page.waitForURL((u) => u.pathname === folderPath(lib._id, trips._id));
      await row(page, 'beach').waitFor();
      await page.goBack();
      await page.waitForURL(dayUrl);
      await page.getByText(MSG_FOLDER.empty).waitFor();
      await page.goBack();
      await page.waitForURL((u) => u.pathname === folderPath(lib._id, trips._id));

      // A selection belongs to its folder: opening another clears it.
      const bar = page.getByRole('toolbar', { name: 'Selection' });
      await row(page, 'beach').getByRole('checkbox').check();
      await bar.waitFor();
      await tile(page, 'Day 1').getByRole('link').click();
      await bar.waitFor({ state: 'detached' });
      await page.goBack();
      await row(page, 'beach').waitFor();
      expect(await row(page, 'beach').getByRole('checkbox').isChecked()).toBe(false);
      expect(await bar.count()).toBe(0);

      // Back at the root: the folders beside the files, as a person sees them.
      await breadcrumb(page).getByRole('link', { name: lib.name }).click();
      await page.waitForURL((u) => u.pathname === libraryPath(lib._id));
      await expect.poll(() => page.locator('.folder-tile').filter({ hasText: '2 files, 1 folder' }).count()).toBe(1);
      const rootVideo = path.join(dir, 'root.mp4');
      fs.writeFileSync(rootVideo, makeVideo(2));
      await markToastsSeen(page);
      await page.getByTestId('file-input').setInputFiles(rootVideo);
      await row(page, 'root').waitFor();
      await freshToast(page, MSG_MEDIA.uploadBatchCompleted).waitFor({ timeout: 60_000 });
      await shot(page, 'library-folders-1280');

      // Rename.
      await page.getByRole('button', { name: 'Actions for folder Alps' }).click();
      await page.getByRole('menuitem', { name: 'Rename' }).click();
      const rename = page.getByRole('dialog', { name: 'Rename folder' });
      await rename.getByLabel('Folder name').fill('Mountains');
      await rename.getByRole('button', { name: 'Save' }).click();
      await tile(page, 'Mountains').waitFor();
      expect(await page.locator('.folder-tile__name').allTextContents()).toEqual(['Trips', 'Mountains']);

      // Delete a folder that holds things: the dialog says what goes with it.
      const media = inTrips.files;
      await page.getByRole('button', { name: 'Actions for folder Trips' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      const del = page.getByRole('dialog', { name: 'Delete folder' });
      await del.getByText('holds 2 files, 1 folder').waitFor();
      await del.getByRole('button', { name: 'Delete folder and contents' }).click();
      await tile(page, 'Trips').waitFor({ state: 'detached' });
      await toast(page, MSG_FOLDER.deleted).first().waitFor();
      for (const m of media) await expect(apiCall(page, 'GET', API.media(lib._id, m._id))).rejects.toThrow('Media not found');
      // an empty one goes without more ado
      await page.getByRole('button', { name: 'Actions for folder Mountains' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByRole('dialog', { name: 'Delete folder' }).getByRole('button', { name: 'Delete folder', exact: true }).click();
      await tile(page, 'Mountains').waitFor({ state: 'detached' });
      await row(page, 'root').waitFor();

      // A deleted folder's address leads back to the library.
      await page.goto(`${app.url}${folderPath(lib._id, trips._id)}`);
      await toast(page, MSG_FOLDER.notFound).waitFor();
      await page.waitForURL((u) => u.pathname === libraryPath(lib._id));
    },
  );

  it('fits a 375 px screen with folders', { timeout: 240_000 }, async () => {
    const { page } = await signedInCountingSounds('folders375', { width: 375, height: 812 });
    const lib = (await apiCall<Library[]>(page, 'GET', API.libraries)).find((l) => l.isDefault)!;
    for (const name of ['Holidays 2024', 'A folder with quite a long name indeed', 'Work']) {
      await apiCall(page, 'POST', API.folderCreate(lib._id), { name });
    }
    const png = await makeSolidImage(dir, 'teal', 64);
    await page.goto(`${app.url}${libraryPath(lib._id)}`);
    await tile(page, 'Work').waitFor();
    await dropFile(page, png, 'image/png');
    await row(page, 'solid-teal').waitFor();
    await shot(page, 'library-folders-375');
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('main *')]
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && (r.left < -0.5 || r.right > window.innerWidth + 0.5) && !el.closest('.media-table__wrap');
        })
        .map((el) => `${el.tagName}.${el.className}`)
        .slice(0, 8),
    );
    expect(wide).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});

describe('watching while indexing, ?tab=, copy link and selections (issue 17)', () => {
  it(
    'plays a media whose preview is ready while it is still indexing; search finds it only once completed',
    { timeout: 400_000 },
    async () => {
      const email = uniqueEmail('watch');
      const password = 'watch password';
      await createVerifiedUser(app, email, password);
      const { library, media } = await uploadCounterVideo(app.url, email, password);
      // The state the indexer leaves a video in between its preview stage and its completion.
      const setStatus = (status: 'processing' | 'completed', progress: number) =>
        app.server.database.db.updateTable('media').set({ status, progress }).where('id', '=', media._id).execute();
      await setStatus('processing', 0.55);

      const { page, context } = await openBrowser({ width: 1280, height: 900 });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
      await signIn(page, app.url, email, password, libraryPath(library._id));
      await page.waitForURL((u) => u.pathname === libraryPath(library._id));
      await row(page, 'counter').getByText('Indexing').waitFor();
      await row(page, 'counter').getByText('counter', { exact: true }).first().click();
      await page.waitForURL((u) => u.pathname === mediaPath(library._id, media._id));
      const modal = page.getByRole('dialog', { name: 'counter' });
      await modal.getByText(MSG_MEDIA.stillIndexing(0.55)).waitFor();
      // It plays: the modal starts the preview by itself, and its controls pause and resume it.
      // (Pressing Play while the preview was still loading could race with that start: a press that
      // reaches the button just as it turns into Pause pauses the video.)
      const video = '[role=dialog] video';
      await waitForVideo(page, video, { after: 1, paused: false });
      await modal.getByRole('button', { name: 'Pause' }).click();
      await waitForVideo(page, video, { paused: true }, 10_000);
      const pausedAt = await page.evaluate((s) => document.querySelector<HTMLVideoElement>(s)!.currentTime, video);
      await modal.getByRole('button', { name: 'Play' }).click();
      await waitForVideo(page, video, { after: pausedAt + 0.5, paused: false });
      await shot(page, 'media-playing-while-indexing');
      // search does not cover it yet
      const search = () => apiCall<SearchResults>(page, 'POST', API.searchVisual(library._id), { text: 'counter' });
      expect((await search()).results.filter((m) => m.mediaId === media._id)).toEqual([]);

      // Indexing ends: the note goes by itself, and search finds it.
      await setStatus('completed', 1);
      await modal.getByText(/Still indexing/).waitFor({ state: 'detached', timeout: 15_000 });
      expect((await search()).results.some((m) => m.mediaId === media._id)).toBe(true);

      // ?tab= selects the side panel's tab; choosing a tab writes it back; the default is visual.
      expect(await modal.getByRole('radio', { name: 'Visual summary' }).isChecked()).toBe(true);
      await modal.getByRole('radio', { name: 'Transcript' }).click();
      await page.waitForURL((u) => u.searchParams.get('tab') === 'transcript');
      await page.goto(`${app.url}${mediaPath(library._id, media._id)}?tab=transcript`);
      await modal.waitFor();
      expect(await modal.getByRole('radio', { name: 'Transcript' }).isChecked()).toBe(true);
      await modal.getByRole('radio', { name: 'Visual summary' }).click();
      await page.waitForURL((u) => u.searchParams.get('tab') === null && u.pathname === mediaPath(library._id, media._id));

      // Copy link: the media's address on the clipboard, and a toast; a clipboard that refuses says so.
      await modal.getByRole('button', { name: 'Copy link' }).click();
      await toast(page, MSG_MEDIA.linkCopied).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${app.url}${mediaPath(library._id, media._id)}`);
      await page.evaluate(() => {
        navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
      });
      await modal.getByRole('button', { name: 'Copy link' }).click();
      const failed = toast(page, MSG_MEDIA.copyLinkFailedTitle);
      await failed.getByText(MSG_MEDIA.copyLinkFailed).waitFor();
      await modal.getByRole('button', { name: 'Close', exact: true }).last().click();
      await modal.waitFor({ state: 'detached' });
      await page.waitForURL((u) => u.pathname === libraryPath(library._id));

      // A moment selection on the search page clears when another library is chosen.
      await page.goto(`${app.url}${ROUTES.search}?libs=${library._id}&text=counter`);
      const moment = page.locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${media._id}"]`).first();
      await moment.waitFor({ timeout: 60_000 });
      await moment.getByRole('checkbox').check();
      const bar = page.getByRole('toolbar', { name: 'Selection' });
      await bar.waitFor();
      await page.getByRole('button', { name: /^Libraries: / }).click();
      await page
        .getByRole('dialog', { name: 'Libraries to search' })
        .getByRole('button', { name: new RegExp(WELCOME_LIBRARY_NAME) })
        .click();
      await toast(page, MSG_SEARCH_UI.libraryChanged).waitFor();
      await bar.waitFor({ state: 'detached' });
      // and choosing the first library again brings no old selection back
      await page.getByRole('button', { name: /^Libraries: / }).click();
      await page
        .getByRole('dialog', { name: 'Libraries to search' })
        .getByRole('button', { name: new RegExp(library.name) })
        .click();
      await moment.waitFor({ timeout: 60_000 });
      expect(await moment.getByRole('checkbox').isChecked()).toBe(false);
    },
  );

  it('retrying a failed media shows it processing at once', { timeout: 300_000 }, async () => {
    const email = uniqueEmail('retry');
    const password = 'retry password';
    await createVerifiedUser(app, email, password);
    const { library, media } = await uploadCounterVideo(app.url, email, password, { name: 'retry.mp4' });
    // as the indexer leaves a media whose visual stage failed: it and the stages after it are not done
    await app.server.database.db
      .updateTable('media')
      .set({
        status: 'errored',
        error_message: 'Processing failed at the visual stage: test',
        ingest: sql`jsonb_set(ingest, '{done}', (ingest->'done') - 'visual' - 'speech' - 'descriptions' - 'complete')` as never,
      })
      .where('id', '=', media._id)
      .execute();
    const { page } = await openBrowser({ width: 1280, height: 900 });
    await signIn(page, app.url, email, password, libraryPath(library._id));
    await row(page, 'retry').getByText('Processing failed').first().waitFor();
    await row(page, 'retry').getByRole('button', { name: 'Actions for retry' }).click();
    await page.getByRole('menuitem', { name: 'Retry' }).click();
    // at once: not Queued on the way
    await row(page, 'retry').getByText('Indexing').waitFor({ timeout: 5000 });
    expect(await row(page, 'retry').getByText('Queued').count()).toBe(0);
    const fresh = await apiCall<Media>(page, 'GET', API.media(library._id, media._id));
    expect(['processing', 'completed']).toContain(fresh.status);
  });
});

describe('the sound preference (issue 17)', () => {
  it('chimes when an upload and its indexing finish, and not once Sounds is off', { timeout: 400_000 }, async () => {
    const { page } = await signedInCountingSounds('sounds');
    const lib = (await apiCall<Library[]>(page, 'GET', API.libraries)).find((l) => l.isDefault)!;
    await page.goto(`${app.url}${libraryPath(lib._id)}`);
    await page.getByText('No videos yet').waitFor();
    expect(await notes(page)).toBe(0);

    const one = path.join(dir, 'one.mp4');
    fs.writeFileSync(one, makeVideo(1, '160x90'));
    await page.getByTestId('file-input').setInputFiles(one);
    await toast(page, MSG_MEDIA.uploadBatchCompleted).waitFor({ timeout: 60_000 });
    // the upload's chime: two notes
    await expect.poll(() => notes(page)).toBe(2);
    await row(page, 'one').getByText('Indexing').or(row(page, 'one').getByText('Queued')).first().waitFor();
    await expect
      .poll(() => row(page, 'one').getByText('Indexing').or(row(page, 'one').getByText('Queued')).count(), { timeout: 180_000 })
      .toBe(0);
    // indexing's chime: three more
    await expect.poll(() => notes(page)).toBe(5);

    // Sounds off (the account menu), and nothing sounds for the next upload and indexing.
    await page.getByRole('button', { name: 'Account menu' }).click();
    const sounds = page.getByRole('menuitemcheckbox', { name: 'Sounds' });
    expect(await sounds.getAttribute('aria-checked')).toBe('true');
    await sounds.click();
    expect(await sounds.getAttribute('aria-checked')).toBe('false');
    await page.keyboard.press('Escape');
    const two = path.join(dir, 'two.mp4');
    fs.writeFileSync(two, makeVideo(2, '160x90'));
    await markToastsSeen(page);
    await page.getByTestId('file-input').setInputFiles(two);
    await freshToast(page, MSG_MEDIA.uploadBatchCompleted).waitFor({ timeout: 60_000 });
    await expect
      .poll(() => row(page, 'two').getByText('Indexing').or(row(page, 'two').getByText('Queued')).count(), { timeout: 180_000 })
      .toBe(0);
    await row(page, 'two').waitFor();
    expect(await notes(page)).toBe(5);
    // the choice is saved to the account
    await expect
      .poll(async () => (await apiCall<{ settings: { enableSounds: boolean } }>(page, 'GET', API.me)).settings.enableSounds)
      .toBe(false);
  });
});
