import { describe, expect, it } from 'vitest';
import { AUTO_SCROLL_EDGE_PX, AUTO_SCROLL_MAX_STEP_SECONDS, autoScrollBy, edgeScrollSpeed } from './autoScroll';
import type { Viewport } from './zoom';

// 100 s over 1000 px at 1000 %: 10 s visible, 100 px/s; viewStart runs 0..90.
const view = (over: Partial<Viewport> = {}): Viewport => ({ duration: 100, width: 1000, zoom: 1000, viewStart: 40, ...over });
const EDGE = AUTO_SCROLL_EDGE_PX;

describe('edge auto-scroll', () => {
  it('is still inside the edge zones and pans outwards within them', () => {
    expect(edgeScrollSpeed(view(), 500)).toBe(0);
    expect(edgeScrollSpeed(view(), EDGE)).toBe(0);
    expect(edgeScrollSpeed(view(), 1000 - EDGE)).toBe(0);
    expect(edgeScrollSpeed(view(), EDGE - 1)).toBeLessThan(0);
    expect(edgeScrollSpeed(view(), 1000 - EDGE + 1)).toBeGreaterThan(0);
  });

  it('speeds up towards and past the edge, up to a view width per second', () => {
    const speeds = [EDGE - 1, EDGE / 2, 0, -EDGE / 2, -EDGE, -10 * EDGE].map((x) => -edgeScrollSpeed(view(), x));
    for (let i = 1; i < speeds.length - 1; i++) expect(speeds[i]).toBeGreaterThan(speeds[i - 1]!);
    expect(speeds[3]).toBeCloseTo(1000 * 0.75, 9);
    expect(speeds[4]).toBe(1000);
    expect(speeds[5]).toBe(1000); // capped
    // Mirrored at the right edge.
    expect(edgeScrollSpeed(view(), 1000 + EDGE)).toBe(1000);
    expect(edgeScrollSpeed(view(), 1000)).toBe(500);
  });

  it('does not scroll at 100 % or towards an end the view already shows', () => {
    expect(edgeScrollSpeed(view({ zoom: 100, viewStart: 0 }), -50)).toBe(0);
    expect(edgeScrollSpeed(view({ zoom: 100, viewStart: 0 }), 1050)).toBe(0);
    expect(edgeScrollSpeed(view({ viewStart: 0 }), -50)).toBe(0);
    expect(edgeScrollSpeed(view({ viewStart: 0 }), 1050)).toBeGreaterThan(0);
    expect(edgeScrollSpeed(view({ viewStart: 90 }), 1050)).toBe(0);
    expect(edgeScrollSpeed(view({ viewStart: 90 }), -50)).toBeLessThan(0);
    expect(edgeScrollSpeed(view(), Number.NaN)).toBe(0);
  });

  it('keeps the zones to the outer quarters of a narrow timeline', () => {
    const narrow = view({ width: 60 });
    expect(edgeScrollSpeed(narrow, 16)).toBe(0); // zone is 15 px, not 24
    expect(edgeScrollSpeed(narrow, 14)).toBeLessThan(0);
  });

  it('pans by speed x time, clamped to the media and to one long step', () => {
    // Pointer 24 px past the left edge: 1000 px/s = 10 s/s; 20 ms = 0.2 s.
    expect(autoScrollBy(view(), -EDGE, 0.02).viewStart).toBeCloseTo(39.8, 9);
    expect(autoScrollBy(view(), 1000 + EDGE, 0.02).viewStart).toBeCloseTo(40.2, 9);
    // A frame that came late moves no more than the longest step.
    expect(autoScrollBy(view(), -EDGE, 3).viewStart).toBeCloseTo(40 - 10 * AUTO_SCROLL_MAX_STEP_SECONDS, 9);
    expect(autoScrollBy(view({ viewStart: 0.1 }), -EDGE, 0.05).viewStart).toBe(0);
    expect(autoScrollBy(view({ viewStart: 89.9 }), 1000 + EDGE, 0.05).viewStart).toBe(90);
    const still = view();
    expect(autoScrollBy(still, 500, 0.05)).toBe(still);
    expect(autoScrollBy(still, -EDGE, -1)).toBe(still);
  });
});
