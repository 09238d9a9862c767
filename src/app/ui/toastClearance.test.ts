import { describe, expect, it } from 'vitest';
import { toastLift } from './toastClearance';

// A 1280×800 window: toasts in the bottom right corner (x 920-1260, y 700-780).
const toasts = { left: 920, top: 700, right: 1260, bottom: 780 };

describe('toastLift', () => {
  it('lifts toasts that would cover the footer to just above it', () => {
    // The moment dialog's footer: Download and Close at the bottom right.
    expect(toastLift(toasts, { left: 61, top: 718, right: 1219, bottom: 784 }, 800)).toBe(70);
    expect(toastLift(toasts, { left: 61, top: 718, right: 1219, bottom: 784 }, 800, 12)).toBe(74);
  });

  it('leaves them where they are when they cover nothing', () => {
    // no dialog, no toasts, a short dialog whose footer is higher up, a footer to the left
    expect(toastLift(toasts, null, 800)).toBe(0);
    expect(toastLift({ left: 0, top: 0, right: 0, bottom: 0 }, { left: 61, top: 718, right: 1219, bottom: 784 }, 800)).toBe(0);
    expect(toastLift(toasts, { left: 400, top: 450, right: 880, bottom: 500 }, 800)).toBe(0);
    expect(toastLift(toasts, { left: 100, top: 720, right: 900, bottom: 780 }, 800)).toBe(0);
  });

  it('ignores a footer scrolled out of the window', () => {
    expect(toastLift(toasts, { left: 61, top: 820, right: 1219, bottom: 880 }, 800)).toBe(0);
    expect(toastLift(toasts, { left: 61, top: -80, right: 1219, bottom: -20 }, 800)).toBe(0);
  });
});
