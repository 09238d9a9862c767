import { describe, expect, it } from 'vitest';
import { TIMELINE } from '../../contract';
import { coverRect, frameIndexOf, keyframeIndexOf, thumbnailKey, tilePixels } from './tileGeometry';

describe('tile geometry', () => {
  it('sizes bitmaps for the device pixel ratio, at most 2x', () => {
    expect(tilePixels(TIMELINE.thumbnailFrameWidth, TIMELINE.thumbnailRowHeight, 1)).toEqual({ width: 140, height: 90 });
    expect(tilePixels(140, 90, 1.5)).toEqual({ width: 210, height: 135 });
    expect(tilePixels(140, 90, 3)).toEqual({ width: 280, height: 180 });
    expect(tilePixels(140, 90, 0)).toEqual({ width: 140, height: 90 });
  });

  it('covers a tile keeping the aspect: a 16:9 frame loses its sides in a 140x90 tile', () => {
    expect(coverRect(320, 180, 140, 90)).toEqual({ x: 20, y: 0, width: 280, height: 180 });
    expect(coverRect(1080, 1920, 140, 90)).toEqual({ x: 0, y: (1920 - 1080 * (90 / 140)) / 2, width: 1080, height: 1080 * (90 / 140) });
    expect(coverRect(320, 180, 160, 90)).toEqual({ x: 0, y: 0, width: 320, height: 180 });
  });

  it('quantises a time to the frame it shows', () => {
    expect(frameIndexOf(7 / 25, 25)).toBe(7);
    expect(frameIndexOf(7.99 / 25, 25)).toBe(7);
    expect(frameIndexOf(-1, 25)).toBe(0);
    expect(thumbnailKey(7, 'exact', 140, 90)).not.toBe(thumbnailKey(7, 'keyframe', 140, 90));
  });

  it('maps a time to the keyframe shown at or before it', () => {
    const keys = [0, 2, 4, 6.5];
    expect([-1, 0, 1.99, 2, 3.9, 4, 6.49, 6.5, 100].map((t) => keyframeIndexOf(t, keys))).toEqual([0, 0, 0, 1, 1, 2, 2, 3, 3]);
    expect(thumbnailKey('k3', 'keyframe', 140, 90)).not.toBe(thumbnailKey(3, 'keyframe', 140, 90));
  });
});
