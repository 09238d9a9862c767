import { describe, expect, it } from 'vitest';
import { canAfford, ingestCost, ingestLeftSeconds, storageLeftSeconds, watermarkRemovalCost } from './credits';

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
