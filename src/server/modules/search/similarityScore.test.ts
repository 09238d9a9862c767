import { describe, expect, it } from 'vitest';
import { confidenceOf } from '../../../contract';
import { SIMILAR_MIN_SIM, similarityFor, similarityScore } from './similarityScore';

describe('similarityScore', () => {
  it('puts unrelated photos low and the same photo high, on the 0-1 scale', () => {
    // the demo library's unrelated shots measured 0.50-0.72; a photo against itself mirrored and cropped 0.90
    for (const sim of [0.2, 0.5, 0.65, 0.72]) expect(confidenceOf(similarityScore(sim)), String(sim)).toBe('low');
    expect(confidenceOf(similarityScore(0.8))).toBe('medium');
    expect(confidenceOf(similarityScore(0.9))).toBe('high');
    expect(similarityScore(-1)).toBe(0);
    expect(similarityScore(1)).toBe(1);
  });

  it('asks the index for what scores medium or more when finding similar moments', () => {
    expect(similarityScore(SIMILAR_MIN_SIM)).toBeCloseTo(0.3, 10);
    expect(confidenceOf(similarityScore(SIMILAR_MIN_SIM + 1e-9))).toBe('medium');
    expect(similarityScore(similarityFor(0.6))).toBeCloseTo(0.6, 10);
  });
});
