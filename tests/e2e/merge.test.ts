import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTimecode } from '../../src/app/media/momentFormat';
import { MOMENT_LIST_ITEM_WIDTH, MSG_MERGE, ROUTES } from '../../src/contract';
import { COUNTER_FPS, uploadCounterVideo } from '../fixtures/counterVideo';
import { createVerifiedUser, e2eSuite, SCREENSHOT_DIR, signIn, uniqueEmail } from './harness';

/**
 * Merging in the real app: 3 moments from 2 counter videos (every frame shows its number; video B's
 * numbers start at 512 and it has a shot cut at 6 s, so a search finds it as two moments) are merged,
 * reordered, duplicated, trimmed and removed in the editor, played across every clip boundary, built
 * into a local preview with ffmpeg.wasm and downloaded; both files' frames are read back.
 */
const { app, openBrowser } = e2eSuite();
const B_OFFSET = 512;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-e2e-merge-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

interface ListedClip {
  mediaId: string;
  start: number;
  end: number;
}

const hundredths = (s: number) => Math.round(s * 100) / 100;

/** The editor's clips as the moment list shows them (precise time codes, media ids). */
async function listed(page: Page): Promise<ListedClip[]> {
  const items = await page
    .getByTestId('merge-clip')
    .evaluateAll((els) => els.map((e) => ({ mediaId: e.getAttribute('data-media-id')!, label: e.getAttribute('aria-label')! })));
  return items.map(({ mediaId, label }) => {
    const m = /, (\S+) to (\S+)$/.exec(label)!;
    return { mediaId, start: hundredths(parseTimecode(m[1]!)!), end: hundredths(parseTimecode(m[2]!)!) };
  });
}

/** Frame numbers of every frame of an MP4 (the stripes across the top 100 of 360 lines), in order. */
function framesOf(file: string): number[] {
  const raw = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-vf', 'crop=iw:ih*100/360:0:0,scale=10:1:flags=area', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const out: number[] = [];
  for (let k = 0; k + 10 <= raw.length; k += 10) {
    let n = 0;
    for (let i = 0; i < 10; i++) if (raw[k + i]! > 128) n |= 1 << i;
    out.push(n);
  }
  return out;
}

const probeDuration = (file: string) =>
  Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]).toString().trim());

/** The frame numbers a clip list should produce, clip after clip. */
function expectedFrames(clips: ListedClip[], offsetOf: (mediaId: string) => number): number[] {
  return clips.flatMap((c) => {
    const first = Math.round(c.start * COUNTER_FPS);
    const count = Math.round((c.end - c.start) * COUNTER_FPS);
    return Array.from({ length: count }, (_, i) => first + i + offsetOf(c.mediaId));
  });
}

/** Runs of consecutive frame numbers: [first, last] per run. */
function runs(frames: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const f of frames) {
    const last = out[out.length - 1];
    if (last && f === last[1] + 1) last[1] = f;
    else out.push([f, f]);
  }
  return out;
}

describe('merge moments', () => {
  it('merges 3 moments of 2 videos, edits, plays across each boundary, previews locally and downloads', { timeout: 600_000 }, async () => {
    const email = uniqueEmail('merge');
    const password = 'merge password';
    await createVerifiedUser(app, email, password);
    const a = await uploadCounterVideo(app.url, email, password, { name: 'counter-a.mp4' });
    const b = await uploadCounterVideo(app.url, email, password, { name: 'counter-b.mp4', offset: B_OFFSET, cutAt: 6 });
    expect([a.media.status, b.media.status]).toEqual(['completed', 'completed']);
    const offsetOf = (mediaId: string) => (mediaId === b.media._id ? B_OFFSET : 0);

    const { page } = await openBrowser({ width: 1280, height: 900 });
    await signIn(page, app.url, email, password, `${ROUTES.search}?libs=${a.library._id}`);
    await page.waitForURL((u) => u.pathname === ROUTES.search);
    await page.getByPlaceholder(/Ask me anything/).fill('counter');
    const cardsOf = (id: string) => page.locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${id}"]`);
    await cardsOf(a.media._id).first().waitFor({ timeout: 60_000 });
    // B's cut (and its changing stripes) split it into several shots: a moment each.
    await expect.poll(() => cardsOf(b.media._id).count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);

    // Select A's moment, then B's two; Merge is disabled with one selected and enabled with three.
    await cardsOf(a.media._id).first().getByRole('checkbox').check();
    const bar = page.getByRole('toolbar', { name: 'Selection' });
    const merge = bar.getByRole('button', { name: MSG_MERGE.merge });
    expect(await merge.isDisabled()).toBe(true);
    for (const card of (await cardsOf(b.media._id).all()).slice(0, 2)) await card.getByRole('checkbox').check();
    await bar.getByText('3 selected').waitFor();
    await merge.click();
    const dialog = page.getByRole('dialog', { name: MSG_MERGE.dialogTitle });
    await dialog.getByTestId('sequence-timeline').locator('canvas').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('merge-clip').count()).toBe(3);
    const initial = await listed(page);
    expect(initial.map((c) => offsetOf(c.mediaId))).toEqual([0, B_OFFSET, B_OFFSET]);
    const [clipA, clipB1, clipB2] = initial as [ListedClip, ListedClip, ListedClip];
    // Items are the spec's 176 px wide.
    expect(
      await page
        .getByTestId('merge-clip')
        .first()
        .evaluate((e) => e.getBoundingClientRect().width),
    ).toBe(MOMENT_LIST_ITEM_WIDTH);
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'merge-dialog-1280.png') });

    // Reorder from the keyboard: A focused, Alt+Right moves it after B1, and a live region says so.
    await page.getByTestId('merge-clip').first().focus();
    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(() => listed(page)).toEqual([clipB1, clipA, clipB2]);
    expect(await page.getByTestId('merge-announcement').innerText()).toMatch(/to position 2 of 3\.$/);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^2 of 3: /);

    // Duplicate B2, trim A (the Trim dialog) to its middle, remove B1.
    await dialog
      .getByRole('button', { name: /^Duplicate / })
      .nth(2)
      .click();
    await expect.poll(() => listed(page)).toEqual([clipB1, clipA, clipB2, clipB2]);
    await dialog
      .getByRole('button', { name: /^Trim / })
      .nth(1)
      .click();
    const trim = page.getByRole('dialog', { name: /^Trim / });
    const setField = async (label: string, seconds: number) => {
      const field = trim.getByLabel(label, { exact: true });
      await field.click();
      await field.fill(seconds.toFixed(2));
      await field.press('Enter');
    };
    const lengthA = Math.round((clipA.end - clipA.start) * COUNTER_FPS);
    const trimmedA = {
      mediaId: clipA.mediaId,
      start: hundredths(clipA.start + Math.floor(lengthA / 4) / COUNTER_FPS),
      end: hundredths(clipA.end - Math.floor(lengthA / 8) / COUNTER_FPS),
    };
    expect(trimmedA.end - trimmedA.start).toBeGreaterThanOrEqual(0.2);
    await setField('Start', trimmedA.start);
    await setField('End', trimmedA.end);
    await trim.getByRole('button', { name: 'Confirm' }).click();
    await trim.waitFor({ state: 'detached' });
    await expect.poll(() => listed(page)).toEqual([clipB1, trimmedA, clipB2, clipB2]);
    await dialog
      .getByRole('button', { name: /^Remove / })
      .first()
      .click();
    const final = [trimmedA, clipB2, clipB2];
    await expect.poll(() => listed(page)).toEqual(final);
    // Undo brings B1 back, redo removes it again.
    await page.getByTestId('merge-clip').first().focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => page.getByTestId('merge-clip').count()).toBe(4);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => listed(page)).toEqual(final);
    const total = final.reduce((s, c) => s + c.end - c.start, 0);

    // Play from the start across both boundaries: the frame clock saw each switch, from the last
    // frame of one clip to the first of the next.
    await page.evaluate(() => (window.__mergeSwitches = []));
    await page.getByTestId('merge-clip').first().click();
    await dialog.getByRole('button', { name: 'Play' }).click();
    await page
      .waitForFunction(() => (window.__mergeSwitches?.length ?? 0) >= 2, null, { timeout: (total + 30) * 1000 })
      .catch(async (e: unknown) => {
        const seen = await page.evaluate(() => ({
          switches: window.__mergeSwitches,
          trace: window.__mergePlayback?.trace,
          time: document.querySelector('[data-testid=merge-time]')?.textContent,
          videos: [...document.querySelectorAll<HTMLVideoElement>('[data-testid=merge-video]')].map((v) => ({
            t: v.currentTime,
            paused: v.paused,
            ready: v.readyState,
            shown: v.style.visibility,
          })),
        }));
        throw new Error(`${String(e)}; clips ${JSON.stringify(final)}; seen ${JSON.stringify(seen)}`);
      });
    const switches = await page.evaluate(() => window.__mergeSwitches!);
    const frame = 1 / COUNTER_FPS;
    const trace = await page.evaluate(() => window.__mergePlayback?.trace ?? []);
    console.log('clip switches', JSON.stringify(switches), trace.slice(-12));
    for (const [i, s] of switches.slice(0, 2).entries()) {
      expect(s).toMatchObject({ from: i, to: i + 1 });
      // The last frame shown is the clip's last, or a few frames after it: frame callbacks come late
      // when both cores are busy (6 frames were seen at a load average of 15), so the bound here is
      // loose; the merge benchmark measures the switch on a quiet machine. The next clip starts on
      // its first frame: one that ran past it while callbacks were late is sought back to it.
      expect(s.lastMediaTime - (final[i]!.end - frame)).toBeGreaterThan(-frame / 2);
      expect(s.lastMediaTime - (final[i]!.end - frame)).toBeLessThan(frame * 8.5);
      expect(Math.abs(s.firstMediaTime - final[i + 1]!.start)).toBeLessThan(frame * 0.75);
      // No blank between them: the last frame stays until the next clip's first is there. These clips
      // are about a second long (the counter's stripes cut a shot every 1.28 s), less than hls.js needs
      // to attach a media on this shared machine; the benchmark holds the gap on 2.5 s clips.
      expect(s.firstFrameAt - s.lastFrameAt).toBeLessThan(1000);
    }
    await dialog
      .getByRole('button', { name: 'Pause' })
      .click()
      .catch(() => undefined);

    // The local preview (ffmpeg.wasm in a worker, the core from the app's own assets): its frames are
    // the editor's clips, in order, frame for frame.
    const coreRequests: string[] = [];
    page.on('request', (r) => {
      if (/ffmpeg-core/.test(r.url())) coreRequests.push(r.url());
    });
    await dialog.getByRole('button', { name: 'Build preview' }).click();
    const preview = dialog.getByTestId('local-preview');
    await preview.waitFor({ timeout: 120_000 });
    expect(coreRequests.length).toBeGreaterThan(0);
    expect(coreRequests.every((u) => u.startsWith(app.url))).toBe(true);
    const bytes = await preview.evaluate(async (v: HTMLVideoElement) => {
      const buf = new Uint8Array(await (await fetch(v.src)).arrayBuffer());
      let s = '';
      for (let i = 0; i < buf.length; i += 0x8000) s += String.fromCharCode(...buf.subarray(i, i + 0x8000));
      return btoa(s);
    });
    const previewFile = path.join(work, 'preview.mp4');
    fs.writeFileSync(previewFile, Buffer.from(bytes, 'base64'));
    const want = expectedFrames(final, offsetOf);
    expect(runs(framesOf(previewFile))).toEqual(runs(want));
    expect(probeDuration(previewFile)).toBeCloseTo(total, 1);
    // And Chromium plays it to its end.
    await preview.evaluate(async (v: HTMLVideoElement) => {
      v.muted = true;
      v.currentTime = Math.max(0, v.duration - 0.5);
      await v.play();
      await new Promise((r) => v.addEventListener('ended', r, { once: true }));
    });

    // Download through the server's compilation render: MP4, the clips in the editor's order and lengths.
    const saved = page.waitForEvent('download', { timeout: 180_000 });
    await dialog.getByRole('button', { name: 'Download MP4' }).click();
    const download = await saved;
    expect(await download.failure()).toBeNull();
    const file = path.join(work, download.suggestedFilename());
    await download.saveAs(file);
    expect(probeDuration(file)).toBeCloseTo(total, 1);
    const got = framesOf(file);
    expect(runs(got)).toEqual(runs(want));

    // The dialog at a phone's width.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'merge-dialog-375.png'), fullPage: false });
  });
});
