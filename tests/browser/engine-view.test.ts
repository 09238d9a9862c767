import fs from 'node:fs';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from '../e2e/harness';
import { openPage, servePages, type PageServer } from './harness';

// The React timeline (TimelineView) in real Chromium, mounted in StrictMode: one engine survives
// the double mount, the toolbar reads the engine, wheel and touch pinch zoom at the pointer,
// unmount cleans up.
const SCREENSHOTS = path.join(import.meta.dirname, 'screenshots');

let server: PageServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await servePages();
  browser = await openPage(server, 'engine/view.html');
  page = browser.page;
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('TimelineView', () => {
  it('mounts one live engine under StrictMode and shows zoom and timecode', async () => {
    await page.evaluate(() => window.viewTest.mount());
    await page.waitForFunction(() => window.viewTest.engine !== null);
    const group = page.getByRole('group', { name: 'Timeline' });
    await expect.poll(() => group.locator('canvas').count()).toBe(1);
    const live = await page.evaluate(() => window.viewTest.engines.filter((e) => !e.destroyed).length);
    expect(live).toBe(1);
    await expect.poll(() => group.getByText('100 %').count()).toBe(1);
    expect(await group.getByLabel('Playhead').textContent()).toBe('00:00:00:00');
  });

  it('zoom buttons, the slider and the wheel drive the engine; the toolbar follows', async () => {
    const group = page.getByRole('group', { name: 'Timeline' });
    await group.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(() => page.evaluate(() => Math.round(window.viewTest.engine!.getState().zoom))).toBe(150);
    await expect.poll(() => group.getByText('150 %').count()).toBe(1);
    await group.getByRole('button', { name: 'Zoom out' }).click();
    await expect.poll(() => page.evaluate(() => Math.round(window.viewTest.engine!.getState().zoom))).toBe(100);

    const slider = group.getByRole('slider', { name: 'Zoom' });
    await slider.focus();
    await page.keyboard.press('End');
    await expect.poll(() => page.evaluate(() => Math.round(window.viewTest.engine!.getState().zoom))).toBe(10_000);
    // Arrow keys on the focused slider change the zoom, not the playhead.
    await page.keyboard.press('ArrowLeft');
    const after = await page.evaluate(() => window.viewTest.engine!.getState());
    expect(after.time).toBe(0);
    expect(after.zoom).toBeLessThan(10_000);
    await page.keyboard.press('Home');
    await expect.poll(() => page.evaluate(() => window.viewTest.engine!.getState().zoom)).toBe(100);

    // A real ctrl+wheel over the canvas zooms in at the pointer: the time under it stays put.
    const box = (await group.getByTestId('timeline-canvas').boundingBox())!;
    const x = box.x + box.width * 0.7;
    const before = await page.evaluate(() => window.viewTest.engine!.getState());
    const pps = (s: { viewWidth: number; zoom: number; duration: number }) => (s.viewWidth * s.zoom) / (100 * s.duration);
    const tBefore = before.viewStart + (x - box.x - 1) / pps(before);
    await page.mouse.move(x, box.y + 60);
    await page.keyboard.down('Control');
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    // Five notches of 1.2 each (the events arrive asynchronously).
    await expect.poll(() => page.evaluate(() => window.viewTest.engine!.getState().zoom)).toBeCloseTo(100 * 1.2 ** 5, 6);
    const s = await page.evaluate(() => window.viewTest.engine!.getState());
    const tAfter = s.viewStart + (x - box.x - 1) / pps(s);
    expect(Math.abs(tAfter - tBefore) * pps(s)).toBeLessThan(1);

    // A plain wheel scrolls the timeline sideways and leaves the zoom alone.
    await page.mouse.wheel(0, 100);
    await expect.poll(() => page.evaluate(() => window.viewTest.engine!.getState().viewStart)).toBeGreaterThan(s.viewStart);
    expect(await page.evaluate(() => window.viewTest.engine!.getState().zoom)).toBeCloseTo(100 * 1.2 ** 5, 6);
  });

  it('a click in the ruler seeks and the timecode follows; a handle drag commits the range', async () => {
    const group = page.getByRole('group', { name: 'Timeline' });
    await page.evaluate(() => window.viewTest.engine!.setZoom(100));
    const box = (await group.getByTestId('timeline-canvas').boundingBox())!;
    await page.mouse.click(box.x + 1 + 500, box.y + 10);
    const s = await page.evaluate(() => window.viewTest.engine!.getState());
    expect(s.time).toBeGreaterThan(0);
    await expect.poll(() => group.getByLabel('Playhead').textContent()).not.toBe('00:00:00:00');
    // The end handle of 3000..3600 s sits just right of x(3600).
    expect(s.zoom).toBe(100);
    const xEnd = box.x + 1 + (3600 * s.viewWidth) / 7200 + 5;
    await new Promise((r) => setTimeout(r, 300)); // past use-gesture's wheel-end debounce: nothing more may zoom
    await page.mouse.move(xEnd, box.y + 70);
    await page.mouse.down();
    await page.mouse.move(xEnd + 100, box.y + 70, { steps: 5 });
    await page.mouse.up();
    const commits = await page.evaluate(() => window.viewTest.commits);
    expect(commits.length).toBe(1);
    expect(commits[0]!.start).toBe(3000);
    expect(commits[0]!.end).toBeGreaterThan(3600);
    expect(await page.evaluate(() => window.viewTest.engine!.getState().zoom)).toBe(100);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'timeline-view.png'), clip: { x: 0, y: 0, width: 1040, height: 220 } });
  });

  it('unmount destroys the engine and removes the canvas', async () => {
    await page.evaluate(() => window.viewTest.unmount());
    const r = await page.evaluate(() => ({
      canvases: document.querySelectorAll('canvas').length,
      live: window.viewTest.engines.filter((e) => !e.destroyed).length,
      engine: window.viewTest.engine,
    }));
    expect(r).toEqual({ canvases: 0, live: 0, engine: null });
    expect(browser.pageErrors).toEqual([]);
  });
});

describe('TimelineView on a touch screen', () => {
  let cdp: CDPSession;

  /** Media seconds under a client x. */
  const timeAt = (clientX: number, box: { x: number }) =>
    page.evaluate(
      ({ clientX, left }) => {
        const s = window.viewTest.engine!.getState();
        const pps = (s.viewWidth * s.zoom) / (100 * s.duration);
        return s.viewStart + (clientX - left) / pps;
      },
      { clientX, left: box.x + 1 }, // inside the 1 px border
    );

  /** Two fingers down at centre ± `from` px, apart (or together) to ± `to` px in `steps` moves, then up. */
  async function pinch(cx: number, cy: number, from: number, to: number, steps = 10) {
    const points = (d: number) => [
      { x: cx - d, y: cy, id: 0 },
      { x: cx + d, y: cy, id: 1 },
    ];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(from) });
    for (let i = 1; i <= steps; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: points(from + ((to - from) * i) / steps) });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }

  beforeAll(async () => {
    // Touch support is read when the page's scripts load (@use-gesture picks touch events then):
    // emulate a two-finger touch screen, then load the page again.
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 2 });
    await page.reload();
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    await page.evaluate(() => window.viewTest.mount());
    await page.waitForFunction(() => window.viewTest.engine !== null);
  });

  afterAll(async () => {
    await page.evaluate(() => window.viewTest.unmount());
    await cdp?.detach();
  });

  it('a two-finger pinch zooms in around its centre and out again down to 100 %, without seeking or moving the range', async () => {
    expect(await page.evaluate(() => 'ontouchstart' in window)).toBe(true);
    const group = page.getByRole('group', { name: 'Timeline' });
    const box = (await group.getByTestId('timeline-canvas').boundingBox())!;
    // In the thumbnail row, right of the range (3000..3600 s of 7200 s).
    const cx = box.x + box.width * 0.7;
    const cy = box.y + 75;
    const before = await page.evaluate(() => window.viewTest.engine!.getState());
    expect(before.zoom).toBe(100);
    const anchor = await timeAt(cx, box);

    // Fingers 40 px apart spread to 240 px: six times the zoom.
    await pinch(cx, cy, 20, 120);
    await expect.poll(() => page.evaluate(() => window.viewTest.engine!.getState().zoom)).toBeGreaterThan(400);
    const spread = await page.evaluate(() => window.viewTest.engine!.getState());
    expect(spread.zoom).toBeLessThan(800);
    // The time under the pinch's centre stayed there (within a few px).
    const pps = (spread.viewWidth * spread.zoom) / (100 * spread.duration);
    expect(Math.abs((await timeAt(cx, box)) - anchor) * pps).toBeLessThan(5);
    await expect.poll(() => group.getByText(`${Math.round(spread.zoom)} %`).count()).toBe(1);
    // Neither the first finger's press nor the pinch moved the playhead or the range.
    expect(spread.time).toBe(before.time);
    expect(spread.range).toEqual(before.range);
    expect(spread.dragging).toBeNull();

    // Fingers 300 px apart close to 30 px: a tenth, clamped at 100 %.
    await pinch(cx, cy, 150, 15);
    await expect.poll(() => page.evaluate(() => window.viewTest.engine!.getState().zoom)).toBe(100);
    const closed = await page.evaluate(() => window.viewTest.engine!.getState());
    expect(closed.viewStart).toBe(0);
    expect(closed.time).toBe(before.time);
    expect(await page.evaluate(() => window.viewTest.commits.length)).toBe(0);
    expect(browser.pageErrors).toEqual([]);
  });
});
