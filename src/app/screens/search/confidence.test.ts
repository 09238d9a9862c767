import { describe, expect, it } from 'vitest';
import { splitByConfidence } from './confidence';

describe('splitByConfidence', () => {
  it('keeps low-confidence results apart, in order, and treats a result without a confidence as confident', () => {
    const r = [
      { id: 'a', confidence: 'high' as const },
      { id: 'b', confidence: 'low' as const },
      { id: 'c' },
      { id: 'd', confidence: 'medium' as const },
      { id: 'e', confidence: 'low' as const },
    ];
    const { confident, low } = splitByConfidence(r);
    expect(confident.map((m) => m.id)).toEqual(['a', 'c', 'd']);
    expect(low.map((m) => m.id)).toEqual(['b', 'e']);
  });
});
