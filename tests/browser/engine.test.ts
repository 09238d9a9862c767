import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from '../e2e/harness';
import { openPage, servePages, type PageServer } from './harness';
import type { SyntheticThumbnails } from './drivers/SyntheticThumbnails';
import type { TestTimeline } from './drivers/TestTimeline';
import type { RendererPreference } from '../../src/engine/render/pixiApp';
import type { MomentRange, TimelineMedia } from '../../src/engine/TimelineEngine';

// The timeline engine in real Chromium (WebGL through SwiftShader), driven through TestTimeline on
// tests/browser/pages/engine/index.html.
const SCREENSHOTS = path.join(import.meta.dirname, 'screenshots');

let server: PageServer;
let browser: Browser;
let page: Page;

/** The serialisable part of TestTimelineOptions. */
interface Options {
  width?: number;
  media?: Partial<TimelineMedia>;
  range?: MomentRange | null;
  renderer?: RendererPreference;
}

declare global {
  interface Window {
    t?: TestTimeline;
    thumbs?: SyntheticThumbnails;
  }
}

beforeAll(async () => {
  server = await servePages();
  browser = await openPage(server, 'engine/index.html');
  page = browser.page;
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
});

afterEach(async () => {
  await page.evaluate(async () => {
    if (window.t && !window.t.engine.destroyed) await window.t.destroy();
    window.t = undefined;
    window.thumbs?.destroy();
    window.thumbs = undefined;
  });
  expect(browser.pageErrors).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Creates a TestTimeline on the page as window.t; `thumbs` adds window.thumbs (SyntheticThumbnails). */
async function timeline(options: Options = {}, thumbs?: { latencyMs?: number; failWith?: string }) {
  await page.evaluate(
    async ({ o, th }) => {
      if (th) window.thumbs = new window.engineTest.SyntheticThumbnails(th);
      window.t = await window.engineTest.TestTimeline.create({ ...o, thumbnails: window.thumbs ?? null });
    },
    { o: options, th: thumbs },
  );
}

const state = () => page.evaluate(() => window.t!.state);
const key = (k: string, shift = false) => page.evaluate(({ k, shift }) => window.t!.key(k, { shift }), { k, shift });

describe('zoom and pan', () => {
  it('zoom stays within 100..10000 % whatever the wheel or the API asks', async () => {
    await timeline({ width: 1000, media: { duration: 600 } });
    const z = await page.evaluate(() => {
      const t = window.t!;
      const x = t.clientX(500);
      for (let i = 0; i < 50; i++) t.wheel(400, x);
      const low = t.state.zoom;
      for (let i = 0; i < 80; i++) t.wheel(-400, x, { ctrlKey: true });
      const high = t.state.zoom;
      t.engine.setZoom(1e9);
      const api = t.state.zoom;
      t.engine.setZoom(-5);
      return { low, high, api, apiLow: t.state.zoom };
    });
    expect(z).toEqual({ low: 100, high: 10_000, api: 10_000, apiLow: 100 });
  });

  it('keeps the time under the pointer in place while zooming in and out', async () => {
    await timeline({ width: 1000, media: { duration: 7200 } });
    const drift = await page.evaluate(() => {
      const t = window.t!;
      const x = t.clientX(630);
      const anchor = t.timeAtClientX(x);
      let worst = 0;
      for (const dy of [...Array<number>(15).fill(-120), ...Array<number>(10).fill(90)]) {
        t.wheel(dy, x, { ctrlKey: true });
        worst = Math.max(worst, Math.abs(t.clientXAt(anchor) - x));
      }
      return { worst, zoom: t.state.zoom };
    });
    expect(drift.zoom).toBeGreaterThan(250); // 1.2^15 / 1.2^(10 * 0.9) = 2.99x
    expect(drift.worst).toBeLessThan(1);
  });

  it('a ctrl+wheel notch zooms by a small fixed step, a pinch at the same rate; a plain wheel scrolls sideways', async () => {
    await timeline({ width: 1000, media: { duration: 600 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      const x = t.clientX(500);
      t.engine.setZoom(500, x);
      const notches = [-100, -120, -300, -5000].map((dy) => {
        const before = t.state.zoom;
        t.wheel(dy, x, { ctrlKey: true });
        return t.state.zoom / before;
      });
      const lines = t.state.zoom;
      t.wheel(-3, x, { ctrlKey: true, deltaMode: 1 });
      const lineNotch = t.state.zoom / lines;
      const pinchFrom = t.state.zoom;
      for (let i = 0; i < 50; i++) t.wheel(-2, x, { ctrlKey: true });
      const pinch = t.state.zoom / pinchFrom;
      const viewStart = t.state.viewStart;
      t.wheel(100, x);
      return { notches, lineNotch, pinch, plain: { zoom: t.state.zoom, moved: t.state.viewStart - viewStart } };
    });
    for (const n of r.notches) expect(n).toBeCloseTo(1.2, 9);
    expect(r.lineNotch).toBeLessThanOrEqual(1.2 + 1e-9);
    expect(r.pinch).toBeCloseTo(1.2, 9); // 50 deltas of 2 px: one notch's worth
    expect(r.plain.zoom).toBeCloseTo(500 * 1.2 ** 5 * r.lineNotch, 6);
    expect(r.plain.moved).toBeGreaterThan(0); // 100 px to the right
  });

  it('pans only within the media', async () => {
    await timeline({ width: 1000, media: { duration: 100 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      t.engine.panBy(500);
      const atFull = t.state.viewStart; // 100 %: nothing to pan
      t.engine.setZoom(1000, t.clientX(0));
      t.wheel(0, 0, { deltaX: 300 }); // horizontal wheel pans 300 px = 3 s at 100 px/s
      const afterWheel = t.state.viewStart;
      t.engine.panBy(-1e6);
      const left = t.state.viewStart;
      t.wheel(1e6, 0, { shiftKey: true });
      const right = t.state.viewStart;
      return { atFull, afterWheel, left, right };
    });
    expect(r.atFull).toBe(0);
    expect(r.afterWheel).toBeCloseTo(3, 9);
    expect(r.left).toBe(0);
    expect(r.right).toBeCloseTo(90, 9); // 100 s media, 10 s visible
  });
});

describe('moment range handles', () => {
  it('keep 36 px at low zoom, where 36 px is longer than 0.1 s', async () => {
    // 10 s over 1000 px at 100 %: 100 px/s, so 36 px = 0.36 s -> 11 frames at 30 fps.
    await timeline({ width: 1000, media: { duration: 10 }, range: { start: 2, end: 6 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      t.drag('start', t.clientXAt(9));
      const start = { ...t.state.range! };
      t.drag('start', t.clientXAt(2));
      t.drag('end', t.clientXAt(0));
      return { start, end: { ...t.state.range! }, commits: t.commits.length };
    });
    expect(r.start.start).toBeCloseTo(6 - 11 / 30, 9);
    expect(r.start.end).toBe(6);
    expect(r.end.end - r.end.start).toBeCloseTo(11 / 30, 9);
    expect(r.end.start).toBeCloseTo(2, 9);
    expect(r.commits).toBe(3);
  });

  it('keep 0.1 s at high zoom, where 0.1 s is longer than 36 px', async () => {
    // 10 s at 10 000 %: 0.1 s across 1000 px, so 36 px = 3.6 ms and 0.1 s (3 frames) wins.
    await timeline({ width: 1000, media: { duration: 10 }, range: { start: 164 / 30, end: 5.5 } });
    const r = await page.evaluate(async () => {
      const t = window.t!;
      t.engine.seek(5.5);
      t.engine.setZoom(10_000); // anchored at the playhead: the view is 5.445..5.545 s
      await t.settle();
      const view = [t.state.viewStart, t.state.zoom];
      t.drag('start', t.clientXAt(5.54));
      const afterStart = { ...t.state.range! };
      t.drag('end', t.clientXAt(5.45));
      return { view, afterStart, afterEnd: { ...t.state.range! } };
    });
    expect(r.view[0]).toBeCloseTo(5.445, 9);
    expect(r.view[1]).toBe(10_000);
    expect(r.afterStart.end).toBe(5.5);
    expect(r.afterStart.start).toBeCloseTo(5.4, 9); // 3 frames, not 36 px (0.0036 s)
    expect(r.afterEnd).toEqual(r.afterStart); // the end cannot come closer either
  });

  it('cannot cross each other or leave the media', async () => {
    await timeline({ width: 1000, media: { duration: 10 }, range: { start: 2, end: 6 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      t.drag('start', t.clientX(-300));
      const left = { ...t.state.range! };
      t.drag('end', t.clientX(5000));
      const right = { ...t.state.range! };
      t.drag('start', t.clientX(5000));
      const crossed = { ...t.state.range! };
      return { left, right, crossed };
    });
    expect(r.left).toEqual({ start: 0, end: 6 });
    expect(r.right).toEqual({ start: 0, end: 10 });
    expect(r.crossed.start).toBeLessThan(r.crossed.end);
    expect(r.crossed.end).toBe(10);
  });

  it('snap to frame boundaries, as do pointer seeks', async () => {
    await timeline({ width: 997, media: { duration: 13.37, frameRate: 24 }, range: { start: 1, end: 9 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      const out: number[] = [];
      for (const x of [101.3, 233.7, 409.9, 612.2]) {
        t.drag('start', t.clientX(x));
        out.push(t.state.range!.start);
        t.drag('end', t.clientX(x + 300.4));
        out.push(t.state.range!.end);
      }
      // Without a range: a press on the range body moves the range instead of seeking.
      t.engine.setRange(null);
      for (const x of [17.6, 333.3, 771.9]) {
        t.pointerDown(t.clientX(x), 'ruler');
        t.pointerMove(t.clientX(x + 13.1), 'ruler');
        t.pointerUp(t.clientX(x + 13.1), 'ruler');
        out.push(t.state.time);
        t.pointerDown(t.clientX(x + 50.5), 'thumbnails');
        t.pointerUp(t.clientX(x + 50.5), 'thumbnails');
        out.push(t.state.time);
      }
      return { out, frame: t.state.frame, time: t.state.time };
    });
    for (const s of r.out) expect(Math.abs(s * 24 - Math.round(s * 24))).toBeLessThan(1e-9);
    expect(r.frame).toBe(Math.round(r.time * 24));
    // And they follow the pointer: the last seek is within half a frame of where it pressed.
    expect(Math.abs(r.time - (771.9 + 50.5) * (13.37 / 997))).toBeLessThanOrEqual(1 / 48 + 1e-9);
  });

  it('a drag on the ruler moves the playhead with the pointer; the video follows', async () => {
    await timeline({ width: 1000, media: { duration: 100 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      t.pointerDown(t.clientX(100), 'ruler');
      const during = t.state.dragging;
      t.pointerMove(t.clientX(250), 'ruler');
      t.pointerUp(t.clientX(250), 'ruler');
      return { during, time: t.state.time, video: t.fakeVideo!.currentTime, dragging: t.state.dragging, commits: t.commits.length };
    });
    // the element is sent to the middle of the frame (30 fps here), the playhead to its boundary
    expect(r).toEqual({ during: 'playhead', time: 25, video: expect.closeTo(25 + 0.5 / 30, 9) as number, dragging: null, commits: 0 });
  });
});

describe('moment range body', () => {
  it('a drag on the body moves the whole range by whole frames, keeps its length, leaves the playhead and commits', async () => {
    // 13.37 s at 24 fps over 997 px: neither frames nor pixels line up with seconds.
    await timeline({ width: 997, media: { duration: 13.37, frameRate: 24 }, range: { start: 2, end: 6 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      t.engine.seek(1);
      const from = t.clientXAt(4);
      t.pointerDown(from);
      const pressed = { dragging: t.state.dragging, range: { ...t.state.range! }, time: t.state.time, cursor: t.cursor };
      const seen: { start: number; end: number }[] = [];
      for (const dx of [10.3, 57.7, 123.45]) {
        t.pointerMove(from + dx);
        seen.push({ ...t.state.range! });
      }
      t.pointerUp(from + 123.45);
      return {
        pressed,
        seen,
        after: { ...t.state.range! },
        time: t.state.time,
        video: t.fakeVideo!.currentTime,
        dragging: t.state.dragging,
        commits: t.commits.slice(),
        pxPerSecond: 997 / 13.37,
      };
    });
    expect(r.pressed).toEqual({ dragging: 'range', range: { start: 2, end: 6 }, time: 1, cursor: 'grabbing' });
    const frames = (s: number) => Math.round(s * 24);
    for (const range of [...r.seen, r.after]) {
      expect(Math.abs(range.start * 24 - frames(range.start))).toBeLessThan(1e-9);
      expect(frames(range.end) - frames(range.start)).toBe(96); // 4 s at 24 fps, exactly
    }
    // It follows the pointer to the nearest frame: 123.45 px at 74.57 px/s is 1.655 s -> 40 frames.
    expect(frames(r.after.start)).toBe(48 + Math.round((123.45 / r.pxPerSecond) * 24));
    expect(r.seen[0]!.start).toBeCloseTo(2 + 3 / 24, 9);
    // The playhead and the video stay where they were; the range is committed once, as a handle drag is.
    expect(r.time).toBe(1);
    expect(r.video).toBeCloseTo(1 + 0.5 / 24, 9);
    expect(r.dragging).toBeNull();
    expect(r.commits).toEqual([r.after]);
  });

  it('a press and release that leave the range as it was commit nothing (body or handle)', async () => {
    await timeline({ width: 1000, media: { duration: 10, frameRate: 25 }, range: { start: 2, end: 6 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      const body = t.clientXAt(4);
      t.pointerDown(body);
      t.pointerUp(body);
      const handle = t.clientXAt(6);
      t.pointerDown(handle);
      t.pointerMove(handle + 0.2); // less than a frame: the snapped range does not change
      t.pointerUp(handle + 0.2);
      return { range: { ...t.state.range! }, commits: t.commits.length };
    });
    expect(r).toEqual({ range: { start: 2, end: 6 }, commits: 0 });
  });

  it('the moved range stops at the start and the end of the media, its length unchanged', async () => {
    await timeline({ width: 1000, media: { duration: 13.37, frameRate: 24 }, range: { start: 2, end: 6 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      t.dragBody(4, t.clientX(-3000));
      const left = { ...t.state.range! };
      t.dragBody(2.5, t.clientX(5000));
      const right = { ...t.state.range! };
      return { left, right, commits: t.commits.length };
    });
    expect(r.left).toEqual({ start: 0, end: 4 });
    // The last frame boundary of 13.37 s at 24 fps is frame 320.
    expect(r.right.end).toBe(320 / 24);
    expect(Math.round(r.right.end * 24) - Math.round(r.right.start * 24)).toBe(96);
    expect(r.commits).toBe(2);
  });

  it('only the body moves the range: handles resize it, the ruler above it and the row outside it seek', async () => {
    await timeline({ width: 1000, media: { duration: 10 }, range: { start: 2, end: 6 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      const cursors: Record<string, string> = {};
      t.pointerMove({ time: 4 });
      cursors.body = t.cursor;
      t.pointerMove(t.clientXAt(6) + 5);
      cursors.handle = t.cursor;
      t.pointerMove({ time: 8 });
      cursors.outside = t.cursor;
      t.pointerMove({ time: 4 }, 'ruler');
      cursors.ruler = t.cursor;
      // The ruler over the range seeks.
      t.pointerDown({ time: 4 }, 'ruler');
      const rulerDrag = t.state.dragging;
      t.pointerUp({ time: 4 }, 'ruler');
      const rulerSeek = t.state.time;
      // The thumbnail row outside the range seeks.
      t.pointerDown({ time: 8 });
      t.pointerUp({ time: 8 });
      const rowSeek = t.state.time;
      // The body does not.
      t.pointerDown({ time: 5 });
      const bodyDrag = t.state.dragging;
      t.pointerUp({ time: 5 });
      cursors.released = t.cursor;
      return { cursors, rulerDrag, rulerSeek, rowSeek, bodyDrag, time: t.state.time, range: t.state.range };
    });
    expect(r.cursors).toEqual({ body: 'grab', handle: 'ew-resize', outside: 'pointer', ruler: 'pointer', released: 'grab' });
    expect(r).toMatchObject({ rulerDrag: 'playhead', rulerSeek: 4, rowSeek: 8, bodyDrag: 'range', time: 8, range: { start: 2, end: 6 } });
  });

  it('Escape cancels a handle, body or playhead drag: everything goes back and nothing is committed', async () => {
    await timeline({ width: 1000, media: { duration: 10 }, range: { start: 2, end: 6 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      // What a dialog around the timeline sees (Radix listens on the document's capture phase).
      const dialogSaw: boolean[] = [];
      const onKey = (e: KeyboardEvent) => {
        if (e.key === 'Escape') dialogSaw.push(e.defaultPrevented);
      };
      document.addEventListener('keydown', onKey, { capture: true });
      t.engine.seek(1);
      const windowListeners = t.leftBehind().listeners.window; // the engine's own key listener
      const out: Record<string, unknown> = {};
      const cancel = (name: string, press: () => void, toX: number) => {
        press();
        t.pointerMove(toX);
        const moved = { range: { ...t.state.range! }, time: t.state.time };
        const handled = t.key('Escape');
        t.pointerMove(toX + 40); // the button is still down: nothing follows any more
        t.pointerUp(toX + 40);
        out[name] = { moved, handled, range: t.state.range, time: t.state.time, dragging: t.state.dragging };
      };
      cancel('start', () => t.pointerDown(t.clientXAt(2) - 5), t.clientXAt(3));
      cancel('end', () => t.pointerDown(t.clientXAt(6) + 5), t.clientXAt(8));
      cancel('body', () => t.pointerDown({ time: 4 }), t.clientXAt(7));
      cancel('playhead', () => t.pointerDown({ time: 8 }, 'ruler'), t.clientXAt(9));
      const idleEscape = t.key('Escape'); // no drag: Escape is left to the page
      document.removeEventListener('keydown', onKey, { capture: true });
      return {
        out,
        commits: t.commits.length,
        dialogSaw,
        idleEscape,
        video: t.fakeVideo!.currentTime,
        windowListeners: [windowListeners, t.leftBehind().listeners.window],
      };
    });
    const back = { range: { start: 2, end: 6 }, time: 1, dragging: null, handled: true };
    expect(r.out.start).toMatchObject({ ...back, moved: { range: { start: 3, end: 6 } } });
    expect(r.out.end).toMatchObject({ ...back, moved: { range: { start: 2, end: 8 } } });
    expect(r.out.body).toMatchObject({ ...back, moved: { range: { start: 5, end: 9 } } });
    expect(r.out.playhead).toMatchObject({ ...back, moved: { time: 9 } });
    expect(r.commits).toBe(0);
    expect(r.video).toBeCloseTo(1 + 0.5 / 30, 9);
    // The drag took the key before a dialog could close on it; without a drag it is not taken.
    expect(r.dialogSaw).toEqual([true, true, true, true, false]);
    expect(r.idleEscape).toBe(false);
    // Each drag's Escape listener went with it.
    expect(r.windowListeners[1]).toEqual(r.windowListeners[0]);
  });

  it('a press after a release the page never saw ends the old drag (committed) and starts the new one', async () => {
    await timeline({ width: 1000, media: { duration: 10 }, range: { start: 2, end: 6 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      t.pointerDown({ time: 4 });
      t.pointerMove({ time: 5 }); // released outside the window: no pointerup
      t.pointerDown({ time: 9 }, 'ruler');
      const after = { dragging: t.state.dragging, time: t.state.time, range: { ...t.state.range! } };
      t.pointerUp({ time: 9 }, 'ruler');
      return { after, commits: t.commits.slice() };
    });
    expect(r.after).toEqual({ dragging: 'playhead', time: 9, range: { start: 3, end: 7 } });
    expect(r.commits).toEqual([{ start: 3, end: 7 }]);
  });

  it('a second finger (a pinch starting) undoes the drag the first finger began', async () => {
    await timeline({ width: 1000, media: { duration: 10 }, range: { start: 2, end: 6 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      t.engine.seek(1);
      const first = { id: 11, primary: true };
      const second = { id: 12 };
      const out: Record<string, unknown> = {};
      // On the body.
      t.pointerDown({ time: 4 }, 'thumbnails', first);
      t.pointerMove({ time: 5 }, 'thumbnails', first);
      t.pointerDown({ time: 7 }, 'thumbnails', second);
      out.body = { range: { ...t.state.range! }, dragging: t.state.dragging };
      t.pointerMove({ time: 3 }, 'thumbnails', first);
      t.pointerMove({ time: 9 }, 'thumbnails', second);
      t.pointerUp({ time: 9 }, 'thumbnails', second);
      t.pointerUp({ time: 3 }, 'thumbnails', first);
      out.bodyAfter = { range: { ...t.state.range! }, time: t.state.time };
      // Outside the range: the first finger's seek is undone.
      t.pointerDown({ time: 8 }, 'thumbnails', first);
      const seeked = t.state.time;
      t.pointerDown({ time: 9 }, 'thumbnails', second);
      t.pointerUp({ time: 9 }, 'thumbnails', second);
      t.pointerUp({ time: 8 }, 'thumbnails', first);
      out.playhead = { seeked, time: t.state.time, dragging: t.state.dragging };
      return { ...out, commits: t.commits.length };
    });
    expect(r).toEqual({
      body: { range: { start: 2, end: 6 }, dragging: null },
      bodyAfter: { range: { start: 2, end: 6 }, time: 1 },
      playhead: { seeked: 8, time: 1, dragging: null },
      commits: 0,
    });
  });
});

describe('edge auto-scroll', () => {
  /** 100 s over 1000 px at 1000 %: 10 s in view, 100 px/s, the view starting at `viewStart`. */
  const zoomedIn = async (viewStart: number, range: MomentRange) => {
    await timeline({ width: 1000, media: { duration: 100 }, range });
    await page.evaluate(async (viewStart) => {
      const t = window.t!;
      t.engine.setZoom(1000, t.clientX(0));
      t.engine.panBy(viewStart * 100);
      await t.settle();
    }, viewStart);
  };

  it('a handle held at the right edge pans the view every frame and follows the pointer; back inside it stops', async () => {
    await zoomedIn(40, { start: 44, end: 46 });
    const r = await page.evaluate(async () => {
      const t = window.t!;
      const viewStart0 = t.state.viewStart;
      t.pointerDown(t.clientXAt(46) + 5);
      t.pointerMove(t.clientX(700));
      const t0 = performance.now();
      t.pointerMove(t.clientX(1000 - 6)); // inside the 24 px zone
      const samples: { viewStart: number; end: number; pointerTime: number }[] = [];
      for (let i = 0; i < 12; i++) {
        await t.nextFrames(1);
        samples.push({ viewStart: t.state.viewStart, end: t.state.range!.end, pointerTime: t.timeAtClientX(t.clientX(1000 - 6)) });
      }
      const elapsed = (performance.now() - t0) / 1000;
      // Back inside: the loop stops at once. (At 700 px the handle cannot land back on 46 s, where it
      // started, as a release at 500 px could after a 1 s pan: that would rightly commit nothing.)
      t.pointerMove(t.clientX(700));
      const stoppedAt = t.state.viewStart;
      const endAtStop = t.state.range!.end;
      await t.settle();
      const idleRenders = await t.rendersWhileIdle(300);
      const left = t.leftBehind();
      const still = t.state.viewStart === stoppedAt;
      const dragging = t.state.dragging;
      t.pointerUp(t.clientX(700));
      return {
        viewStart0,
        samples,
        elapsed,
        endAtStop,
        stoppedAt,
        still,
        idleRenders,
        pendingFrames: left.animationFrames,
        dragging,
        commits: t.commits.slice(),
      };
    });
    expect(r.viewStart0).toBeCloseTo(40, 9);
    // The view moves right frame after frame (a frame may come without a step, none goes back).
    const starts = r.samples.map((s) => s.viewStart);
    for (let i = 1; i < starts.length; i++) expect(starts[i]).toBeGreaterThanOrEqual(starts[i - 1]!);
    expect(new Set(starts).size).toBeGreaterThan(6);
    expect(starts.at(-1)!).toBeGreaterThan(40.3);
    // 18 px deep is 0.375 of the top speed (a view, 10 s, a second): at most 3.75 s a second.
    // (A few ms of slack: a frame's timestamp may precede the performance.now() taken before it.)
    expect(starts.at(-1)! - 40).toBeLessThanOrEqual(3.75 * (r.elapsed + 1 / 60 + 0.005));
    // The handle stays under the pointer: its frame boundary nearest the pointer's time.
    for (const s of r.samples) expect(Math.abs(s.end - s.pointerTime)).toBeLessThanOrEqual(0.5 / 30 + 1e-9);
    expect(r.stoppedAt).toBeGreaterThan(40.3);
    expect(r.still).toBe(true);
    expect(r.idleRenders).toBe(0);
    expect(r.pendingFrames).toBe(0);
    expect(r.dragging).toBe('end');
    expect(r.commits).toHaveLength(1);
    expect(r.commits[0]!.end).toBeCloseTo(Math.round((r.stoppedAt + 7) * 30) / 30, 9);
  });

  it('the range body and the playhead scroll the view at the left edge too', async () => {
    await zoomedIn(40, { start: 44, end: 46 });
    const r = await page.evaluate(async () => {
      const t = window.t!;
      // Frames for at least `ms` and at least 8 of them (frame rates differ between machines, and
      // a busy one draws few frames of at most AUTO_SCROLL_MAX_STEP_SECONDS each).
      const held = async (ms: number) => {
        const until = performance.now() + ms;
        for (let frames = 0; performance.now() < until || frames < 8; frames++) await t.nextFrames(1);
      };
      t.pointerDown({ time: 45 });
      t.pointerMove(t.clientX(-30)); // past the edge: full speed, 10 s a second
      await held(250);
      const body = { viewStart: t.state.viewStart, range: { ...t.state.range! } };
      t.pointerUp(t.clientX(-30));
      t.pointerDown(t.clientX(500), 'ruler');
      const viewStart1 = t.state.viewStart;
      t.pointerMove(t.clientX(-30), 'ruler');
      await held(250);
      const playhead = { viewStart: t.state.viewStart, time: t.state.time, pointerTime: t.timeAtClientX(t.clientX(-30)) };
      t.pointerUp(t.clientX(-30), 'ruler');
      return { body, viewStart1, playhead, commits: t.commits.length };
    });
    expect(r.body.viewStart).toBeLessThan(39);
    expect(Math.round(r.body.range.end * 30) - Math.round(r.body.range.start * 30)).toBe(60);
    // The grab point (45 s, 1 s into the range) stays under the pointer 30 px left of the edge.
    expect(Math.abs(r.body.range.start - (r.body.viewStart - 0.3 - 1))).toBeLessThanOrEqual(0.5 / 30 + 1e-9);
    expect(r.playhead.viewStart).toBeLessThan(r.viewStart1 - 1);
    // The playhead is clamped to the media, never before 0; here it is the time under the pointer.
    expect(Math.abs(r.playhead.time - Math.max(0, r.playhead.pointerTime))).toBeLessThanOrEqual(0.5 / 30 + 1e-9);
    expect(r.commits).toBe(1);
  });

  it('stops at the end of the media and never starts at 100 %', async () => {
    await zoomedIn(89, { start: 94, end: 96 });
    const r = await page.evaluate(async () => {
      const t = window.t!;
      t.pointerDown(t.clientXAt(96) + 5);
      t.pointerMove(t.clientX(1030));
      let frames = 0;
      while (t.leftBehind().animationFrames > 0 && frames < 120) {
        await t.nextFrames(1);
        frames++;
      }
      const atEnd = { viewStart: t.state.viewStart, end: t.state.range!.end, dragging: t.state.dragging };
      // Still held past the edge: nothing more happens.
      const idleRenders = await t.rendersWhileIdle(300);
      const pendingFrames = t.leftBehind().animationFrames;
      t.pointerMove(t.clientX(1040)); // moving further out does not restart it
      await t.settle();
      const pendingAfterMove = t.leftBehind().animationFrames;
      t.pointerUp(t.clientX(1040));
      // At 100 % there is nothing to scroll to.
      t.engine.setZoom(100);
      await t.settle();
      t.pointerDown(t.clientXAt(t.state.range!.start) - 5);
      t.pointerMove(t.clientX(-40));
      await t.settle();
      const at100 = { viewStart: t.state.viewStart, pendingFrames: t.leftBehind().animationFrames, start: t.state.range!.start };
      t.pointerUp(t.clientX(-40));
      return { frames, atEnd, idleRenders, pendingFrames, pendingAfterMove, at100 };
    });
    expect(r.frames).toBeGreaterThan(2);
    expect(r.frames).toBeLessThan(120);
    expect(r.atEnd).toEqual({ viewStart: 90, end: 100, dragging: 'end' });
    expect(r.idleRenders).toBe(0);
    expect(r.pendingFrames).toBe(0);
    expect(r.pendingAfterMove).toBe(0);
    expect(r.at100).toEqual({ viewStart: 0, pendingFrames: 0, start: 0 });
  });

  it('destroy during an auto-scroll leaves no frame, listener or registration behind', async () => {
    await zoomedIn(40, { start: 44, end: 46 });
    const left = await page.evaluate(async () => {
      const t = window.t!;
      t.pointerDown({ time: 45 });
      t.pointerMove(t.clientX(1010));
      await t.nextFrames(3);
      const scrolling = t.state.viewStart > 40 && t.leftBehind().animationFrames > 0;
      t.engine.destroy();
      const framesRightAfter = t.leftBehind().animationFrames; // cancelled, not left to fire
      const left = await t.destroy();
      return { ...left, scrolling, framesRightAfter };
    });
    expect(left).toMatchObject({
      scrolling: true,
      framesRightAfter: 0,
      canvasesInDom: 0,
      listeners: { window: [], document: [], container: [], keyTarget: [] },
      timeouts: 0,
      intervals: 0,
      animationFrames: 0,
      teardownSize: 0,
      pixiAppDestroyed: true,
    });
  });
});

describe('keyboard', () => {
  it('arrows seek 5 s (to 0 from under 5 s, clamped at the end); shift-arrows 1 s; Home/End', async () => {
    await timeline({ width: 1000, media: { duration: 12 } });
    const seq: number[] = [];
    const push = async () => seq.push((await state()).time);
    await key('ArrowRight');
    await push();
    await key('ArrowRight');
    await push();
    await key('ArrowRight');
    await push(); // clamps at 12
    await key('ArrowLeft');
    await push();
    await key('ArrowLeft', true);
    await push();
    await key('ArrowRight', true);
    await push();
    await page.evaluate(() => window.t!.engine.seek(3.2));
    await key('ArrowLeft');
    await push(); // 3.2 - 5 lands on 0
    await key('End');
    await push();
    await key('Home');
    await push();
    expect(seq).toEqual([5, 10, 12, 7, 6, 7, 0, 12, 0]);
  });

  it('End shows the last frame and keeps the playhead at the end; Home the first', async () => {
    await timeline({ width: 1000, media: { duration: 12, frameRate: 25 } });
    const r = await page.evaluate(async () => {
      const t = window.t!;
      const v = t.fakeVideo!;
      const seeked = () => new Promise((resolve) => v.addEventListener('timeupdate', resolve, { once: true }));
      t.key('End');
      await seeked(); // the element's report of where it is does not move the playhead off the end
      const end = { time: t.state.time, video: v.currentTime };
      t.key('Home');
      await seeked();
      return { end, home: { time: t.state.time, video: v.currentTime } };
    });
    // the middle of frame 299, the last one (12 s itself shows no picture in an HLS stream)
    expect(r.end).toEqual({ time: 12, video: 299.5 / 25 });
    expect(r.home).toEqual({ time: 0, video: 0.5 / 25 });
  });

  it('Space plays and pauses the video; comma and period step one frame, pausing first', async () => {
    await timeline({ width: 1000, media: { duration: 12, frameRate: 25 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      const v = t.fakeVideo!;
      const out: Record<string, unknown> = {};
      t.key(' ');
      out.playing = [t.state.playing, v.paused];
      v.advance(1);
      out.followed = t.state.time;
      t.key('.');
      out.stepped = [t.state.frame, t.state.playing, v.paused];
      t.key('.');
      t.key(',');
      t.key(',');
      out.back = t.state.frame;
      t.key(' ');
      t.key(' ');
      out.paused = [t.state.playing, v.paused];
      return out;
    });
    expect(r).toEqual({ playing: [true, false], followed: 1, stepped: [26, false, true], back: 25, paused: [false, true] });
  });

  it('J/K/L shuttle: L doubles up to 8x forward, J the same backwards on a timer, K stops', async () => {
    await timeline({ width: 1000, media: { duration: 60 } });
    const r = await page.evaluate(async () => {
      const t = window.t!;
      const v = t.fakeVideo!;
      const rates: number[] = [];
      for (let i = 0; i < 5; i++) {
        t.key('l');
        rates.push(t.state.shuttle);
      }
      const forward = { rate: v.playbackRate, paused: v.paused };
      t.key('k');
      const stopped = { shuttle: t.state.shuttle, playing: t.state.playing, paused: v.paused };
      t.engine.seek(30);
      t.key('j');
      t.key('j');
      const reverse = { shuttle: t.state.shuttle, paused: v.paused, playing: t.state.playing };
      await new Promise((r) => setTimeout(r, 500));
      const moved = 30 - t.state.time;
      const videoFollowed = Math.abs(v.currentTime - (t.state.time + 0.5 / t.state.frameRate)) < 1e-9;
      for (let i = 0; i < 4; i++) t.key('j');
      const minRate = t.state.shuttle;
      t.key('k');
      const after = t.state.time;
      await new Promise((r) => setTimeout(r, 200));
      return {
        rates,
        forward,
        stopped,
        reverse,
        moved,
        videoFollowed,
        minRate,
        stoppedStill: t.state.time === after,
        intervals: t.leftBehind().intervals,
      };
    });
    expect(r.rates).toEqual([1, 2, 4, 8, 8]);
    expect(r.forward).toEqual({ rate: 8, paused: false });
    expect(r.stopped).toEqual({ shuttle: 0, playing: false, paused: true });
    expect(r.reverse).toEqual({ shuttle: -2, paused: true, playing: true });
    // About 2x of 0.5 s backwards (timers in a busy headless page run late, never early).
    expect(r.moved).toBeGreaterThan(0.6);
    expect(r.moved).toBeLessThan(1.6);
    expect(r.videoFollowed).toBe(true);
    expect(r.minRate).toBe(-8);
    expect(r.stoppedStill).toBe(true);
    expect(r.intervals).toBe(0);
  });

  it('reverse shuttle stops at 0', async () => {
    await timeline({ width: 1000, media: { duration: 60 } });
    const r = await page.evaluate(async () => {
      const t = window.t!;
      t.engine.seek(0.5);
      t.key('j');
      t.key('j');
      t.key('j');
      await new Promise((r) => setTimeout(r, 600));
      return { time: t.state.time, shuttle: t.state.shuttle, playing: t.state.playing };
    });
    expect(r).toEqual({ time: 0, shuttle: 0, playing: false });
  });

  it('I and O set the range at the playhead, creating one and respecting the limits', async () => {
    await timeline({ width: 1000, media: { duration: 10 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      t.engine.seek(2);
      t.key('i');
      const created = { ...t.state.range! };
      t.engine.seek(4);
      t.key('o');
      const out = { ...t.state.range! };
      t.engine.seek(3.9);
      // 0.1 s before the out point: kept as pressed (a mark's minimum is 0.1 s; the handles' 36 px,
      // 0.36 s at 100 px/s, would have moved the out point)
      t.key('i');
      const tenth = { ...t.state.range! };
      t.engine.seek(4.5);
      t.key('i'); // past the out point: the out point moves to 0.1 s after it
      const past = { ...t.state.range! };
      return { created, out, tenth, past, commits: t.commits.length };
    });
    expect(r.created).toEqual({ start: 2, end: 10 });
    expect(r.out).toEqual({ start: 2, end: 4 });
    expect(r.tenth.start).toBeCloseTo(3.9, 9);
    expect(r.tenth.end).toBe(4);
    expect(r.past.start).toBeCloseTo(4.5, 9);
    expect(r.past.end - r.past.start).toBeCloseTo(3 / 30, 9);
    expect(r.commits).toBe(4);
  });

  it('every key is ignored while typing in an input, textarea, select or editable element', async () => {
    await timeline({ width: 1000, media: { duration: 60 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      t.engine.seek(20);
      const fields = [
        document.createElement('input'),
        document.createElement('textarea'),
        document.createElement('select'),
        document.createElement('div'),
      ];
      fields[3]!.contentEditable = 'true';
      const handled: boolean[] = [];
      for (const f of fields) {
        document.body.appendChild(f);
        for (const k of ['ArrowLeft', 'ArrowRight', ' ', ',', '.', 'j', 'k', 'l', 'i', 'o', 'Home', 'End'])
          handled.push(t.key(k, { target: f }));
        f.remove();
      }
      return { handled: handled.filter(Boolean).length, time: t.state.time, range: t.state.range, playing: t.state.playing };
    });
    expect(r).toEqual({ handled: 0, time: 20, range: null, playing: false });
  });

  it('listens on the given key target only', async () => {
    await page.evaluate(() => {
      const el = document.createElement('div');
      el.id = 'keys';
      el.tabIndex = 0;
      document.body.appendChild(el);
    });
    await page.evaluate(async () => {
      window.t = await window.engineTest.TestTimeline.create({
        width: 800,
        media: { duration: 60 },
        keyTarget: document.getElementById('keys')!,
      });
    });
    const r = await page.evaluate(() => {
      const t = window.t!;
      const onBody = t.key('ArrowRight', { target: document.body });
      const onTarget = t.key('ArrowRight');
      return { onBody, onTarget, time: t.state.time };
    });
    expect(r).toEqual({ onBody: false, onTarget: true, time: 5 });
    const left = await page.evaluate(async () => {
      const l = await window.t!.destroy();
      document.getElementById('keys')!.remove();
      return l.listeners.keyTarget;
    });
    expect(left).toEqual([]);
  });
});

describe('thumbnails', () => {
  it('asks only for visible tiles, keyframes when coarse and exact when fine, and aborts tiles that leave', async () => {
    await timeline({ width: 1000, media: { duration: 7200 } }, { latencyMs: 300 });
    const coarse = await page.evaluate(async () => {
      const t = window.t!;
      await new Promise((r) => setTimeout(r, 400));
      await t.settle();
      return { requests: window.thumbs!.requests.slice(), live: t.engine.debug.thumbnails!.live };
    });
    expect(coarse.live).toBe(Math.ceil(1000 / 140));
    expect(coarse.requests.length).toBe(coarse.live);
    expect(new Set(coarse.requests.map((q) => q.precision))).toEqual(new Set(['keyframe']));
    const fine = await page.evaluate(async () => {
      const t = window.t!;
      window.thumbs!.requests.length = 0;
      t.engine.setZoom(10_000, t.clientX(500));
      await t.settle();
      const whileZooming = window.thumbs!.requests.length; // none until the scale settles (120 ms)
      await new Promise((r) => setTimeout(r, 200)); // requests start; answers take 300 ms
      t.engine.panBy(2000); // every tile leaves before its picture arrives
      await t.settle();
      const aborted = window.thumbs!.aborted;
      await new Promise((r) => setTimeout(r, 400));
      await t.settle();
      const d = t.engine.debug.thumbnails!;
      return {
        precisions: [...new Set(window.thumbs!.requests.map((q) => q.precision))],
        aborted,
        live: d.live,
        received: d.received,
        whileZooming,
      };
    });
    // 10 000 % of 2 h over 1000 px: 72 s visible, tiles of 10 s -> still keyframes.
    expect(fine.precisions).toEqual(['keyframe']);
    expect(fine.whileZooming).toBe(0);
    expect(fine.aborted).toBeGreaterThanOrEqual(7);
    expect(fine.live).toBeLessThanOrEqual(9);
    const exact = await page.evaluate(async () => {
      const t = window.t!;
      await t.destroy();
      window.thumbs!.destroy();
      window.thumbs = new window.engineTest.SyntheticThumbnails({});
      window.t = await window.engineTest.TestTimeline.create({ width: 1000, media: { duration: 60 }, thumbnails: window.thumbs });
      window.t.engine.setZoom(10_000);
      await new Promise((r) => setTimeout(r, 200));
      await window.t.settle();
      return [...new Set(window.thumbs.requests.slice(-8).map((q) => q.precision))];
    });
    // 60 s at 10 000 %: 0.6 s across 1000 px, 140 px tiles are 0.084 s -> exact frames.
    expect(exact).toEqual(['exact']);
  });

  it('reports a thumbnail error once and keeps the placeholders', async () => {
    await timeline({ width: 1000, media: { duration: 600 } }, { failWith: 'Failed to generate thumbnail' });
    const r = await page.evaluate(async () => {
      const t = window.t!;
      await t.thumbnailsIdle();
      t.engine.panBy(100);
      t.engine.setZoom(400);
      await t.thumbnailsIdle();
      return { errors: t.thumbnailErrors, requests: window.thumbs!.requests.length, live: t.engine.debug.thumbnails!.live };
    });
    expect(r.errors).toEqual(['Failed to generate thumbnail']);
    expect(r.requests).toBeGreaterThan(8);
    expect(r.live).toBe(8);
  });

  it('at 10 000 % on a two-hour media only the visible region has tiles and labels', async () => {
    await timeline({ width: 1280, media: { duration: 7200 } }, {});
    const r = await page.evaluate(async () => {
      const t = window.t!;
      t.engine.setZoom(10_000, t.clientX(640));
      await t.settle();
      const d = t.engine.debug;
      return { live: d.thumbnails!.live, labels: d.rulerLabels, renders: d.renders };
    });
    expect(r.live).toBeLessThanOrEqual(Math.ceil(1280 / 140) + 1);
    expect(r.labels).toBeLessThanOrEqual(Math.ceil(1280 / 64) + 1);
    expect(r.labels).toBeGreaterThan(3);
  });
});

describe('rendering and teardown', () => {
  it('renders nothing while nothing changes', async () => {
    await timeline({ width: 1000, media: { duration: 600 }, range: { start: 100, end: 200 } }, {});
    const r = await page.evaluate(async () => {
      const t = window.t!;
      await t.thumbnailsIdle();
      const idle = await t.rendersWhileIdle(500);
      t.engine.seek(10);
      t.engine.seek(11);
      t.engine.seek(12);
      await t.settle();
      const before = t.renders;
      t.engine.seek(13);
      t.engine.setZoom(300);
      t.engine.panBy(20);
      await t.settle();
      const batched = t.renders - before;
      await t.thumbnailsIdle(); // the new scale's pictures come in
      const idleAgain = await t.rendersWhileIdle(500);
      return { idle, batched, idleAgain, frames: t.leftBehind().animationFrames };
    });
    expect(r.idle).toBe(0);
    expect(r.batched).toBe(1);
    expect(r.idleAgain).toBe(0);
    expect(r.frames).toBe(0);
  });

  // Both renderers: WebGL (its context released) and the canvas one 'auto' picks on software GL.
  it.each(['webgl', 'canvas'] as const)('destroy leaves nothing behind (%s renderer)', async (renderer) => {
    await timeline({ width: 1000, media: { duration: 7200 }, range: { start: 10, end: 300 }, renderer }, { latencyMs: 5000 });
    const left = await page.evaluate(async () => {
      const t = window.t!;
      // Busy: tiles waiting on pictures, reverse shuttle timer running, a frame pending, a drag open.
      await t.settle();
      t.key('l');
      t.engine.seek(100);
      t.key('j');
      t.pointerDown(t.clientX(300), 'ruler');
      t.engine.setZoom(2000);
      const inFlightBefore = window.thumbs!.inFlight;
      const timeBefore = t.state.time;
      const left = await t.destroy();
      // After destroy every method is a no-op.
      t.engine.seek(5);
      t.engine.setZoom(500);
      t.engine.play();
      t.key('ArrowRight');
      t.engine.attachVideo(null);
      await new Promise((r) => setTimeout(r, 50));
      return {
        ...left,
        inFlightBefore,
        inFlightAfter: window.thumbs!.inFlight,
        aborted: window.thumbs!.aborted,
        stateAfter: t.engine.getState().time,
        timeBefore,
      };
    });
    expect(left.inFlightBefore).toBeGreaterThan(0);
    expect(left).toMatchObject({
      canvasesInDom: 0,
      listeners: { window: [], document: [], container: [], keyTarget: [] },
      timeouts: 0,
      intervals: 0,
      animationFrames: 0,
      resizeObservers: 0,
      videoFrameCallbacks: 0,
      pixiAppDestroyed: true,
      // A 2D canvas holds no GPU context to give back.
      contextLost: renderer === 'webgl',
      teardownSize: 0,
      inFlightAfter: 0,
    });
    expect(left.aborted).toBeGreaterThanOrEqual(left.inFlightBefore);
    expect(left.stateAfter).toBe(left.timeBefore);
  });

  it('the playhead follows the video frame by frame while playing', async () => {
    await timeline({ width: 1000, media: { duration: 600, frameRate: 25 } });
    const r = await page.evaluate(() => {
      const t = window.t!;
      const v = t.fakeVideo!;
      t.engine.play();
      const frames: number[] = [];
      for (let i = 0; i < 5; i++) {
        v.advance(0.043);
        frames.push(t.state.frame);
      }
      t.engine.setZoom(10_000, t.clientX(0));
      v.advance(20); // far past the view: the view pages along
      const visible = t.clientXAt(t.state.time) - t.clientX(0);
      t.engine.pause();
      return { frames, visible, pending: v.pendingFrameCallbacks };
    });
    expect(r.frames).toEqual([1, 2, 3, 4, 5]);
    expect(r.visible).toBeGreaterThanOrEqual(0);
    expect(r.visible).toBeLessThanOrEqual(1000);
    expect(r.pending).toBe(0);
  });
});

describe('screenshots', () => {
  it('at 100 %, 1000 % and 10 000 % with a range and the playhead', async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await timeline({ width: 1240, media: { duration: 7200 }, range: { start: 3000, end: 3600 } }, {});
    for (const zoom of [100, 1000, 10_000]) {
      await page.evaluate(async (z) => {
        const t = window.t!;
        t.engine.seek(z === 10_000 ? 3590 : 3300);
        t.engine.setZoom(z);
        // At 10 000 % (72 s across) bring the range's end handle into view, at 80 % of the width.
        if (z === 10_000) t.engine.panBy(t.clientXAt(3600) - t.clientX(0.8 * t.state.viewWidth));
        await t.thumbnailsIdle();
      }, zoom);
      const s = await state();
      expect(s.zoom).toBeCloseTo(zoom, 6);
      expect(s.range).toEqual({ start: 3000, end: 3600 });
      await page.screenshot({ path: path.join(SCREENSHOTS, `engine-zoom-${zoom}.png`), clip: { x: 0, y: 0, width: 1280, height: 170 } });
    }
  });
});
