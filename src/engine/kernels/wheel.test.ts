import { describe, expect, it } from 'vitest';
import { wheelIntent, ZOOM_PER_NOTCH } from './wheel';

const factor = (e: Parameters<typeof wheelIntent>[0]) => {
  const i = wheelIntent(e);
  if (i?.type !== 'zoom') throw new Error(`not a zoom: ${JSON.stringify(i)}`);
  return i.factor;
};

describe('wheel intent', () => {
  it('ctrl+wheel zooms one fixed small step per notch, in on wheel up and out on wheel down', () => {
    expect(factor({ deltaX: 0, deltaY: -100, ctrlKey: true })).toBeCloseTo(ZOOM_PER_NOTCH, 12);
    expect(factor({ deltaX: 0, deltaY: 100, ctrlKey: true })).toBeCloseTo(1 / ZOOM_PER_NOTCH, 12);
    expect(ZOOM_PER_NOTCH).toBeLessThanOrEqual(1.25);
  });

  it('never zooms more than one notch per event, whatever the delta or its unit', () => {
    for (const e of [
      { deltaX: 0, deltaY: -120, ctrlKey: true },
      { deltaX: 0, deltaY: -300, ctrlKey: true },
      { deltaX: 0, deltaY: -1e6, ctrlKey: true },
      { deltaX: 0, deltaY: -3, deltaMode: 1, ctrlKey: true },
      { deltaX: 0, deltaY: -1, deltaMode: 2, ctrlKey: true },
    ])
      expect(factor(e)).toBeLessThanOrEqual(ZOOM_PER_NOTCH + 1e-12);
  });

  it('a trackpad pinch (many small ctrl+wheel deltas) zooms at the same rate as the wheel', () => {
    let pinch = 1;
    for (let i = 0; i < 25; i++) pinch *= factor({ deltaX: 0, deltaY: -4, ctrlKey: true });
    expect(pinch).toBeCloseTo(ZOOM_PER_NOTCH, 12);
  });

  it('a plain wheel scrolls sideways and never zooms', () => {
    expect(wheelIntent({ deltaX: 0, deltaY: 100 })).toEqual({ type: 'pan', px: 100 });
    expect(wheelIntent({ deltaX: 0, deltaY: -3, deltaMode: 1 })).toEqual({ type: 'pan', px: -48 });
    expect(wheelIntent({ deltaX: 40, deltaY: 3 })).toEqual({ type: 'pan', px: 40 });
    expect(wheelIntent({ deltaX: 0, deltaY: 30, shiftKey: true })).toEqual({ type: 'pan', px: 30 });
    expect(wheelIntent({ deltaX: 2, deltaY: 0, deltaMode: 1 })).toEqual({ type: 'pan', px: 32 });
    expect(wheelIntent({ deltaX: 0, deltaY: 0 })).toBeNull();
    expect(wheelIntent({ deltaX: 0, deltaY: 0, ctrlKey: true })).toBeNull();
  });
});
