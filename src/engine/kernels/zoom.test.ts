import { describe, expect, it } from 'vitest';
import {
  clampViewStart,
  clampZoom,
  panBy,
  pxPerSecond,
  reveal,
  sliderToZoom,
  timeAtX,
  visibleSeconds,
  xAtTime,
  zoomAt,
  zoomToSlider,
  type Viewport,
} from './zoom';

const view = (over: Partial<Viewport> = {}): Viewport => ({ duration: 7200, width: 1000, zoom: 100, viewStart: 0, ...over });

describe('zoom', () => {
  it('clamps to 100..10000 %', () => {
    expect(clampZoom(50)).toBe(100);
    expect(clampZoom(20_000)).toBe(10_000);
    expect(clampZoom(NaN)).toBe(100);
  });

  it('shows the whole media at 100 % and a hundredth at 10000 %', () => {
    expect(visibleSeconds(7200, 100)).toBe(7200);
    expect(visibleSeconds(7200, 10_000)).toBe(72);
    expect(pxPerSecond(view({ zoom: 10_000 }))).toBeCloseTo(1000 / 72, 9);
  });

  it('maps the slider logarithmically and back', () => {
    expect(sliderToZoom(0)).toBe(100);
    expect(sliderToZoom(1)).toBeCloseTo(10_000, 6);
    expect(sliderToZoom(0.5)).toBeCloseTo(1000, 6);
    expect(sliderToZoom(0.25)).toBeCloseTo(Math.sqrt(1000 * 100), 6);
    for (const z of [100, 137, 1000, 4321, 10_000]) expect(sliderToZoom(zoomToSlider(z))).toBeCloseTo(z, 6);
    expect(sliderToZoom(-1)).toBe(100);
    expect(sliderToZoom(2)).toBeCloseTo(10_000, 6);
  });

  it('keeps the time under the pointer when zooming', () => {
    let v = view();
    const x = 730;
    const t = timeAtX(v, x);
    for (const z of [150, 900, 4000, 10_000, 2500, 100]) {
      v = zoomAt(v, z, x);
      if (v.zoom > 100) expect(xAtTime(v, t)).toBeCloseTo(x, 6);
    }
    expect(v.viewStart).toBe(0);
  });

  it('clamps the view to the media when the anchor is at an edge', () => {
    const v = zoomAt(view({ zoom: 10_000, viewStart: 7200 - 72 }), 200, 1000);
    expect(v.viewStart).toBe(3600); // would be 7200 - 3600 + ... but never past the end
    expect(clampViewStart(-5, 100, 200)).toBe(0);
    expect(clampViewStart(80, 100, 200)).toBe(50);
  });

  it('pans in px and stops at both ends', () => {
    const v = view({ zoom: 1000 });
    expect(panBy(v, 500).viewStart).toBeCloseTo(360, 9);
    expect(panBy(v, -500).viewStart).toBe(0);
    expect(panBy(v, 1e9).viewStart).toBeCloseTo(7200 - 720, 9);
    expect(panBy(view(), 300).viewStart).toBe(0); // nothing to pan at 100 %
  });

  it('reveals a time with the least movement', () => {
    const v = view({ zoom: 1000, viewStart: 1000 });
    expect(reveal(v, 1200).viewStart).toBe(1000);
    expect(reveal(v, 2000).viewStart).toBeCloseTo(2000 - 720, 9);
    expect(reveal(v, 10).viewStart).toBe(10);
  });
});
