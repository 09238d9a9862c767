import { describe, expect, it } from 'vitest';
import { dragEnd, dragStart, handleAtX, markIn, markMinFrames, markOut, minRangeFrames, moveRange, normalizeRange } from './handles';

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

  it('moves the whole range by whole frames, keeping its length', () => {
    // 30 fps, 10 s: frames 0..300.
    expect(moveRange({ start: 30, end: 90 }, 1, 10, 30)).toEqual({ start: 60, end: 120 });
    expect(moveRange({ start: 30, end: 90 }, -0.5, 10, 30)).toEqual({ start: 15, end: 75 });
    // 0.51 s is 15.3 frames: snapped to 15, never a fraction of a frame.
    expect(moveRange({ start: 30, end: 90 }, 0.51, 10, 30)).toEqual({ start: 45, end: 105 });
    expect(moveRange({ start: 30, end: 90 }, 0.49 / 30, 10, 30)).toEqual({ start: 30, end: 90 });
    // 25 fps at 13.37 s: the last boundary is frame 334.
    const moved = moveRange({ start: 100, end: 211 }, 1.234, 13.37, 25);
    expect(moved).toEqual({ start: 131, end: 242 });
    expect(Number.isInteger(moved.start)).toBe(true);
  });

  it('stops the moved range at 0 and at the media end, its length unchanged', () => {
    expect(moveRange({ start: 30, end: 90 }, -5, 10, 30)).toEqual({ start: 0, end: 60 });
    expect(moveRange({ start: 30, end: 90 }, 50, 10, 30)).toEqual({ start: 240, end: 300 });
    // 13.37 s at 24 fps: last frame 320 (320.88 floored); a 1 s range ends there.
    expect(moveRange({ start: 10, end: 34 }, 1e6, 13.37, 24)).toEqual({ start: 296, end: 320 });
    // The whole media: nowhere to go.
    expect(moveRange({ start: 0, end: 300 }, 3, 10, 30)).toEqual({ start: 0, end: 300 });
    expect(moveRange({ start: 30, end: 90 }, Number.NaN, 10, 30)).toEqual({ start: 30, end: 90 });
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

  it("I and O keep the frames they were pressed at: only the 0.1 s minimum, never the handles' 36 px", () => {
    expect(markMinFrames(25)).toBe(3);
    expect(markMinFrames(30)).toBe(3);
    expect(markMinFrames(60)).toBe(6);
    // A 60 s media 950 px wide at 100 %: the handles' minimum is 2.27 s (57 frames at 25 fps).
    const handles = minRangeFrames(950 / 60, 25);
    expect(handles).toBe(57);
    // I at 4.0 s, then O at 6.0 s: 4.00-6.00 (with the handles' minimum it was 3.72-6.00).
    const afterIn = markIn({ start: 0, end: 33 }, 100, markMinFrames(25), 60, 25);
    expect(afterIn).toEqual({ start: 100, end: 103 });
    expect(markOut(afterIn, 150, markMinFrames(25), 60, 25)).toEqual({ start: 100, end: 150 });
    expect(markOut(markIn({ start: 0, end: 33 }, 100, handles, 60, 25), 150, handles, 60, 25)).toEqual({ start: 93, end: 150 });
  });
});

describe('handle under the pointer', () => {
  const reach = { width: 10, slop: 4 };
  it('finds the start bar outside the range and a few px inside it', () => {
    expect(handleAtX(100, 100, 300, reach)).toBe('start');
    expect(handleAtX(86, 100, 300, reach)).toBe('start');
    expect(handleAtX(104, 100, 300, reach)).toBe('start');
    expect(handleAtX(85, 100, 300, reach)).toBeNull();
    expect(handleAtX(105, 100, 300, reach)).toBeNull();
  });

  it('finds the end bar outside the range and a few px inside it', () => {
    expect(handleAtX(296, 100, 300, reach)).toBe('end');
    expect(handleAtX(314, 100, 300, reach)).toBe('end');
    expect(handleAtX(295, 100, 300, reach)).toBeNull();
    expect(handleAtX(315, 100, 300, reach)).toBeNull();
  });

  it('gives a narrow range to the handle asked for first', () => {
    expect(handleAtX(102, 100, 104, reach)).toBe('start');
    expect(handleAtX(102, 100, 104, reach, 'end')).toBe('end');
    expect(handleAtX(200, 100, 100, reach, 'end')).toBeNull();
  });
});
