import { describe, expect, it } from 'vitest';
import { wheelIntent } from './wheel';

describe('wheel intent', () => {
  it('zooms in on wheel up and out on wheel down', () => {
    const zin = wheelIntent({ deltaX: 0, deltaY: -100 });
    const zout = wheelIntent({ deltaX: 0, deltaY: 100 });
    expect(zin?.type).toBe('zoom');
    expect(zin?.type === 'zoom' && zin.factor).toBeGreaterThan(1);
    expect(zout?.type === 'zoom' && zout.factor).toBeLessThan(1);
    // Symmetric: a notch in then out returns to the same zoom.
    if (zin?.type === 'zoom' && zout?.type === 'zoom') expect(zin.factor * zout.factor).toBeCloseTo(1, 12);
  });

  it('pinch (ctrl+wheel) zooms faster per pixel', () => {
    const pinch = wheelIntent({ deltaX: 0, deltaY: -10, ctrlKey: true });
    const wheel = wheelIntent({ deltaX: 0, deltaY: -10 });
    expect(pinch?.type === 'zoom' && wheel?.type === 'zoom' && pinch.factor > wheel.factor).toBe(true);
  });

  it('pans on horizontal or shift wheel, in pixels', () => {
    expect(wheelIntent({ deltaX: 40, deltaY: 3 })).toEqual({ type: 'pan', px: 40 });
    expect(wheelIntent({ deltaX: 0, deltaY: 30, shiftKey: true })).toEqual({ type: 'pan', px: 30 });
    expect(wheelIntent({ deltaX: 2, deltaY: 0, deltaMode: 1 })).toEqual({ type: 'pan', px: 32 });
    expect(wheelIntent({ deltaX: 0, deltaY: 0 })).toBeNull();
  });
});
