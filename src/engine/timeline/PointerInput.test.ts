import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TIMELINE } from '../../contract';
import { plainHost } from '../../../tests/browser/drivers/PlainHost';
import { PointerInput, type PointerHost } from './PointerInput';
import type { EngineState, MomentRange } from './types';

const FPS = 25;
const DURATION = 100; // 1000 px wide at 100 %: 10 px per second
const ROW_Y = TIMELINE.rulerHeight + 10; // inside the thumbnail row

beforeEach(() => {
  (globalThis as { window?: EventTarget }).window = new EventTarget();
});
afterEach(() => {
  delete (globalThis as { window?: EventTarget }).window;
});

/** Pointer input on a stand-in canvas at the page's top left, with the engine's state as a plain object. */
function setup(initial: Partial<EngineState> = {}) {
  const canvas = Object.assign(new EventTarget(), {
    style: { cursor: '' },
    getBoundingClientRect: () => ({ left: 0, top: 0 }),
    setPointerCapture() {},
    hasPointerCapture: () => false,
    releasePointerCapture() {},
  }) as unknown as HTMLCanvasElement;
  const base = plainHost(FPS, DURATION, { range: { start: 20, end: 40 }, ...initial });
  const commits: MomentRange[] = [];
  let frameRequests = 0;
  const host: PointerHost = {
    ...base,
    canvas: () => canvas,
    seekTo: (seconds) => base.patch({ time: Math.round(seconds * FPS) / FPS }),
    commitRange: () => commits.push(base.state().range!),
    invalidate: () => {},
    requestFrame: () => void frameRequests++,
    cancelStepFrame: () => {},
  };
  const input = new PointerInput(host);
  input.listen(canvas);
  const fire = (type: string, x: number, y = ROW_Y, pointerId = 1) =>
    canvas.dispatchEvent(
      Object.assign(new Event(type, { cancelable: true }), { clientX: x, clientY: y, pointerId, button: 0, isPrimary: pointerId === 1 }),
    );
  return {
    input,
    canvas,
    commits,
    fire,
    get state() {
      return base.state();
    },
    get frameRequests() {
      return frameRequests;
    },
  };
}

describe('pointer input on the timeline', () => {
  it('drags the end handle on frame boundaries and commits once on release', () => {
    const t = setup();
    t.fire('pointerdown', 402); // the end handle (range ends at x = 400)
    expect(t.state.dragging).toBe('end');
    t.fire('pointermove', 555.3);
    t.fire('pointermove', 600.1);
    expect(t.commits).toEqual([]);
    t.fire('pointerup', 600.1);
    expect(t.state.dragging).toBeNull();
    expect(t.state.range).toEqual({ start: 20, end: 60 });
    expect(t.commits).toEqual([{ start: 20, end: 60 }]);
  });

  it('keeps 36 px between the handles', () => {
    const t = setup();
    t.fire('pointerdown', 198); // the start handle
    t.fire('pointermove', 390);
    t.fire('pointerup', 390);
    expect(t.state.range).toEqual({ start: 36.4, end: 40 });
  });

  it('moves the whole range from its body, length unchanged', () => {
    const t = setup();
    t.fire('pointerdown', 300);
    expect(t.state.dragging).toBe('range');
    t.fire('pointermove', 450);
    t.fire('pointerup', 450);
    expect(t.state.range).toEqual({ start: 35, end: 55 });
    expect(t.commits).toHaveLength(1);
  });

  it('seeks with a press outside the range and drags the playhead, committing nothing', () => {
    const t = setup();
    t.fire('pointerdown', 700, 5);
    expect(t.state.dragging).toBe('playhead');
    expect(t.state.time).toBe(70);
    t.fire('pointermove', 720, 5);
    t.fire('pointerup', 720, 5);
    expect(t.state.time).toBe(72);
    expect(t.commits).toEqual([]);
  });

  it('puts the range back on Escape, and on a second finger', () => {
    const t = setup();
    t.fire('pointerdown', 402);
    t.fire('pointermove', 600);
    window.dispatchEvent(Object.assign(new Event('keydown', { cancelable: true }), { key: 'Escape' }));
    expect(t.state).toMatchObject({ range: { start: 20, end: 40 }, dragging: null });
    t.fire('pointerdown', 300);
    t.fire('pointermove', 450);
    t.fire('pointerdown', 800, ROW_Y, 2);
    expect(t.state).toMatchObject({ range: { start: 20, end: 40 }, dragging: null });
    expect(t.commits).toEqual([]);
  });

  it('auto-scrolls a zoomed-in view while a handle is held at its edge, and stops on release', () => {
    const t = setup({ zoom: 1000, range: { start: 2, end: 6 } }); // 100 px per second, 10 s in view
    t.fire('pointerdown', 602);
    t.fire('pointermove', 995);
    expect(t.frameRequests).toBe(1);
    expect(t.input.stepAutoScroll(0)).toBe(true);
    expect(t.input.stepAutoScroll(100)).toBe(true);
    expect(t.state.viewStart).toBeGreaterThan(0);
    expect(t.state.range!.end).toBeGreaterThan(10);
    t.fire('pointerup', 995);
    expect(t.input.stepAutoScroll(200)).toBe(false);
  });

  it('shows which handle is under a hovering pointer', () => {
    const t = setup();
    t.fire('pointermove', 195);
    expect(t.input.hoverHandle).toBe('start');
    expect(t.canvas.style.cursor).toBe('ew-resize');
    t.fire('pointermove', 300);
    expect(t.input.hoverHandle).toBeNull();
    expect(t.canvas.style.cursor).toBe('grab');
    t.fire('pointerleave', 300);
    expect(t.input.hoverHandle).toBeNull();
  });
});
