import { describe, expect, it } from 'vitest';
import type { MomentTrim, MomentTrimEdit } from '../../contract';
import { acknowledge, mergeTrims, withEdit } from './trimMerge';

const orig = { startTime: 0, endTime: 4 };
const trim = (momentId: string, start: number, end: number, editedAt: string): MomentTrim => ({
  momentId,
  originalTimestamps: orig,
  newTimestamps: { startTime: start, endTime: end },
  editedAt,
});
const edit = (momentId: string, range: [number, number] | null, editedAt: string): MomentTrimEdit => ({
  momentId,
  originalTimestamps: orig,
  newTimestamps: range && { startTime: range[0], endTime: range[1] },
  editedAt,
});
const T = (s: number) => new Date(Date.UTC(2026, 10, 28, 10, 0, s)).toISOString();

describe('merging the account’s trims with this device’s edits', () => {
  it('lays edits not yet sent over the account’s trims, each moment by its later edit', () => {
    const server = [trim('a', 1, 3, T(10)), trim('b', 1, 2, T(10))];
    const pending = [edit('a', [2, 3], T(20)), edit('b', [0.5, 1], T(5)), edit('c', [1, 2], T(1))];
    expect(mergeTrims(server, pending)).toEqual({
      a: { originalTimestamps: orig, newTimestamps: { startTime: 2, endTime: 3 } },
      b: { originalTimestamps: orig, newTimestamps: { startTime: 1, endTime: 2 } },
      c: { originalTimestamps: orig, newTimestamps: { startTime: 1, endTime: 2 } },
    });
  });

  it('a later reset removes a trim; an older one does not', () => {
    expect(mergeTrims([trim('a', 1, 3, T(10))], [edit('a', null, T(11))])).toEqual({});
    expect(Object.keys(mergeTrims([trim('a', 1, 3, T(10))], [edit('a', null, T(9))]))).toEqual(['a']);
  });

  it('keeps one edit per moment to send, and what was made while a send was on its way', () => {
    const first = edit('a', [1, 2], T(1));
    const second = edit('a', [1, 3], T(2));
    const other = edit('b', [1, 3], T(2));
    expect(withEdit([first, other], second)).toEqual([other, second]);
    expect(acknowledge([other, second], [first, other])).toEqual([second]);
  });
});
