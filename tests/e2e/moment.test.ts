import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { API, MSG_MOMENT, mediaPath, ROUTES, type FolderResponse, type Library, type Media, type TranscriptFile } from '../../src/contract';
import { e2eSuite, SCREENSHOT_DIR, WITH_DEMO } from './harness';

/** Indexing the two demo videos (speech, objects, embeddings) takes a while on a small machine. */
const DEMO_READY_MS = 240_000;

const { app, signedIn } = e2eSuite(WITH_DEMO);

/** A full-window screenshot once the dialogs' videos show a frame and every image has settled. */
async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll<HTMLVideoElement>('[role=dialog] video')].every((v) => v.readyState >= 2) &&
      [...document.images].every((img) => img.complete),
    null,
    { timeout: 20_000 },
  );
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

/** A JSON API GET made by the page with its own session token. */
function get<T>(page: Page, p: string): Promise<T> {
  return page.evaluate(async (p) => {
    const r = await fetch(p, {
      headers: { accept: 'application/json', authorization: `Bearer ${localStorage.getItem('clipseek.token')}` },
    });
    const json = (await r.json()) as { data: unknown; error?: { message: string } };
    if (!r.ok) throw new Error(`GET ${p} answered ${r.status}: ${json.error?.message}`);
    return json.data;
  }, p) as Promise<T>;
}

/** Waits until both demo videos are indexed (search covers completed media only). */
async function waitForDemo(page: Page): Promise<{ demo: Library; files: Media[] }> {
  const until = Date.now() + DEMO_READY_MS;
  for (;;) {
    const demo = (await get<Library[]>(page, API.libraries)).find((l) => l.isDemo);
    if (demo) {
      const { files } = await get<FolderResponse>(page, API.folder(demo._id));
      if (files.length === 2 && files.every((f) => f.status === 'completed')) return { demo, files };
      if (files.some((f) => f.status === 'errored')) throw new Error(`Demo media failed: ${JSON.stringify(files.map((f) => f.error))}`);
    }
    if (Date.now() > until) throw new Error('The demo library did not finish indexing in time');
    // Indexing has no event a page can await: poll the API, as the search test does.
    await page.waitForTimeout(2000);
  }
}

const dialogVideo = (dialog: Locator) => dialog.locator('.moment-player video').first();
const videoState = (dialog: Locator) =>
  // t: the media's time (the element's clock minus the B-frame offset the player measured)
  dialogVideo(dialog).evaluate((v: HTMLVideoElement) => ({
    t: Math.max(0, v.currentTime - Number(v.dataset.mediaTimeOffset ?? 0)),
    volume: v.volume,
    muted: v.muted,
    paused: v.paused,
  }));

describe('moment viewer', () => {
  it(
    'plays a moment with custom controls, follows the transcript, trims it and keeps the trim',
    { timeout: DEMO_READY_MS + 240_000 },
    async () => {
      const { page } = await signedIn('moment', ROUTES.search);
      const { demo, files } = await waitForDemo(page);
      const animals = files.find((f) => f.metadata.filename === 'animals.mp4')!;
      const transcript = await get<TranscriptFile>(page, `${API.transcriptJson}?libraryId=${demo._id}&mediaId=${animals._id}`);
      // The second sentence is spoken from 4 s ('Horses run across the field'; the recogniser's words vary).
      const second = transcript.segments.find((s) => s.start >= 3.5 && s.start < 7);
      expect(second, `a transcript line from 4 s in ${JSON.stringify(transcript.segments)}`).toBeTruthy();

      // A conversational search for the words of the first line ('A dog sits by the bicycle', as heard).
      const first = transcript.segments[0]!;
      await page.goto(`${app.url}${ROUTES.search}?${new URLSearchParams({ libs: demo._id, text: first.text, search: 'transcript' })}`);
      const card = page.locator(`.moment-card[data-media-id="${animals._id}"]`).filter({ hasText: first.text }).first();
      await card.waitFor({ timeout: 30_000 }).catch(async (e: unknown) => {
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'moment-debug.png') });
        throw e;
      });
      const chip = card.locator('.moment-card__chips .time-chip').first();
      const originalChip = await chip.innerText();
      expect(originalChip).toMatch(/^00:00:0\d – 00:00:0\d$/);

      // The dialog: our player (no native controls), the transcript tab first for a moment with words.
      await card.locator('.moment-card__frame').click();
      const dialog = page.getByRole('dialog', { name: 'animals', exact: true });
      await dialog.getByRole('radio', { name: 'Transcript', checked: true }).waitFor();
      await dialog.getByRole('radio', { name: MSG_MOMENT.moment, checked: true }).waitFor();
      const video = dialogVideo(dialog);
      expect(await video.evaluate((v: HTMLVideoElement) => v.controls)).toBe(false);
      await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.moment-player video')?.readyState ?? 0) >= 2, null, {
        timeout: 20_000,
      });
      await dialog.getByTestId('timeline-slot').waitFor({ state: 'attached' });
      await dialog.getByTestId('moment-range').waitFor();
      await dialog.locator('.moment-lines__item--in').filter({ hasText: first.text }).waitFor();
      // The search's words are marked in the transcript.
      expect(await dialog.locator('.moment-lines__item--in mark.moment-lines__match').count()).toBeGreaterThan(0);
      await shot(page, 'moment-dialog');

      // Pause, then a click on the second line seeks there; outside the moment it switches to Full video.
      await dialog.getByRole('button', { name: 'Pause' }).click();
      await dialog.getByRole('button', { name: 'Play' }).waitFor();
      await dialog.getByRole('list', { name: 'Transcript' }).getByRole('button', { name: second!.text }).click();
      await dialog.getByRole('radio', { name: MSG_MOMENT.fullVideo, checked: true }).waitFor();
      expect((await videoState(dialog)).t).toBeCloseTo(second!.start, 1);
      await dialog.locator('.moment-lines__item--active').filter({ hasText: second!.text }).waitFor();

      // The user's own scroll of the lines pauses auto-follow; it resumes 5 s later.
      const lines = dialog.getByRole('list', { name: 'Transcript' });
      await lines.hover();
      await page.mouse.wheel(0, 60);
      await dialog.locator('.moment-lines[data-follow="paused"]').waitFor();
      await dialog.locator('.moment-lines[data-follow="on"]').waitFor({ timeout: 8000 });

      // The time input: a valid time code seeks, clamped to the media; Escape and nonsense change nothing.
      const timeInput = dialog.getByRole('textbox', { name: 'Current time' });
      await timeInput.click();
      await timeInput.fill('00:00:10');
      await timeInput.press('Enter');
      expect((await videoState(dialog)).t).toBeCloseTo(10, 1);
      await expect.poll(() => timeInput.inputValue()).toBe('00:00:10');
      await timeInput.click();
      await timeInput.fill('00:00:02');
      await timeInput.press('Escape');
      expect(await dialog.isVisible(), 'Escape in the field leaves the dialog open').toBe(true);
      expect((await videoState(dialog)).t).toBeCloseTo(10, 1);
      expect(await timeInput.inputValue()).toBe('00:00:10');
      await timeInput.click();
      await timeInput.fill('ten seconds');
      await timeInput.press('Enter');
      expect((await videoState(dialog)).t).toBeCloseTo(10, 1);
      expect(await timeInput.inputValue()).toBe('00:00:10');
      expect(await timeInput.getAttribute('aria-invalid')).toBe('true');
      // Arrow keys seek 5 s; under 5 s the position snaps to 0 (keys on a control of the player).
      await dialog.getByRole('button', { name: 'Play' }).focus();
      await page.keyboard.press('ArrowLeft');
      expect((await videoState(dialog)).t).toBeCloseTo(5, 1);
      await page.keyboard.press('ArrowRight');
      expect((await videoState(dialog)).t).toBeCloseTo(10, 1);
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      // the timeline seeks to the middle of frame 0
      expect((await videoState(dialog)).t).toBeLessThan(0.05);
      await timeInput.click();
      await timeInput.fill('99:00:00');
      await timeInput.press('Enter');
      const end = (await videoState(dialog)).t;
      expect(end).toBeGreaterThan(animals.metadata.video.duration - 0.5);
      expect(end).toBeLessThanOrEqual(animals.metadata.video.duration + 0.05);

      // Volume: 100 by default; the slider at 50 plays at 0.25 (quadratic); mute remembers 50.
      const volume = dialog.getByRole('slider', { name: 'Volume' });
      expect(await volume.getAttribute('aria-valuenow')).toBe('100');
      expect((await videoState(dialog)).volume).toBe(1);
      await volume.focus();
      for (let i = 0; i < 5; i++) await volume.press('PageDown');
      await expect.poll(() => volume.getAttribute('aria-valuenow')).toBe('50');
      expect((await videoState(dialog)).volume).toBeCloseTo(0.25, 5);
      await dialog.getByRole('button', { name: 'Mute' }).click();
      expect((await videoState(dialog)).muted).toBe(true);
      expect(await volume.getAttribute('aria-valuenow')).toBe('0');
      await dialog.getByRole('button', { name: 'Unmute' }).click();
      expect(await videoState(dialog)).toMatchObject({ muted: false, volume: 0.25 });
      expect(await volume.getAttribute('aria-valuenow')).toBe('50');

      // Fullscreen on the player, and back.
      await dialog.getByRole('button', { name: 'Full screen' }).click();
      await page.waitForFunction(() => document.fullscreenElement?.classList.contains('moment-player') ?? false);
      await page.getByRole('button', { name: 'Exit full screen' }).click();
      await page.waitForFunction(() => document.fullscreenElement === null);

      // Trim in place (no second dialog): a start after the end is no range and is not saved; a valid one is saved at once.
      expect(await dialog.getByRole('button', { name: 'Trim', exact: true }).count()).toBe(0);
      const trim = dialog.getByRole('group', { name: 'Trim' });
      const start = trim.getByRole('textbox', { name: 'Start' });
      const finish = trim.getByRole('textbox', { name: 'End' });
      await start.click();
      await start.fill('00:00:09');
      await start.press('Tab');
      await trim.getByText(MSG_MOMENT.noRangeSelected, { exact: false }).waitFor();
      expect(await dialog.getByTestId('moment-trimmed').count()).toBe(0);
      await start.click();
      await start.fill('00:00:01');
      await start.press('Tab');
      await finish.fill('00:00:03.5');
      await finish.press('Tab');
      await trim.getByText('Length 2.5s').waitFor();
      await shot(page, 'moment-trim-in-place');
      await dialog.getByTestId('moment-dialog-range').filter({ hasText: '00:00:01 – 00:00:03' }).waitFor();
      await dialog.getByTestId('moment-range').filter({ hasText: '00:00:01 – 00:00:03.5' }).waitFor();

      // Moment mode now loops the trimmed range.
      await dialog.getByRole('radio', { name: MSG_MOMENT.moment }).click();
      await page.waitForFunction(() => {
        const v = document.querySelector<HTMLVideoElement>('.moment-player video');
        return Boolean(v && v.currentTime >= 1 && v.currentTime < 3.5);
      });

      // The card shows the trimmed range, also after closing and reopening, and after a reload.
      await dialog.getByRole('button', { name: 'Close' }).last().click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => chip.innerText()).toBe('00:00:01 – 00:00:03');
      await card.locator('.moment-card__frame').click();
      await dialog.getByTestId('moment-dialog-range').filter({ hasText: '00:00:01 – 00:00:03' }).waitFor();
      await dialog.getByRole('button', { name: 'Close' }).last().click();
      await dialog.waitFor({ state: 'detached' });
      await page.reload();
      await card.waitFor({ timeout: 30_000 });
      await expect.poll(() => chip.innerText()).toBe('00:00:01 – 00:00:03');

      // The card says it is trimmed; its dialog opens on the saved range.
      await card.getByTestId('moment-card-trimmed').waitFor();
      await card.locator('.moment-card__frame').click();
      await start.waitFor();
      expect(await start.inputValue()).toBe('00:00:01');
      expect(await finish.inputValue()).toBe('00:00:03.5');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // A visual result opens on the visual summary.
      await page.goto(`${app.url}${ROUTES.search}?libs=${demo._id}&text=dog&search=visual`);
      const visual = page.locator(`.moment-card[data-media-id="${animals._id}"]`).first();
      await visual.waitFor({ timeout: 30_000 });
      await visual.locator('.moment-card__frame').click();
      await page.getByRole('dialog').getByRole('radio', { name: 'Visual summary', checked: true }).waitFor();
      await page.getByRole('dialog').getByRole('list', { name: 'Visual summary' }).locator('.moment-lines__item').first().waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      // The media modal plays the full video with the same controls and panel, and no moment toggle. A
      // playlist that fails to load shows the retry overlay; a click on it loads again.
      const playlist = `${app.url}${API.mediaPreview(demo._id, animals._id)}?**`;
      await page.route(playlist, (route) => route.abort('failed'));
      // ?tab=transcript on the library address opens the side panel on the transcript (the default is visual).
      await page.goto(`${app.url}${mediaPath(demo._id, animals._id)}?tab=transcript`);
      const modal = page.getByRole('dialog', { name: 'animals', exact: true });
      const retry = modal.getByRole('button', { name: MSG_MOMENT.retryLoading });
      await retry.waitFor({ timeout: 20_000 });
      await page.unroute(playlist);
      await retry.click();
      await retry.waitFor({ state: 'detached' });
      await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.moment-player video')?.readyState ?? 0) >= 2, null, {
        timeout: 20_000,
      });
      await modal.getByRole('slider', { name: 'Volume' }).waitFor();
      await modal.getByTestId('timeline-slot').waitFor({ state: 'attached' });
      await modal.getByRole('list', { name: 'Transcript' }).waitFor();
      expect(await modal.getByRole('radio', { name: MSG_MOMENT.fullVideo }).count()).toBe(0);
      await shot(page, 'moment-media-modal');
    },
  );
});
