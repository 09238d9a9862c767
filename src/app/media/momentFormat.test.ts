import { describe, expect, it } from 'vitest';
import { parseTimecode } from './momentFormat';
import { formatPreciseTimecode } from '../ui/format';

describe('moment time codes', () => {
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
});
