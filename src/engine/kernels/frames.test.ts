import { describe, expect, it } from 'vitest';
import {
  effectiveFrameRate,
  frameAt,
  homeEndTime,
  lastFrame,
  nearestFrame,
  rangeFrames,
  rangeSeconds,
  sameRange,
  snapTime,
} from './frames';

describe('frames', () => {
  it('assumes 30 fps when the rate is unknown', () => {
    expect(effectiveFrameRate(0)).toBe(30);
    expect(effectiveFrameRate(NaN)).toBe(30);
    expect(effectiveFrameRate(-5)).toBe(30);
    expect(effectiveFrameRate(24)).toBe(24);
  });

  it('counts frame boundaries inside the media', () => {
    expect(lastFrame(10, 30)).toBe(300);
    expect(lastFrame(10.01, 30)).toBe(300);
    expect(lastFrame(0.1, 30)).toBe(3); // 0.1 * 30 is 3.0000000000000004
  });

  it('takes the shown frame at a time, tolerating float error at boundaries', () => {
    expect(frameAt(0.1, 30, 10)).toBe(3);
    expect(frameAt(3 / 30 - 1e-9, 30, 10)).toBe(3);
    expect(frameAt(0.119, 30, 10)).toBe(3);
    expect(frameAt(-1, 30, 10)).toBe(0);
    expect(frameAt(99, 30, 10)).toBe(300);
  });

  it('snaps to the nearest boundary and clamps to the media', () => {
    expect(nearestFrame(0.118, 30, 10)).toBe(4);
    expect(snapTime(1.01, 25, 10)).toBeCloseTo(1.0, 12);
    expect(snapTime(1.03, 25, 10)).toBeCloseTo(1.04, 12);
    expect(snapTime(12, 25, 10)).toBe(10);
    expect(snapTime(-3, 25, 10)).toBe(0);
  });
});

describe('ranges in frames', () => {
  it('snaps a range in seconds to frame boundaries inside the media and back', () => {
    expect(rangeFrames({ start: 1.01, end: 2.49 }, 25, 10)).toEqual({ start: 25, end: 62 });
    expect(rangeFrames({ start: -3, end: 99 }, 25, 10)).toEqual({ start: 0, end: 250 });
    expect(rangeSeconds({ start: 25, end: 62 }, 25)).toEqual({ start: 1, end: 2.48 });
  });

  it('compares ranges by value, null included', () => {
    expect(sameRange({ start: 1, end: 2 }, { start: 1, end: 2 })).toBe(true);
    expect(sameRange({ start: 1, end: 2 }, { start: 1, end: 2.04 })).toBe(false);
    expect(sameRange(null, null)).toBe(true);
    expect(sameRange(null, { start: 0, end: 1 })).toBe(false);
  });
});

describe('homeEndTime', () => {
  it("goes to the media's ends without a range", () => {
    expect(homeEndTime('start', null, 25, 12)).toBe(0);
    expect(homeEndTime('end', null, 25, 12)).toBe(12);
  });
  it("goes to a range's first and last frame with one", () => {
    // 1.0 s to 6.0 s at 25 fps: frames 25..149, the last one at 5.96 s.
    expect(homeEndTime('start', { start: 1, end: 6 }, 25, 12)).toBe(1);
    expect(homeEndTime('end', { start: 1, end: 6 }, 25, 12)).toBeCloseTo(5.96, 9);
    // A one-frame range: its only frame for both.
    expect(homeEndTime('end', { start: 2, end: 2.04 }, 25, 12)).toBe(2);
  });
});
