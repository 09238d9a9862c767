import { describe, expect, it } from 'vitest';
import { chooseTicks, tickCandidates, tickTimes } from './ruler';

describe('ruler ticks', () => {
  it('offers frame steps below a second, then clock steps', () => {
    expect(tickCandidates(30).slice(0, 6)).toEqual([1 / 30, 2 / 30, 5 / 30, 10 / 30, 15 / 30, 1]);
    expect(tickCandidates(24).slice(0, 5)).toEqual([1 / 24, 2 / 24, 5 / 24, 10 / 24, 12 / 24]);
  });

  it('keeps labels apart on a two-hour media at 100 %', () => {
    const pps = 1000 / 7200;
    const t = chooseTicks(pps, 30, 80);
    expect(t.major * pps).toBeGreaterThanOrEqual(80);
    expect(t.major).toBe(600); // 83 px apart; 300 s would be 42 px
    expect(t.showFrames).toBe(false);
    expect(t.minor).toBeLessThan(t.major);
    expect((t.major / t.minor) % 1).toBeCloseTo(0, 9);
  });

  it('labels frames when zoomed in far', () => {
    const t = chooseTicks(10_000, 30, 80);
    expect(t.major).toBeCloseTo(1 / 30, 12);
    expect(t.showFrames).toBe(true);
    expect(t.minor).toBe(t.major);
  });

  it('lists tick times inside the window', () => {
    expect(tickTimes(9.5, 31, 10)).toEqual([10, 20, 30]);
    expect(tickTimes(0, 0.1, 1 / 30).length).toBe(4);
    expect(tickTimes(0, 10, 0)).toEqual([]);
    expect(tickTimes(0, 1e9, 1, 50).length).toBe(50);
  });
});
