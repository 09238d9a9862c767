import { describe, expect, it } from 'vitest';
import { centreOut, tilePrecision, visibleTiles } from './tiles';

describe('tile virtualisation', () => {
  it('covers the width at 100 % with whole tiles', () => {
    // 1000 px over 7200 s: 140 px tiles are 1008 s each, 8 tiles (the last runs past the edge).
    const s = visibleTiles(0, 1000, 1000 / 7200, 7200);
    expect(s).toEqual({ first: 0, last: 7, tileSeconds: 1008 });
  });

  it('only the visible tiles at 10000 % on a two-hour media', () => {
    const pps = 1000 / 72;
    const s = visibleTiles(3600, 1000, pps, 7200);
    expect(s.last - s.first + 1).toBeLessThanOrEqual(Math.ceil(1000 / 140) + 1);
    expect(s.first * s.tileSeconds).toBeLessThanOrEqual(3600);
    expect((s.last + 1) * s.tileSeconds).toBeGreaterThanOrEqual(3672);
  });

  it('never lists a tile that starts past the media end', () => {
    const s = visibleTiles(0, 1000, 1000 / 10, 10); // 1.4 s tiles over 10 s
    expect(s.last).toBe(7);
    expect(s.last * s.tileSeconds).toBeLessThan(10);
    expect(visibleTiles(0, 0, 1, 10).last).toBe(-1);
  });

  it('chooses keyframe precision for tiles of a second or more', () => {
    expect(tilePrecision(1)).toBe('keyframe');
    expect(tilePrecision(0.99)).toBe('exact');
  });

  it('orders requests from the centre out', () => {
    expect(centreOut(0, 4)).toEqual([2, 3, 1, 4, 0]);
    expect(centreOut(3, 3)).toEqual([3]);
    expect(centreOut(2, 1)).toEqual([]);
  });
});
