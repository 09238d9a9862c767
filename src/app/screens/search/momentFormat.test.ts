import { describe, expect, it } from 'vitest';
import { formatMomentLength, formatPreciseTimecode, formatTimecode, parseTimecode } from './momentFormat';

describe('moment time codes', () => {
  it('writes HH:MM:SS, whole seconds', () => {
    expect(formatTimecode(0)).toBe('00:00:00');
    expect(formatTimecode(4.96)).toBe('00:00:04');
    expect(formatTimecode(3725)).toBe('01:02:05');
    expect(formatTimecode(-3)).toBe('00:00:00');
    expect(formatTimecode(Number.NaN)).toBe('00:00:00');
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

  it('reads up to three colon-separated parts with an optional fraction', () => {
    expect(parseTimecode('00:00:04')).toBe(4);
    expect(parseTimecode('01:02:05')).toBe(3725);
    expect(parseTimecode('1:05')).toBe(65);
    expect(parseTimecode('90')).toBe(90);
    expect(parseTimecode(' 00:00:04.25 ')).toBe(4.25);
    expect(parseTimecode('2.5')).toBe(2.5);
    expect(parseTimecode(formatPreciseTimecode(3725.1))).toBeCloseTo(3725.1, 6);
  });

  it('rejects anything that is not a time code', () => {
    for (const bad of ['', 'abc', '1:2:3:4', '00:61', '00:00:60', '-1', '1.2.3', '00:0a:01', '1.5:00', ':30', '12:', '1e3'])
      expect(parseTimecode(bad), bad).toBeNull();
  });

  it('writes lengths', () => {
    expect(formatMomentLength(4)).toBe('4s');
    expect(formatMomentLength(4.46)).toBe('4.5s');
    expect(formatMomentLength(12.4)).toBe('12s');
    expect(formatMomentLength(65)).toBe('1m 05s');
  });
});
