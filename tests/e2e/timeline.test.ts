import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseTimecode } from '../../src/app/media/momentFormat';
import { ROUTES } from '../../src/contract';
import { COUNTER_FPS, uploadCounterVideo } from '../fixtures/counterVideo';
import { createVerifiedUser, e2eSuite, SCREENSHOT_DIR, shownFrame, signIn, uniqueEmail } from './harness';

/**
 * The moment viewer's timeline in the real app: frame stepping on a video whose every frame shows
 * its own number, a handle drag, a trim, and the trimmed range found again on reopening.
 */

const { app, openBrowser } = e2eSuite();

const zoomText = (page: Page) => page.locator('.timeline__zoom-value').innerText();
const rangeText = (page: Page) => page.getByTestId('moment-range').first().innerText();

describe('moment timeline', () => {
  it('steps frame by frame, drags a handle, trims, and keeps the trim', { timeout: 240_000 }, async () => {
    const email = uniqueEmail('timeline');
    const password = 'timeline password';
    await createVerifiedUser(app, email, password);
    // The counter video goes in through the upload API (the UI upload has its own tests).
    const { library: lib, media } = await uploadCounterVideo(app.url, email, password);
    expect(media.status).toBe('completed');
    expect(media.metadata.video.frameRate).toBe(COUNTER_FPS);

    const { page } = await openBrowser();
    // The timeline's thumbnails: keyframe tiles from the thumbnail track (issue 41), the original only for frame-exact ones.
    const reads: Array<{ path: string; status: number }> = [];
    page.on('response', (r) => reads.push({ path: new URL(r.url()).pathname, status: r.status() }));
    const readsOf = (file: string) => reads.filter((r) => r.path.endsWith(file));
    expect(media.capabilities.thumbnailTrack).toBe(true);
    await signIn(page, app.url, email, password, `${ROUTES.search}?libs=${lib._id}`);
    await page.waitForURL((u) => u.pathname === ROUTES.search);
    await page.getByPlaceholder(/Ask me anything/).fill('counter');
    const card = page.locator(`.moment-card[data-media-id="${media._id}"]`).first();
    await card.waitFor({ timeout: 30_000 });
    await card.locator('.moment-card__frame').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('timeline-canvas').locator('canvas').waitFor();
    await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('[role=dialog] video')?.readyState ?? 0) >= 2);

    // Frame stepping: '.' forward, ',' back, one frame at a time, the picture says which.
    await dialog.getByRole('button', { name: 'Zoom in' }).focus();
    await page.keyboard.press('k'); // K stops playback (the dialog autoplays the moment)
    await page.waitForFunction(() => document.querySelector<HTMLVideoElement>('[role=dialog] video')!.paused, null, { timeout: 5_000 });
    await page.keyboard.press('Home');
    const frame = (expected: number) => expect.poll(() => shownFrame(page), { timeout: 5_000 }).toBe(expected);
    await frame(0);
    for (const [key, expected] of [
      ['.', 1],
      ['.', 2],
      ['.', 3],
      ['.', 4],
      ['.', 5],
      ['.', 6],
      [',', 5],
      [',', 4],
    ] as const) {
      await page.keyboard.press(key);
      await frame(expected);
    }
    // and the playhead's timecode says the same frame
    await expect.poll(() => dialog.locator('.timeline__timecode').innerText()).toMatch(/00:00:00[:.]04$/);
    // Shift+→ is one second: 25 frames on
    await page.keyboard.press('Shift+ArrowRight');
    await frame(29);

    // Zoom: 100 %, 1,000 %, 10,000 %, each looked at.
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    // For the pictures only: the timeline keeps the old thumbnails stretched while a zoom settles and
    // asks for new ones 120 ms after it stops; give them time to arrive (nothing is asserted on them).
    const settled = () => page.waitForTimeout(2_000);
    expect(await zoomText(page)).toBe('100 %');
    await settled();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'timeline-zoom-100.png') });
    expect(readsOf('/thumbnails/track.mp4').length).toBeGreaterThan(0);
    expect(readsOf('/thumbnails/track.mp4').every((r) => r.status === 206)).toBe(true);
    expect(readsOf('/source.mp4')).toEqual([]);
    const slider = dialog.getByRole('slider', { name: 'Zoom' });
    await slider.focus();
    await page.keyboard.press('End');
    await expect.poll(() => zoomText(page)).toBe('10000 %');
    await settled();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'timeline-zoom-10000.png') });
    await page.keyboard.press('Home');
    for (let i = 0; i < 50; i++) await page.keyboard.press('PageUp');
    await expect.poll(() => zoomText(page)).toBe('1000 %');
    await settled();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'timeline-zoom-1000.png') });
    await page.keyboard.press('Home');
    await expect.poll(() => zoomText(page)).toBe('100 %');

    // Drag the moment's end handle left by a quarter of the timeline: the range follows, frame-aligned.
    const before = await rangeText(page);
    const box = (await dialog.getByTestId('timeline-canvas').boundingBox())!;
    const momentEnd = parseTimecode(before.split('–')[1]!.trim().split(/\s/)[0]!)!;
    const handleX = box.x + (momentEnd / media.metadata.video.duration) * box.width;
    expect(momentEnd).toBeGreaterThan(1);
    await page.mouse.move(handleX - 2, box.y + 60);
    await page.mouse.down();
    await page.mouse.move(handleX - box.width / 4, box.y + 60, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => rangeText(page)).not.toBe(before);
    const dragged = await rangeText(page);

    // The drag trimmed the moment in place (no second dialog); reopen: the trimmed range is there.
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await card.locator('.moment-card__frame').click();
    await page.getByRole('dialog').getByTestId('timeline-canvas').locator('canvas').waitFor();
    expect(await rangeText(page)).toBe(dragged);
  });
});
