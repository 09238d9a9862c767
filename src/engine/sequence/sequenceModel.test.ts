import { describe, expect, it } from 'vitest';
import { testClip } from '../../../tests/fixtures/sequenceClip';
import { History, historyKey } from './history';
import {
  duplicate,
  editClip,
  locate,
  markOnCurrent,
  preloadTime,
  remove,
  reorder,
  sequenceDuration,
  trim,
  type SequenceState,
} from './sequenceModel';

const clip = (id: string, startTime: number, endTime: number) => testClip(id, startTime, endTime, `m-${id}`);
// a: 4 s, b: 2 s, c: 6 s -> starts 0, 4, 6; total 12.
const base = () => ({ clips: [clip('a', 10, 14), clip('b', 20, 22), clip('c', 30, 36)], currentTime: 5 });

describe('sequence model (spec sections 3, 4)', () => {
  it('locates a sequence time in its clip and media', () => {
    expect(locate(base().clips, 5)).toEqual({ index: 1, offset: 1, mediaTime: 21 });
    expect(locate(base().clips, 12)?.index).toBe(2);
  });

  it('reorder keeps the playhead on the frame it shows', () => {
    const s = reorder(base(), 1, 0);
    expect(s.clips.map((c) => c.id)).toEqual(['b', 'a', 'c']);
    expect(s.currentTime).toBe(1); // still 1 s into b, now first
  });

  it('duplicate inserts the copy after the original, with a new id', () => {
    const s = duplicate({ ...base(), currentTime: 8 }, 0, 'a2');
    expect(s.clips.map((c) => c.id)).toEqual(['a', 'a2', 'b', 'c']);
    expect(sequenceDuration(s.clips)).toBe(16);
    expect(s.currentTime).toBe(12); // 2 s into c, which moved 4 s later
  });

  it('remove moves the current time to the next clip, or the previous one at the end', () => {
    const s = remove(base(), 1);
    expect(s.clips.map((c) => c.id)).toEqual(['a', 'c']);
    expect(s.currentTime).toBe(4); // start of c
    const last = remove({ ...base(), currentTime: 9 }, 2);
    expect(last.currentTime).toBe(4); // c was last: the start of b, the previous clip
  });

  it('trim updates the range, the duration and rescales the playhead', () => {
    const s = trim({ ...base(), currentTime: 8 }, 0, { start: 11 * 25, end: 14 * 25 }, 3);
    expect(s.clips[0]!.beginEndTimestamp).toEqual({ startTime: 11, endTime: 14 });
    expect(s.clips[0]!.modifications.trimmed?.originalTimestamps).toEqual({ startTime: 10, endTime: 14 });
    expect(sequenceDuration(s.clips)).toBe(11);
    expect(s.currentTime).toBe(7); // 2 s into c, which now starts at 5
  });

  it("the clip editor's confirm sets the range and the crop window in one edit, kept by trims and duplicates, undone as one", () => {
    const start = base();
    const s = editClip(start, 0, { start: 11 * 25, end: 14 * 25 }, 3, { x: 0.3, y: 0.5 });
    expect(s.clips[0]!.beginEndTimestamp).toEqual({ startTime: 11, endTime: 14 });
    expect(s.clips[0]!.framing).toEqual({ x: 0.3, y: 0.5 });
    // The window alone, the range unchanged: still an edit.
    const moved = editClip(s, 0, { start: 11 * 25, end: 14 * 25 }, 3, { x: 0.6, y: 0.5 });
    expect(moved).not.toBe(s);
    expect(moved.clips[0]!.framing).toEqual({ x: 0.6, y: 0.5 });
    // Nothing changed: the same state (no undo step).
    expect(editClip(moved, 0, { start: 11 * 25, end: 14 * 25 }, 3, { x: 0.6, y: 0.5 })).toBe(moved);
    // Following the subject again removes it.
    expect('framing' in editClip(moved, 0, { start: 11 * 25, end: 14 * 25 }, 3, undefined).clips[0]!).toBe(false);
    expect(trim(moved, 0, { start: 12 * 25, end: 14 * 25 }, 3).clips[0]!.framing).toEqual({ x: 0.6, y: 0.5 });
    expect(duplicate(moved, 0, 'a2').clips[1]!.framing).toEqual({ x: 0.6, y: 0.5 });
    const h = new History<SequenceState>();
    h.push(start);
    expect(h.undo(s)?.clips[0]!.framing).toBeUndefined();
  });

  it('I marks the in point of the current clip at the playhead', () => {
    const s = markOnCurrent({ ...base(), currentTime: 8 }, 'in', 3);
    expect(s.clips[2]!.beginEndTimestamp).toEqual({ startTime: 32, endTime: 36 });
    expect(s.currentTime).toBe(6); // the playhead's frame is now the clip's first
  });

  it('preload is scheduled 2 s before a clip ends, never before it starts', () => {
    expect(preloadTime(base().clips, 0)).toBe(2);
    expect(preloadTime(base().clips, 1)).toBe(4);
  });

  it('history undoes and redoes, and a new edit drops the redo', () => {
    const h = new History<number>();
    h.push(1);
    h.push(2);
    expect(h.undo(3)).toBe(2);
    expect(h.redo(2)).toBe(3);
    expect(h.undo(3)).toBe(2);
    h.push(2);
    expect(h.canRedo).toBe(false);
    expect(historyKey({ key: 'z', ctrlKey: true })).toBe('undo');
    expect(historyKey({ key: 'Z', metaKey: true, shiftKey: true })).toBe('redo');
    expect(historyKey({ key: 'z' })).toBeNull();
  });
});
