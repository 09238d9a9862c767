import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from '../e2e/harness';
import { openPage, servePages, type PageServer } from './harness';
import type { TestSequence } from './drivers/TestSequence';
import type { RendererPreference } from '../../src/engine/render/pixiApp';

// The clip editor's sequence mode (src/engine/sequence) in real Chromium, driven through
// TestSequence on tests/browser/pages/engine/index.html with pointer and key events.
declare global {
  interface Window {
    s?: TestSequence;
  }
}

let server: PageServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await servePages();
  browser = await openPage(server, 'engine/index.html');
  page = browser.page;
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
});

afterEach(async () => {
  const left = await page.evaluate(async () => {
    const l = window.s ? await window.s.destroy() : null;
    window.s = undefined;
    return l;
  });
  if (left) {
    expect(left.canvasesInDom).toBe(0);
    expect(left.listeners).toEqual({ window: [], container: [] });
    expect(left.animationFrames).toBe(0);
    expect(left.resizeObservers).toBe(0);
    expect(left.teardownSize).toBe(0);
  }
  expect(browser.pageErrors).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Three clips: a 10..14 (4 s), b 20..22 (2 s), c 30..36 (6 s) of 25 fps media; 1200 px wide (100 px/s). */
async function sequence(width = 1200, renderer: RendererPreference = 'auto') {
  await page.evaluate(
    async ({ width, renderer }) => {
      const { TestSequence, testClip } = window.engineTest;
      window.s = await TestSequence.create({
        width,
        clips: [testClip('a', 10, 14), testClip('b', 20, 22), testClip('c', 30, 36)],
        pictures: true,
        renderer,
      });
    },
    { width, renderer },
  );
}

const ids = () => page.evaluate(() => window.s!.state.clips.map((c) => c.id));
const st = () =>
  page.evaluate(() => {
    const s = window.s!.state;
    return {
      ids: s.clips.map((c) => c.id),
      time: s.currentTime,
      duration: s.duration,
      current: s.current,
      canUndo: s.canUndo,
      canRedo: s.canRedo,
    };
  });
const undo = () => page.evaluate(() => window.s!.key('z', { ctrl: true }));
const redo = () => page.evaluate(() => window.s!.key('z', { ctrl: true, shift: true }));

describe('sequence editor', () => {
  it('drags a clip to a new place; undo and redo put it back and again', async () => {
    await sequence();
    // The playhead 1 s into c (t = 7), then c dragged before a.
    await page.evaluate(() => {
      const s = window.s!;
      s.click(s.clientXAt(7));
      s.drag(s.clipCenterX(2), s.clientXAt(0.5));
    });
    expect(await st()).toMatchObject({ ids: ['c', 'a', 'b'], duration: 12, current: 0 });
    // The playhead stayed on the frame it showed: 1 s into c, which is now first. (Pressing on c
    // moved it to c's middle first: 3 s in.)
    expect((await st()).time).toBeCloseTo(3, 6);
    expect(await undo()).toBe(true);
    expect(await ids()).toEqual(['a', 'b', 'c']);
    expect(await redo()).toBe(true);
    expect(await ids()).toEqual(['c', 'a', 'b']);
  });

  it('duplicates and removes; the current time goes to the next clip, or the previous at the end', async () => {
    await sequence();
    await page.evaluate(() => window.s!.engine.duplicate(1));
    expect(await st()).toMatchObject({ ids: ['a', 'b', 'copy-1', 'c'], duration: 14 });
    await undo();
    expect(await st()).toMatchObject({ ids: ['a', 'b', 'c'], duration: 12 });
    await redo();
    expect(await ids()).toEqual(['a', 'b', 'copy-1', 'c']);

    // Playhead in b (t = 5): removing b moves it to the start of the next clip (copy-1, now at 4).
    await page.evaluate(() => window.s!.engine.seek(5));
    await page.evaluate(() => window.s!.engine.remove(1));
    expect(await st()).toMatchObject({ ids: ['a', 'copy-1', 'c'], time: 4, current: 1 });
    // Playhead in the last clip: removing it moves it to the start of the previous one.
    await page.evaluate(() => window.s!.engine.seek(9));
    await page.evaluate(() => window.s!.engine.remove(2));
    expect(await st()).toMatchObject({ ids: ['a', 'copy-1'], time: 4, current: 1, duration: 6 });
    await undo();
    expect(await st()).toMatchObject({ ids: ['a', 'copy-1', 'c'], time: 9 });
    await undo();
    expect(await st()).toMatchObject({ ids: ['a', 'b', 'copy-1', 'c'], time: 5 });
    // Redo replays both removals (the playhead as it was when each was undone; seeks are not edits).
    await redo();
    expect(await st()).toMatchObject({ ids: ['a', 'copy-1', 'c'], time: 9 });
    await redo();
    expect(await st()).toMatchObject({ ids: ['a', 'copy-1'], time: 4, canRedo: false });
  });

  it('trims the current clip with its handle: frame-snapped, 36 px minimum, duration and playhead follow, undoable', async () => {
    await sequence();
    // Playhead 1.52 s into c (t = 7.52, a frame of 25 fps); c's start handle dragged 103 px right (1.03 s -> 26 frames of 25 fps = 1.04 s).
    await page.evaluate(() => window.s!.engine.seek(7.52));
    await page.evaluate(() => window.s!.dragHandle('start', 103));
    const s = await page.evaluate(() => {
      const c = window.s!.state.clips[2]!;
      return {
        range: c.beginEndTimestamp,
        trimmed: c.modifications.trimmed,
        duration: window.s!.state.duration,
        time: window.s!.state.currentTime,
      };
    });
    expect(s.range.startTime).toBeCloseTo(31.04, 6);
    expect(s.range.endTime).toBe(36);
    expect(s.trimmed?.originalTimestamps).toEqual({ startTime: 30, endTime: 36 });
    expect(s.duration).toBeCloseTo(12 - 1.04, 6);
    // The playhead shows the same media frame (31.52 s): 0.48 s into c, which starts at 6.
    expect(s.time).toBeCloseTo(6.48, 6);
    // The end handle dragged far left stops at the minimum: 36 px at ~91 px/s, rounded up to frames.
    await page.evaluate(() => window.s!.dragHandle('end', -900));
    const short = await page.evaluate(() => window.s!.state.clips[2]!.duration);
    const pps = await page.evaluate(() => window.s!.state.viewWidth / window.s!.state.duration);
    expect(short * pps).toBeGreaterThanOrEqual(36 - 1e-6);
    expect(short).toBeGreaterThanOrEqual(0.1);
    expect(Math.abs(short * 25 - Math.round(short * 25))).toBeLessThan(1e-6);
    await undo();
    expect(await page.evaluate(() => window.s!.state.clips[2]!.beginEndTimestamp.endTime)).toBe(36);
    await undo();
    expect(await st()).toMatchObject({ duration: 12 });
    expect((await st()).time).toBeCloseTo(7.52, 6);
    await redo();
    expect((await st()).duration).toBeCloseTo(12 - 1.04, 6);
    expect((await st()).time).toBeCloseTo(6.48, 6);
  });

  it("the moment dialog's power keys work on the sequence: frame step, J/K/L, I/O on the current clip", async () => {
    await sequence();
    await page.evaluate(() => window.s!.engine.seek(5));
    await page.evaluate(() => window.s!.key('.'));
    expect((await st()).time).toBeCloseTo(5.04, 6);
    await page.evaluate(() => window.s!.key(','));
    expect((await st()).time).toBeCloseTo(5, 6);
    const rates = await page.evaluate(() => {
      const s = window.s!;
      s.key('l');
      s.key('l');
      s.key('k');
      s.key('j');
      return s.shuttles;
    });
    expect(rates).toEqual([0, 0, 1, 2, 0, -1]);
    // I at 1 s into b (media 21): b becomes 21..22; O then at its first frame is pushed to the minimum.
    await page.evaluate(() => window.s!.key('i'));
    const b = await page.evaluate(() => window.s!.state.clips[1]!.beginEndTimestamp);
    expect(b).toEqual({ startTime: 21, endTime: 22 });
    expect((await st()).duration).toBeCloseTo(11, 6);
    await page.evaluate(() => window.s!.key('o'));
    expect(await page.evaluate(() => window.s!.state.clips[1]!.beginEndTimestamp.endTime)).toBeLessThan(22);
    await undo();
    await undo();
    expect(await page.evaluate(() => window.s!.state.clips[1]!.beginEndTimestamp)).toEqual({ startTime: 20, endTime: 22 });
  });

  it('asks for the next clip 2 s before each clip ends, once, as playback passes', async () => {
    await sequence();
    const preloads = await page.evaluate(() => {
      const s = window.s!;
      s.play(11.96);
      return s.preloads;
    });
    // a ends at 4 -> preload b at 2; b (2 s long) ends at 6 -> preload c at its start, 4.
    expect(preloads.map((p) => p.next)).toEqual([1, 2]);
    expect(preloads[0]!.at).toBeCloseTo(2, 6);
    expect(preloads[1]!.at).toBeCloseTo(4, 6);
    // After a reorder the schedule follows the new order (c first, 6 s: preload at 4).
    await page.evaluate(() => {
      const s = window.s!;
      s.engine.reorder(2, 0);
      s.engine.seek(0);
      s.preloads.length = 0;
      s.play(5);
    });
    const after = await page.evaluate(() => window.s!.preloads);
    expect(after.map((p) => p.next)).toEqual([1]);
    expect(after[0]!.at).toBeCloseTo(4, 6);
  });

  // Both of Pixi's renderers draw the same picture ('auto' picks canvas on software GL, as here).
  it.each(['webgl', 'canvas'] as const)(
    "shows each clip's picture at the row's height, its block's colour beside it (%s)",
    async (renderer) => {
      await sequence(1200, renderer);
      expect(await page.evaluate(() => window.s!.engine.debug.renderer)).toBe(renderer);
      await page.waitForFunction(() => window.s!.engine.debug.pictures === 3);
      await page.evaluate(() => window.s!.settle());
      const png = await page.getByTestId('sequence-canvas').screenshot();
      const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
      const near = (got: number[], want: number[]) => got.every((v, i) => Math.abs(v - want[i]!) <= 3);
      // The driver's pictures are 160x90 in hsl(47 * id length, 60 %, 50 %): for a, b, c rgb(204, 171, 51).
      // In the 90 px row (below the 30 px ruler) a picture fills 4..86 and is 146 px wide (160 * 82 / 90).
      const picture = [204, 171, 51];
      for (const [x, y] of [
        [2, 35],
        [70, 75],
        [143, 115],
        [420, 75],
        [610, 75],
      ] as const)
        expect(near(at(x, y), picture), `${x},${y}: ${at(x, y)}`).toBe(true);
      // Beyond the picture, and in the strips above and below it, the block's own colour: clip a's (the
      // first) is the ruler's 0x1a1f2a, clip b's the placeholder's 0x222835.
      for (const [x, y] of [
        [150, 75],
        [390, 75],
        [70, 117],
      ] as const)
        expect(near(at(x, y), [0x1a, 0x1f, 0x2a]), `${x},${y}: ${at(x, y)}`).toBe(true);
      expect(near(at(560, 75), [0x22, 0x28, 0x35]), `560,75: ${at(560, 75)}`).toBe(true);
    },
  );

  it('draws only on demand', async () => {
    await sequence();
    const renders = await page.evaluate(async () => {
      const s = window.s!;
      await s.settle();
      const before = s.engine.renders;
      await new Promise((r) => setTimeout(r, 300));
      return s.engine.renders - before;
    });
    expect(renders).toBe(0);
  });
});
