import { describe, expect, it } from 'vitest';
import { formatClock, formatTimecode, parseTimecode } from './timecode';

describe('timecode', () => {
  it('formats HH:MM:SS:FF on frame boundaries', () => {
    expect(formatTimecode(0, 30)).toBe('00:00:00:00');
    expect(formatTimecode(0.1, 30)).toBe('00:00:00:03');
    expect(formatTimecode(29 / 30, 30)).toBe('00:00:00:29');
    expect(formatTimecode(1, 30)).toBe('00:00:01:00');
    expect(formatTimecode(3723 + 12 / 25, 25)).toBe('01:02:03:12');
    expect(formatTimecode(7200, 30)).toBe('02:00:00:00');
    expect(formatTimecode(-4, 30)).toBe('00:00:00:00');
    expect(formatClock(3723.9)).toBe('01:02:03');
    expect(formatClock(-3)).toBe('00:00:00');
    expect(formatClock(Number.NaN)).toBe('00:00:00');
  });

  it('never shows a frame number at or above the rate', () => {
    for (let f = 0; f < 200; f++) {
      const ff = Number(formatTimecode(f / 29.97, 29.97).slice(-2));
      expect(ff).toBeLessThan(30);
    }
  });

  it('parses what it formats', () => {
    for (const t of [0, 0.12, 1.52, 61.2, 3723.48]) expect(parseTimecode(formatTimecode(t, 25), 25)).toBeCloseTo(t, 9);
  });

  it('parses clock strings with an optional fraction', () => {
    expect(parseTimecode('1:02:03', 30)).toBe(3723);
    expect(parseTimecode('2:03.5', 30)).toBe(123.5);
    expect(parseTimecode('45.25', 30)).toBe(45.25);
    expect(parseTimecode(' 90 ', 30)).toBe(90);
  });

  it('rejects what is not a timecode and clamps to the media', () => {
    for (const bad of ['', 'abc', '1:2:3:4:5', '00:00:00:30', '1:75', '-3', '1::2']) expect(parseTimecode(bad, 30)).toBeNull();
    expect(parseTimecode('10:00', 30, 120)).toBe(120);
  });
});
