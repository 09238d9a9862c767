import { describe, expect, it } from 'vitest';
import { dragEnd, dragStart, markIn, markOut, minRangeFrames, normalizeRange } from './handles';

describe('handle limits', () => {
  it('keeps 36 px when that is longer than 0.1 s', () => {
    // 100 px/s: 36 px = 0.36 s = 10.8 frames at 30 fps -> 11 frames.
    expect(minRangeFrames(100, 30)).toBe(11);
  });

  it('keeps 0.1 s when that is longer than 36 px', () => {
    // 10 000 px/s: 36 px = 3.6 ms, so 0.1 s = 3 frames at 30 fps wins.
    expect(minRangeFrames(10_000, 30)).toBe(3);
    expect(minRangeFrames(10_000, 25)).toBe(3); // 2.5 frames rounds up
  });

  it('stops the start handle at end - min and at 0', () => {
    expect(dragStart({ start: 30, end: 90 }, 200, 11)).toEqual({ start: 79, end: 90 });
    expect(dragStart({ start: 30, end: 90 }, -40, 11)).toEqual({ start: 0, end: 90 });
    expect(dragStart({ start: 30, end: 90 }, 44.6, 11)).toEqual({ start: 45, end: 90 });
  });

  it('stops the end handle at start + min and at the media end', () => {
    expect(dragEnd({ start: 30, end: 90 }, 0, 11, 10, 30)).toEqual({ start: 30, end: 41 });
    expect(dragEnd({ start: 30, end: 90 }, 1000, 11, 10, 30)).toEqual({ start: 30, end: 300 });
  });

  it('normalises ranges from outside', () => {
    expect(normalizeRange({ start: 50, end: 20 }, 3, 10, 30)).toEqual({ start: 20, end: 50 });
    expect(normalizeRange({ start: 299, end: 299 }, 3, 10, 30)).toEqual({ start: 297, end: 300 });
    expect(normalizeRange({ start: -10, end: 999 }, 3, 10, 30)).toEqual({ start: 0, end: 300 });
  });

  it('I and O set the in and out points, keeping the minimum', () => {
    expect(markIn(null, 60, 3, 10, 30)).toEqual({ start: 60, end: 300 });
    expect(markOut(null, 60, 3, 10, 30)).toEqual({ start: 0, end: 60 });
    expect(markIn({ start: 30, end: 90 }, 60, 3, 10, 30)).toEqual({ start: 60, end: 90 });
    expect(markIn({ start: 30, end: 90 }, 120, 3, 10, 30)).toEqual({ start: 120, end: 123 });
    expect(markOut({ start: 30, end: 90 }, 60, 3, 10, 30)).toEqual({ start: 30, end: 60 });
    expect(markOut({ start: 30, end: 90 }, 10, 3, 10, 30)).toEqual({ start: 7, end: 10 });
    expect(markOut(null, 0, 3, 10, 30)).toEqual({ start: 0, end: 3 });
    expect(markIn(null, 300, 3, 10, 30)).toEqual({ start: 297, end: 300 });
  });
});
