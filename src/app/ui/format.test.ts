import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatClock,
  formatDuration,
  formatEta,
  formatHours,
  formatHoursMinutes,
  formatMomentLength,
  formatPreciseTimecode,
} from './format';

describe('media durations and sizes', () => {
  it('formats durations and sizes', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(2.6)).toBe('0:03');
    expect(formatDuration(125)).toBe('2:05');
    expect(formatDuration(3725)).toBe('1:02:05');
    // A library's total: hours past a day stay hours.
    expect(formatDuration(25 * 3600 + 59.6)).toBe('25:01:00');
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(25 * 1024 * 1024)).toBe('25 MB');
  });

  it('formats total durations', () => {
    expect(formatDuration(9)).toBe('0:09');
    expect(formatDuration(3725)).toBe('1:02:05');
  });
});

describe('moment time codes and lengths', () => {
  it('writes HH:MM:SS, whole seconds', () => {
    expect(formatClock(0)).toBe('00:00:00');
    expect(formatClock(4.96)).toBe('00:00:04');
    expect(formatClock(3725)).toBe('01:02:05');
    expect(formatClock(-3)).toBe('00:00:00');
    expect(formatClock(Number.NaN)).toBe('00:00:00');
  });

  it('writes precise time codes with the fraction to the hundredth', () => {
    expect(formatPreciseTimecode(4)).toBe('00:00:04');
    expect(formatPreciseTimecode(4.5)).toBe('00:00:04.5');
    expect(formatPreciseTimecode(4.25)).toBe('00:00:04.25');
    expect(formatPreciseTimecode(3725.1)).toBe('01:02:05.1');
    // Rounding carries into the next second and minute.
    expect(formatPreciseTimecode(59.999)).toBe('00:01:00');
    expect(formatPreciseTimecode(-1)).toBe('00:00:00');
  });

  it('writes lengths', () => {
    expect(formatMomentLength(4)).toBe('4s');
    expect(formatMomentLength(4.46)).toBe('4.5s');
    expect(formatMomentLength(12.4)).toBe('12s');
    expect(formatMomentLength(65)).toBe('1m 05s');
  });
});

describe('time left', () => {
  it('shows seconds, then minutes, then hours and minutes; nothing when unknown', () => {
    expect(formatEta(null)).toBeNull();
    expect(formatEta(Number.POSITIVE_INFINITY)).toBeNull();
    expect(formatEta(44.6)).toBe('45 s');
    expect(formatEta(170)).toBe('3 min');
    expect(formatEta(3900)).toBe('1 h 5 min');
  });
});

describe('billing times', () => {
  it('shows time left in hours and minutes', () => {
    expect(formatHoursMinutes(0)).toBe('0 m');
    expect(formatHoursMinutes(-5)).toBe('0 m');
    expect(formatHoursMinutes(59)).toBe('< 1 m');
    expect(formatHoursMinutes(42 * 60 + 30)).toBe('42 m');
    expect(formatHoursMinutes(7200)).toBe('2 h');
    expect(formatHoursMinutes(5.5 * 3600)).toBe('5 h 30 m');
    expect(formatHoursMinutes(1234 * 3600)).toBe('1,234 h');
  });

  it('shows hours with the precision small amounts need', () => {
    expect(formatHours(0)).toBe('0 h');
    expect(formatHours(0.001)).toBe('< 0.01 h');
    expect(formatHours(1.256)).toBe('1.26 h');
    expect(formatHours(25)).toBe('25 h');
    expect(formatHours(112.34)).toBe('112.3 h');
  });
});
