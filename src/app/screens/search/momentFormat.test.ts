import { describe, expect, it } from 'vitest';
import { formatMomentLength, formatTimecode } from './momentFormat';

describe('moment time codes', () => {
  it('writes HH:MM:SS, whole seconds', () => {
    expect(formatTimecode(0)).toBe('00:00:00');
    expect(formatTimecode(4.96)).toBe('00:00:04');
    expect(formatTimecode(3725)).toBe('01:02:05');
    expect(formatTimecode(-3)).toBe('00:00:00');
    expect(formatTimecode(Number.NaN)).toBe('00:00:00');
  });

  it('writes lengths', () => {
    expect(formatMomentLength(4)).toBe('4s');
    expect(formatMomentLength(4.46)).toBe('4.5s');
    expect(formatMomentLength(12.4)).toBe('12s');
    expect(formatMomentLength(65)).toBe('1m 05s');
  });
});
