import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CDPSession, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { decode } from '@msgpack/msgpack';
import {
  API,
  CAPTION_STYLE_LABELS,
  EXPORT_FORMAT_LABELS,
  MSG_DOWNLOAD,
  MSG_MERGE,
  MSG_PUBLISH,
  RENDER_ASPECT_LABELS,
  ROUTES,
  type RenderAspect,
} from '../../src/contract';
import { uploadIndexed } from '../fixtures/counterVideo';
import { FOX_PHRASE, makeSpeechVideo } from '../fixtures/makeMedia';
import { apiCall, createVerifiedUser, e2eSuite, SCREENSHOT_DIR, signIn, uniqueEmail, type Viewport } from './harness';

/**
 * Publish-ready moments in the app (issue 39): three search results merged into a vertical (9:16)
 * captioned compilation with a subtitle track, downloaded and read back with ffprobe; the clip
 * editor's crop window dragged (mouse, keys, touch) and given back to the subject; the local preview
 * built in the same shape; the compilation exported as an MLT project with its originals and
 * rendered by Debian's melt to the merge's length. Screenshots of the merge dialog, the moment's
 * publish dialog and the crop window at 1280x800 and 375x812 (touch).
 */

const { app, openBrowser } = e2eSuite();

/** A speaker saying the fox sentence three times (three transcript lines, three moments), 640x360. */
let shared: Promise<{ email: string; password: string; libraryId: string; mediaId: string }> | null = null;
function account() {
  shared ??= (async () => {
    const email = uniqueEmail('publish');
    const password = 'publish password';
    await createVerifiedUser(app, email, password);
    const { library, media } = await uploadIndexed(app.url, email, password, 'interview.mp4', (file) =>
      makeSpeechVideo(file, [FOX_PHRASE, FOX_PHRASE, FOX_PHRASE], { gapSeconds: 2.5, width: 640, height: 360 }),
    );
    expect(media.status).toBe('completed');
    return { email, password, libraryId: library._id, mediaId: media._id };
  })();
  return shared;
}

type Account = Awaited<ReturnType<typeof account>>;

async function searchPage(a: Account, viewport: Viewport, touch = false) {
  const browser = await openBrowser(viewport, { touch });
  const q = new URLSearchParams({ libs: a.libraryId, search: 'transcript', text: 'quick brown fox' });
  await signIn(browser.page, app.url, a.email, a.password, `${ROUTES.search}?${q}`);
  await browser.page.waitForURL((u) => u.pathname === ROUTES.search);
  const cards = browser.page.locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${a.mediaId}"]`);
  await expect.poll(() => cards.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
  return { ...browser, cards };
}

/** Selects the first three results and opens the merge dialog on them. */
async function mergeThree(page: Page, cards: Locator) {
  for (const card of (await cards.all()).slice(0, 3)) await card.getByRole('checkbox').check();
  await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: MSG_MERGE.merge }).click();
  const dialog = page.getByRole('dialog', { name: MSG_MERGE.dialogTitle });
  await dialog.getByTestId('sequence-timeline').locator('canvas').waitFor({ timeout: 30_000 });
  await expect.poll(() => page.getByTestId('merge-clip').count()).toBe(3);
  return dialog;
}

const shot = async (page: Page, name: string) => {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
};

const ffprobe = (file: string) =>
  JSON.parse(
    execFileSync(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height:format=duration', '-of', 'json', file],
      {
        encoding: 'utf8',
      },
    ),
  ) as { streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number }>; format: { duration: string } };

/** Saves the next download started by `start` into `dir`; its path. */
async function downloaded(page: Page, dir: string, start: () => Promise<void>, timeout = 180_000) {
  const saved = page.waitForEvent('download', { timeout });
  await start();
  const download = await saved;
  expect(await download.failure()).toBeNull();
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

const windowCentre = async (win: Locator) => Number(await win.getAttribute('data-x'));

/**
 * Opens a moment's publish dialog from its download menu (`trigger`), chooses `aspect` when given,
 * and waits for the crop window's picture to show.
 */
async function openMomentPublish(page: Page, trigger: Locator, aspect?: RenderAspect) {
  await trigger.click();
  await page.getByRole('menuitem', { name: MSG_PUBLISH.publishItem }).click();
  const publish = page.getByRole('dialog', { name: MSG_PUBLISH.publishTitle });
  if (aspect) await publish.getByLabel(MSG_PUBLISH.aspect).selectOption({ label: RENDER_ASPECT_LABELS[aspect] });
  await publish.getByRole('slider', { name: MSG_PUBLISH.cropWindow }).waitFor();
  await expect
    .poll(() => publish.locator('video').evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 })
    .toBeGreaterThanOrEqual(2);
  return publish;
}

/** Opens a result's moment dialog and waits for its picture. */
async function openMomentDialog(page: Page, card: Locator) {
  await card.locator('.moment-card__frame').click();
  const moment = page.getByRole('dialog').filter({ has: page.getByTestId('moment-crop') });
  await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('[role=dialog] video')?.readyState ?? 0) >= 2);
  return moment;
}

/** A mouse drag of a box from its centre, `dx` pixels across. */
async function mouseDrag(page: Page, box: { x: number; y: number; width: number; height: number }, dx: number) {
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + dx, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** A finger drag by CDP touch events (Playwright's touchscreen only taps). */
async function touchDrag(cdp: CDPSession, from: { x: number; y: number }, dx: number) {
  const point = (x: number) => [{ x, y: from.y, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(from.x) });
  for (let i = 1; i <= 8; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(from.x + (dx * i) / 8) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

describe('publish-ready moments (issue 39)', () => {
  it(
    'a vertical captioned compilation of three results, its crop window, preview, download and MLT export rendered by melt',
    { timeout: 600_000 },
    async () => {
      const a = await account();
      const { page, cards } = await searchPage(a, { width: 1280, height: 800 });
      // A moment's own publish dialog: the crop window over its picture for the chosen shape.
      const publish = await openMomentPublish(page, cards.first().getByRole('button', { name: /^Download moment/ }), '4:5');
      await shot(page, 'publish-moment-1280');
      await publish.getByRole('button', { name: 'Close' }).click();
      await publish.waitFor({ state: 'detached' });

      const dialog = await mergeThree(page, cards);
      const lengths = await page.getByTestId('merge-clip').locator('.moment-list__range').allInnerTexts();
      const mergeSeconds = lengths.reduce((s, t) => s + Number(/([\d.]+) s$/.exec(t.trim())![1]), 0);

      // What removing the watermark costs, before the shape and captions are chosen.
      const priced = async () =>
        Number(/^([\d,]+) credits/.exec(await dialog.locator('.merge-footer__cost').innerText())?.[1]?.replace(/,/g, ''));
      await expect.poll(priced, { timeout: 30_000 }).toBeGreaterThan(0);
      const plainPrice = await priced();

      // The shape and captions: 9:16, the bottom bar burned in, a subtitle track.
      await dialog.getByLabel(MSG_PUBLISH.aspect).selectOption({ label: RENDER_ASPECT_LABELS['9:16'] });
      await dialog.getByLabel(MSG_PUBLISH.captions).selectOption({ label: CAPTION_STYLE_LABELS.bar });
      await dialog.getByRole('checkbox', { name: MSG_PUBLISH.subtitleTrack }).check();
      // Captions and the shape are free: the price of removing the watermark is what it was.
      expect(await priced()).toBe(plainPrice);
      await shot(page, 'publish-merge-1280');

      // The clip editor shows the 9:16 window over the 16:9 picture; a drag fixes it, the keys move it, Follow subject frees it.
      await page
        .getByTestId('merge-clip')
        .first()
        .getByRole('button', { name: /^Trim / })
        .click();
      const trim = page.getByRole('dialog', { name: /^Trim / });
      const win = trim.getByRole('slider', { name: MSG_PUBLISH.cropWindow });
      await win.waitFor();
      await expect
        .poll(() => trim.locator('video').evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 })
        .toBeGreaterThanOrEqual(2);
      const box = (await win.boundingBox())!;
      const picture = (await trim.locator('.crop-view__picture').boundingBox())!;
      expect(box.width / picture.width).toBeCloseTo(9 / 16 / (16 / 9), 2);
      const before = await windowCentre(win);
      await mouseDrag(page, box, -picture.width * 0.2);
      await expect.poll(() => windowCentre(win)).toBeCloseTo(Math.max(0.158, before - 0.2), 1);
      await expect.poll(() => trim.getByTestId('crop-status').innerText()).toBe(MSG_PUBLISH.fixed);
      const dragged = await windowCentre(win);
      await win.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => windowCentre(win)).toBeCloseTo(dragged + 0.01, 3);
      await shot(page, 'publish-crop-1280');
      await trim.getByRole('button', { name: MSG_PUBLISH.followSubject }).click();
      await expect.poll(() => trim.getByTestId('crop-status').innerText()).not.toBe(MSG_PUBLISH.fixed);
      // Fixed again, and kept for the render.
      await win.focus();
      await page.keyboard.press('Shift+ArrowLeft');
      await expect.poll(() => trim.getByTestId('crop-status').innerText()).toBe(MSG_PUBLISH.fixed);
      await trim.getByRole('button', { name: 'Confirm' }).click();
      await trim.waitFor({ state: 'detached' });

      // The local preview has the render's shape.
      await dialog.getByRole('button', { name: 'Build preview' }).click();
      const preview = dialog.getByTestId('local-preview');
      await preview.waitFor({ timeout: 240_000 });
      await expect
        .poll(() => preview.evaluate((v: HTMLVideoElement) => (v.videoHeight ? v.videoWidth / v.videoHeight : 0)), { timeout: 30_000 })
        .toBeCloseTo(9 / 16, 1);
      // The fixed window is part of the clip's edit: Ctrl+Z (focus still on Build preview) takes it
      // back, and the preview, built with it, says it shows an earlier edit; Shift+Ctrl+Z brings it
      // back, and the preview is current again.
      const stale = dialog.getByTestId('local-preview-stale');
      expect(await stale.count()).toBe(0);
      await page.keyboard.press('Control+z');
      await expect.poll(() => stale.count()).toBe(1);
      expect(await stale.innerText()).toContain(MSG_MERGE.previewStale);
      await shot(page, 'publish-preview-stale-1280');
      await page.keyboard.press('Control+Shift+z');
      await expect.poll(() => stale.count()).toBe(0);

      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-publish-'));
      // The MP4 without the watermark, charged the price shown: 9:16, with a subtitle stream.
      await dialog.getByRole('checkbox', { name: MSG_DOWNLOAD.removeWatermark }).click();
      const balance = async () => (await apiCall<{ creditsLeft: number }>(page, 'GET', API.billingInfo)).creditsLeft;
      const credits = await balance();
      const mp4 = await downloaded(page, work, () => dialog.getByRole('button', { name: /^Download MP4/ }).click());
      await expect.poll(balance, { timeout: 30_000 }).toBe(credits - plainPrice);
      const probe = ffprobe(mp4);
      const video = probe.streams.find((s) => s.codec_type === 'video')!;
      expect(video.width! / video.height!, JSON.stringify(probe)).toBeCloseTo(9 / 16, 2);
      expect(
        probe.streams.filter((s) => s.codec_type === 'subtitle').map((s) => s.codec_name),
        JSON.stringify(probe),
      ).toEqual(['mov_text']);
      expect(Number(probe.format.duration)).toBeCloseTo(mergeSeconds, 0);
      // A frame of it while the first clip's words are said, kept to look at beside the screenshots.
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-ss',
        '1.5',
        '-i',
        mp4,
        '-frames:v',
        '1',
        path.join(SCREENSHOT_DIR, 'publish-render-frame.png'),
      ]);

      // The MLT project and the original it references, rendered by melt to the merge's length.
      // Opened when the last hand-over has finished (the button is busy while one is made) and the menu is closed.
      const menu = async () => {
        const trigger = dialog.getByRole('button', { name: new RegExp(`^${MSG_PUBLISH.moreDownloads}`) });
        await page.getByRole('menu', { name: MSG_PUBLISH.moreDownloads }).waitFor({ state: 'detached' });
        await expect.poll(() => trigger.getAttribute('aria-busy')).not.toBe('true');
        await trigger.click();
        await page.getByRole('menu', { name: MSG_PUBLISH.moreDownloads }).waitFor();
      };
      const project = await downloaded(page, work, async () => {
        await menu();
        await page.getByRole('menuitem', { name: EXPORT_FORMAT_LABELS.mlt }).waitFor();
        // The MLT project carries the MP4's crop; the other formats hand over the whole picture.
        await expect
          .poll(() => page.getByRole('menuitem', { name: EXPORT_FORMAT_LABELS.mlt }).textContent())
          .toContain(MSG_PUBLISH.exportCropped(RENDER_ASPECT_LABELS['9:16']));
        await expect
          .poll(() => page.getByRole('menuitem', { name: EXPORT_FORMAT_LABELS.edl }).textContent())
          .toContain(MSG_PUBLISH.exportUncropped);
        await shot(page, 'publish-handoff-1280');
        await page.getByRole('menuitem', { name: EXPORT_FORMAT_LABELS.mlt }).click();
      });
      expect(path.extname(project)).toBe('.mlt');
      // The compilation's subtitles: cues on its clock, none past its end.
      const srt = await downloaded(page, work, async () => {
        await menu();
        await page.getByRole('menuitem', { name: MSG_PUBLISH.subtitleFormatLabels.srt }).click();
      });
      const cues = [...fs.readFileSync(srt, 'utf8').matchAll(/(\d\d):(\d\d):(\d\d),(\d{3}) --> (\d\d):(\d\d):(\d\d),(\d{3})/g)].map(
        (m) => ({
          start: +m[1]! * 3600 + +m[2]! * 60 + +m[3]! + +m[4]! / 1000,
          end: +m[5]! * 3600 + +m[6]! * 60 + +m[7]! + +m[8]! / 1000,
        }),
      );
      expect(path.extname(srt)).toBe('.srt');
      expect(cues.length).toBeGreaterThanOrEqual(3);
      expect(Math.max(...cues.map((c) => c.end))).toBeLessThanOrEqual(mergeSeconds + 0.1);
      await downloaded(page, work, async () => {
        await menu();
        await page.getByRole('menuitem', { name: MSG_PUBLISH.original('interview.mp4') }).click();
      });
      const rendered = path.join(work, 'melt.mp4');
      execFileSync('melt', ['-quiet', project, '-consumer', `avformat:${rendered}`, 'vcodec=libx264', 'acodec=aac'], {
        cwd: work,
        stdio: 'pipe',
        timeout: 180_000,
      });
      const melted = ffprobe(rendered);
      const meltSeconds = Number(melted.format.duration);
      // melt renders the project vertical, as the MP4 is (9:16: the original's short side across).
      const meltVideo = melted.streams.find((st) => st.codec_type === 'video')!;
      expect(meltVideo.width! / meltVideo.height!).toBeCloseTo(9 / 16, 2);
      console.log('publish figures', JSON.stringify({ mergeSeconds, render: probe.format.duration, meltSeconds }));
      expect(Math.abs(meltSeconds - mergeSeconds), `melt ${meltSeconds} s, merge ${mergeSeconds} s`).toBeLessThan(0.2);
      fs.rmSync(work, { recursive: true, force: true });
    },
  );

  it(
    'on a phone (375x812, touch): the merge and publish dialogs fit, and a finger drags the crop window',
    { timeout: 300_000 },
    async () => {
      const a = await account();
      const { page, context, cards } = await searchPage(a, { width: 375, height: 812 }, true);
      const cdp = await context.newCDPSession(page);
      // The moment dialog: its crop for publishing, under the timeline, and a finger moving the window over the player.
      const moment = await openMomentDialog(page, cards.first());
      await moment.getByLabel(MSG_PUBLISH.crop).selectOption({ label: RENDER_ASPECT_LABELS['9:16'] });
      const onPlayer = moment.getByRole('slider', { name: MSG_PUBLISH.cropWindow });
      await onPlayer.scrollIntoViewIfNeeded();
      const playerBox = (await onPlayer.boundingBox())!;
      const playerPicture = (await moment.locator('.player-crop__picture').boundingBox())!;
      const from = await windowCentre(onPlayer);
      await touchDrag(cdp, { x: playerBox.x + playerBox.width / 2, y: playerBox.y + playerBox.height / 2 }, playerPicture.width * 0.25);
      await expect.poll(() => windowCentre(onPlayer)).toBeCloseTo(Math.min(1 - 0.158, from + 0.25), 1);
      await moment.getByTestId('moment-crop').scrollIntoViewIfNeeded();
      await expect.poll(() => moment.getByTestId('moment-crop-status').innerText()).toBe(MSG_PUBLISH.fixed);
      await shot(page, 'moment-crop-375');
      await moment.getByRole('button', { name: 'Close', exact: true }).last().click();
      await moment.waitFor({ state: 'detached' });

      // A moment's own download: its menu opens the publish dialog.
      const publish = await openMomentPublish(page, cards.first().getByRole('button', { name: /^Download moment/ }), '1:1');
      await shot(page, 'publish-moment-375');
      await publish.getByRole('button', { name: 'Close' }).click();
      await publish.waitFor({ state: 'detached' });

      const dialog = await mergeThree(page, cards);
      await dialog.getByLabel(MSG_PUBLISH.aspect).selectOption({ label: RENDER_ASPECT_LABELS['9:16'] });
      await dialog.getByTestId('publish-options').scrollIntoViewIfNeeded();
      await shot(page, 'publish-merge-375');
      // The hand-off menu, tapped: every export with its crop note inside the phone's width.
      await dialog.getByRole('button', { name: new RegExp(`^${MSG_PUBLISH.moreDownloads}`) }).tap();
      const handOff = page.getByRole('menu', { name: MSG_PUBLISH.moreDownloads });
      await handOff.waitFor();
      for (const item of await handOff.getByRole('menuitem').all()) {
        const b = (await item.boundingBox())!;
        expect(b.x).toBeGreaterThanOrEqual(0);
        expect(b.x + b.width).toBeLessThanOrEqual(375);
      }
      await expect
        .poll(() => handOff.getByRole('menuitem', { name: EXPORT_FORMAT_LABELS.fcpxml }).textContent())
        .toContain(MSG_PUBLISH.exportUncropped);
      await shot(page, 'publish-handoff-375');
      await page.keyboard.press('Escape');
      await handOff.waitFor({ state: 'detached' });
      await page
        .getByTestId('merge-clip')
        .first()
        .getByRole('button', { name: /^Trim / })
        .click();
      const trim = page.getByRole('dialog', { name: /^Trim / });
      const win = trim.getByRole('slider', { name: MSG_PUBLISH.cropWindow });
      await win.waitFor();
      await expect
        .poll(() => trim.locator('video').evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 })
        .toBeGreaterThanOrEqual(2);
      const box = (await win.boundingBox())!;
      const picture = (await trim.locator('.crop-view__picture').boundingBox())!;
      const before = await windowCentre(win);
      await touchDrag(cdp, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, picture.width * 0.25);
      await expect.poll(() => windowCentre(win)).toBeCloseTo(Math.min(1 - 0.158, before + 0.25), 1);
      await expect.poll(() => trim.getByTestId('crop-status').innerText()).toBe(MSG_PUBLISH.fixed);
      await shot(page, 'publish-crop-375');
    },
  );
  it(
    "the moment dialog's crop over its player: dragged while watching, carried into the moment's publish dialog and its render",
    { timeout: 300_000 },
    async () => {
      const a = await account();
      const { page, cards } = await searchPage(a, { width: 1280, height: 800 });
      const moment = await openMomentDialog(page, cards.first());
      // No shape chosen: no window over the player.
      expect(await moment.getByTestId('player-crop').count()).toBe(0);
      await moment.getByLabel(MSG_PUBLISH.crop).selectOption({ label: RENDER_ASPECT_LABELS['9:16'] });
      const win = moment.getByRole('slider', { name: MSG_PUBLISH.cropWindow });
      await win.waitFor();
      await expect.poll(() => moment.getByTestId('moment-crop-status').innerText()).not.toBe(MSG_PUBLISH.fixed);
      // The window covers the letterboxed picture's 9:16 share, not the player's box.
      const video = moment.locator('.moment-player__stage video');
      const shown = await video.evaluate((v: HTMLVideoElement) => {
        const r = v.getBoundingClientRect();
        const scale = Math.min(r.width / v.videoWidth, r.height / v.videoHeight);
        return { x: r.x + (r.width - v.videoWidth * scale) / 2, width: v.videoWidth * scale, height: v.videoHeight * scale };
      });
      const box = (await win.boundingBox())!;
      expect(box.height).toBeCloseTo(shown.height, -1);
      expect(box.width / shown.width).toBeCloseTo(9 / 16 / (16 / 9), 2);
      expect(box.x).toBeGreaterThanOrEqual(shown.x - 1);

      // A click on the picture beside the window still plays and pauses.
      const paused = () => video.evaluate((v: HTMLVideoElement) => v.paused);
      const was = await paused();
      await page.mouse.click(shown.x + 8, box.y + box.height - 8);
      await expect.poll(paused).toBe(!was);

      // Dragged to the left while the moment plays or not: fixed for the moment.
      const before = await windowCentre(win);
      await mouseDrag(page, box, -shown.width * 0.25);
      await expect.poll(() => windowCentre(win)).toBeCloseTo(Math.max(0.158, before - 0.25), 1);
      await expect.poll(() => moment.getByTestId('moment-crop-status').innerText()).toBe(MSG_PUBLISH.fixed);
      // The arrow keys move the focused window, and only it: the paused playhead stays where it is.
      await video.evaluate((v: HTMLVideoElement) => v.pause());
      const at = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
      const dragged = await windowCentre(win);
      await win.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => windowCentre(win)).toBeCloseTo(dragged + 0.01, 3);
      expect(await video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBe(at);
      const fixed = await windowCentre(win);
      // The crop row sits beside Start and End, in view without scrolling at 1280x800.
      const row = (await moment.getByTestId('moment-crop').boundingBox())!;
      expect(row.y + row.height).toBeLessThanOrEqual((await moment.getByRole('textbox', { name: 'End' }).boundingBox())!.y + 40);
      await shot(page, 'moment-crop-1280');

      // The publish dialog starts from that shape and window, and the render is asked for them.
      const publish = await openMomentPublish(page, moment.getByRole('button', { name: /^Download$/ }));
      expect(await publish.getByLabel(MSG_PUBLISH.aspect).inputValue()).toBe('9:16');
      const publishWin = publish.getByRole('slider', { name: MSG_PUBLISH.cropWindow });
      expect(await windowCentre(publishWin)).toBeCloseTo(fixed, 3);
      expect(await publish.getByTestId('crop-status').innerText()).toBe(MSG_PUBLISH.fixed);
      const asked = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith(API.renderCompilation));
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-moment-crop-'));
      const mp4 = await downloaded(page, work, () => publish.getByRole('button', { name: /^Download MP4/ }).click());
      const request = await asked;
      const body = (
        request.headers()['content-type']?.includes('msgpack') ? decode(request.postDataBuffer()!) : request.postDataJSON()
      ) as { aspect?: string; clips: Array<{ framing?: { x: number; y: number } }> };
      expect(body.aspect).toBe('9:16');
      expect(body.clips[0]!.framing!.x).toBeCloseTo(fixed, 3);
      const probe = ffprobe(mp4);
      const stream = probe.streams.find((s) => s.codec_type === 'video')!;
      expect(stream.width! / stream.height!, JSON.stringify(probe)).toBeCloseTo(9 / 16, 2);
      fs.rmSync(work, { recursive: true, force: true });

      // A reload (the moment's dialog is in the URL) finds its shape and window as they were left.
      await page.reload();
      const again = page.getByRole('dialog').filter({ has: page.getByTestId('moment-crop') });
      const againWin = again.getByRole('slider', { name: MSG_PUBLISH.cropWindow });
      await againWin.waitFor();
      expect(await again.getByTestId('moment-crop').getByLabel(MSG_PUBLISH.crop).inputValue()).toBe('9:16');
      expect(await windowCentre(againWin)).toBeCloseTo(fixed, 3);
      expect(await again.getByTestId('moment-crop-status').innerText()).toBe(MSG_PUBLISH.fixed);
    },
  );
});
