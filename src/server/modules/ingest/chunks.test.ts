import { describe, expect, it } from 'vitest';
import { byChunk, chunkCount, chunkOf, chunkRange, chunkSecondsProblem, shotsOf } from './chunks';

describe('chunk planning', () => {
  const c = { seconds: 120, after: 240 };

  it('chunks only media longer than the threshold, on a grid of whole chunks with the last to the end', () => {
    expect(chunkCount(240, c)).toBe(0);
    expect(chunkCount(0, c)).toBe(0);
    expect(chunkCount(240.04, c)).toBe(3);
    expect(chunkCount(600, c)).toBe(5);
    expect(chunkCount(601, c)).toBe(6);
    expect([0, 1, 2].map((i) => chunkRange(i, 3, 120))).toEqual([
      { index: 0, from: 0, to: 120 },
      { index: 1, from: 120, to: 240 },
      { index: 2, from: 240, to: Infinity },
    ]);
  });

  it('refuses a grid that would cut through a speech piece', () => {
    expect(chunkSecondsProblem(120)).toBeNull();
    expect(chunkSecondsProblem(30)).toBeNull();
    expect(chunkSecondsProblem(100)).toMatch(/multiple of 30/);
    expect(chunkSecondsProblem(0)).toMatch(/multiple of 30/);
  });

  it('groups times by chunk, a grid line belonging to the chunk it starts', () => {
    expect(chunkOf(29.999, 30)).toBe(0);
    expect(chunkOf(30, 30)).toBe(1);
    const frames = [0, 2, 29.96, 30, 31, 61, 95].map((t) => ({ t }));
    expect(byChunk(frames, 30).map((g) => g.map((f) => f.t))).toEqual([[0, 2, 29.96], [30, 31], [61], [95]]);
  });

  it('starts a shot at the first keyframe and at every scene change, each ending where the next starts', () => {
    const { shots, shotIdx } = shotsOf(
      [
        { t: 0.04, scene: 0 },
        { t: 2, scene: 0.1 },
        { t: 5, scene: 0.6 },
        { t: 7, scene: 0 },
      ],
      10,
      0.3,
    );
    expect(shots).toEqual([
      { start: 0, end: 5 },
      { start: 5, end: 10 },
    ]);
    expect(shotIdx).toEqual([0, 0, 1, 1]);
  });
});
