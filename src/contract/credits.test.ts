import { describe, expect, it } from 'vitest';
import {
  canAfford,
  ingestCost,
  ingestLeftSeconds,
  renderCredits,
  renderSeconds,
  storageLeftSeconds,
  watermarkRemovalCost,
} from './credits';

describe('credit maths', () => {
  it('charges 10,000 credits an hour of ingest with a 5 s minimum', () => {
    expect(ingestCost(3600)).toBe(10_000);
    expect(ingestCost(1)).toBe(ingestCost(5));
    expect(ingestCost(5)).toBe(14);
    expect(ingestCost(600)).toBe(1667);
  });
  it('prices watermark removal at ceil(seconds / 60 × 250)', () => {
    expect(watermarkRemovalCost(60)).toBe(250);
    expect(watermarkRemovalCost(61)).toBe(255);
    expect(watermarkRemovalCost(1)).toBe(5);
  });
  it("measures a render's seconds as the server does: each end to the millisecond, an end past the media's at its end", () => {
    expect(renderSeconds([{ start: 1.0004, end: 3.0004 }])).toBe(2);
    expect(renderSeconds([{ start: 18, end: 20.5, mediaDuration: 20.02 }])).toBeCloseTo(2.02, 9);
    expect(
      renderSeconds([
        { start: 0, end: 4 },
        { start: 10, end: 13.5, mediaDuration: null },
      ]),
    ).toBe(7.5);
  });
  it('prices a render without the watermark once for all its ranges (a compilation), not per range', () => {
    expect(renderCredits([{ start: 0, end: 23 }])).toBe(96);
    expect(
      renderCredits([
        { start: 0, end: 1.3 },
        { start: 1.3, end: 2.6 },
      ]),
    ).toBe(watermarkRemovalCost(2.6));
    expect(renderCredits([{ start: 0, end: 1.3 }]) * 2).toBeGreaterThan(
      renderCredits([
        { start: 0, end: 1.3 },
        { start: 1.3, end: 2.6 },
      ]),
    );
  });
  it('derives ingest and storage left', () => {
    expect(ingestLeftSeconds(10_000)).toBe(3600);
    expect(ingestLeftSeconds(-300)).toBe(0);
    expect(storageLeftSeconds(10, 2.5)).toBe(27_000);
  });
  it('allows charges down to -5,000 and no further', () => {
    expect(canAfford(0, 5000)).toBe(true);
    expect(canAfford(0, 5001)).toBe(false);
    expect(canAfford(-4000, 1000)).toBe(true);
  });
});
