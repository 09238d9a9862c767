import { describe, expect, it } from 'vitest';
import { clipsBlockedReason, mergeBlockedReason, MSG_MERGE } from './merge';

const v = (startTime: number, endTime: number) => ({ kind: 'video' as const, startTime, endTime });

describe('merge rules (spec section 5)', () => {
  it('needs two moments or more', () => {
    expect(mergeBlockedReason([v(0, 2)])).toBe(MSG_MERGE.needTwo);
    expect(mergeBlockedReason([v(0, 2), v(3, 4)])).toBeNull();
  });
  it('needs every moment longer than 0.001 s', () => {
    expect(mergeBlockedReason([v(0, 2), v(3, 3.001)])).toBe(MSG_MERGE.tooShort);
    expect(mergeBlockedReason([v(0, 2), v(3, 3.002)])).toBeNull();
  });
  it('refuses images with the spec message', () => {
    expect(mergeBlockedReason([v(0, 2), { kind: 'image', startTime: 0, endTime: 5 }])).toBe('Merging with images is not implemented yet.');
  });
  it('the editor needs one clip, each longer than 0.001 s', () => {
    expect(clipsBlockedReason([])).toBe(MSG_MERGE.noClips);
    expect(clipsBlockedReason([{ duration: 0.001 }])).toBe(MSG_MERGE.tooShort);
    expect(clipsBlockedReason([{ duration: 1 }])).toBeNull();
  });
});
