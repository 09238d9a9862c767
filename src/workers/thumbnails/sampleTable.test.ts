import { describe, expect, it } from 'vitest';
import {
  buildSampleTable,
  coalesceRanges,
  frameAt,
  frameNumberOf,
  gopStartOf,
  planBatch,
  planRanges,
  splitLanes,
  syncAtOrBefore,
  timestampUs,
  type SampleInfo,
} from './sampleTable';

/**
 * A 25 fps track as x264 + ffmpeg write it: timescale 12800 (512 ticks a frame), GOPs of 7 frames
 * with B-frames (decode order I0 P3 B1 B2 P6 B4 B5), cts shifted by 2 frames and an edit list
 * media_time of 1024 that brings the first frame back to 0.
 */
const TICK = 512;
const GOP_DECODE_ORDER = [0, 3, 1, 2, 6, 4, 5];
function x264Track(gops: number): SampleInfo[] {
  const out: SampleInfo[] = [];
  for (let g = 0; g < gops; g++) {
    for (const f of GOP_DECODE_ORDER) {
      const n = out.length;
      out.push({
        offset: 1000 + n * 100,
        size: f === 0 ? 90 : 40,
        cts: (g * 7 + f) * TICK + 2 * TICK,
        dts: n * TICK,
        duration: TICK,
        isSync: f === 0,
      });
    }
  }
  return out;
}
const table = buildSampleTable(x264Track(3), 12800, 2 * TICK);
/** Presentation frame number shown by decode index i. */
const frameOf = (i: number) => frameNumberOf(table, i);

describe('sample table lookups', () => {
  it('applies the edit list: the first frame is shown at 0', () => {
    expect(timestampUs(table, 0)).toBe(0);
    expect(timestampUs(table, 1)).toBe(120_000); // P3 at 3/25 s
  });

  it('finds the frame whose presentation interval contains a time', () => {
    for (let k = 0; k < 21; k++) {
      expect(frameOf(frameAt(table, k / 25))).toBe(k); // exactly on the boundary: frame k, not k-1
      expect(frameOf(frameAt(table, (k + 0.5) / 25))).toBe(k);
      expect(frameOf(frameAt(table, (k + 0.999) / 25))).toBe(k);
    }
    expect(frameOf(frameAt(table, -1))).toBe(0);
    expect(frameOf(frameAt(table, 99))).toBe(20);
  });

  it('finds the sync sample at or before a time', () => {
    expect(frameOf(syncAtOrBefore(table, 0))).toBe(0);
    expect(frameOf(syncAtOrBefore(table, 6.99 / 25))).toBe(0);
    expect(frameOf(syncAtOrBefore(table, 7 / 25))).toBe(7);
    expect(frameOf(syncAtOrBefore(table, 13.5 / 25))).toBe(7);
    expect(frameOf(syncAtOrBefore(table, 100))).toBe(14);
  });

  it('starts decoding a frame at its GOP sync sample', () => {
    for (let i = 0; i < table.count; i++) expect(gopStartOf(table, i)).toBe(Math.floor(i / 7) * 7);
  });

  it('steps back a GOP for a leading picture of an open GOP', () => {
    // Open GOP: after the second I frame (shown at 7) come B frames shown at 5 and 6.
    const decodeFrames = [0, 3, 1, 2, 4, 7, 5, 6, 8];
    const open = buildSampleTable(
      decodeFrames.map((f, n) => ({ offset: n * 10, size: 10, cts: f * TICK, dts: n * TICK, duration: TICK, isSync: f === 0 || f === 7 })),
      12800,
    );
    const leading = decodeFrames.indexOf(5);
    expect(gopStartOf(open, leading)).toBe(0);
    expect(gopStartOf(open, decodeFrames.indexOf(8))).toBe(decodeFrames.indexOf(7));
  });

  it('treats a track without sync samples as starting at its first sample', () => {
    const t = buildSampleTable(
      x264Track(1).map((s) => ({ ...s, isSync: false })),
      12800,
      2 * TICK,
    );
    expect(Array.from(t.syncs)).toEqual([0]);
    expect(syncAtOrBefore(t, 0.2)).toBe(0);
  });
});

describe('batch planning', () => {
  it('groups a batch by GOP: each GOP once, fed up to the last frame wanted in it', () => {
    const plans = planBatch(table, [
      { id: 1, time: 15.5 / 25, precision: 'exact' }, // GOP 3, frame 15 (decode index 16)
      { id: 2, time: 2.5 / 25, precision: 'exact' }, // GOP 1, frame 2 (decode index 3)
      { id: 3, time: 4.5 / 25, precision: 'keyframe' }, // GOP 1 keyframe
      { id: 4, time: 1.5 / 25, precision: 'exact' }, // GOP 1, frame 1 (decode index 2)
      { id: 5, time: 10.5 / 25, precision: 'keyframe' }, // GOP 2 keyframe only
    ]);
    expect(plans).toEqual([
      {
        start: 0,
        end: 3,
        targets: [
          { id: 2, sample: 3 },
          { id: 3, sample: 0 },
          { id: 4, sample: 2 },
        ],
      },
      { start: 7, end: 7, targets: [{ id: 5, sample: 7 }] },
      { start: 14, end: 16, targets: [{ id: 1, sample: 16 }] },
    ]);
    expect(planRanges(table, plans.slice(1, 2))).toEqual([{ start: 1700, end: 1790 }]);
  });

  it('decodes a B-frame from its GOP start through the P frame it refers to', () => {
    const [plan] = planBatch(table, [{ id: 1, time: 5 / 25, precision: 'exact' }]); // B5 is decoded after P6
    expect(plan).toEqual({ start: 0, end: 6, targets: [{ id: 1, sample: 6 }] });
  });
});

describe('decoder lanes', () => {
  it('shares GOPs between decoders by the samples each decodes, keeping file order in a lane', () => {
    const plan = (start: number, end: number) => ({ start, end, targets: [] });
    const lanes = splitLanes([plan(0, 49), plan(50, 50), plan(100, 100), plan(150, 199), plan(200, 200)], 2);
    // The two 50-sample GOPs go to different decoders; the single keyframes even out the rest.
    expect(lanes.map((l) => l.map((p) => p.start))).toEqual([
      [0, 50, 200],
      [100, 150],
    ]);
    expect(lanes.map((l) => l.reduce((n, p) => n + p.end - p.start + 1, 0))).toEqual([52, 51]);
    expect(splitLanes([plan(0, 0)], 2)).toEqual([[plan(0, 0)]]);
    expect(splitLanes([], 2)).toEqual([[]]);
  });
});

describe('byte range coalescing', () => {
  it('merges overlapping and nearby ranges, in file order', () => {
    expect(
      coalesceRanges(
        [
          { start: 500, end: 600 },
          { start: 0, end: 100 },
          { start: 100, end: 200 },
          { start: 250, end: 300 },
          { start: 150, end: 180 },
        ],
        50,
      ),
    ).toEqual([
      { start: 0, end: 300 },
      { start: 500, end: 600 },
    ]);
  });

  it('keeps distant ranges apart and caps a merged range', () => {
    expect(
      coalesceRanges(
        [
          { start: 0, end: 10 },
          { start: 100, end: 110 },
        ],
        89,
      ),
    ).toHaveLength(2);
    expect(
      coalesceRanges(
        [
          { start: 0, end: 100 },
          { start: 100, end: 200 },
          { start: 200, end: 300 },
        ],
        0,
        200,
      ),
    ).toEqual([
      { start: 0, end: 200 },
      { start: 200, end: 300 },
    ]);
    expect(coalesceRanges([{ start: 5, end: 5 }], 10)).toEqual([]);
  });
});

describe('presentation order', () => {
  const reference = (pts: number[]) => Array.from(pts.keys()).sort((a, b) => pts[a]! - pts[b]! || a - b);
  const track = (pts: number[]): SampleInfo[] =>
    pts.map((cts, i) => ({ offset: i * 10, size: 10, cts, dts: i, duration: 1, isSync: i === 0 }));

  it('orders B-frame reordering, ties and a long track like a general sort', () => {
    const local = x264Track(30_000).map((s) => s.cts); // 210,000 samples
    expect(Array.from(buildSampleTable(track(local), 12800).byPts)).toEqual(reference(local));
    const ties = [5, 3, 3, 1, 5, 0, 3];
    expect(Array.from(buildSampleTable(track(ties), 1).byPts)).toEqual(reference(ties));
  });

  it('falls back to a general sort for a track reordered far beyond B-frames (reversed)', () => {
    const reversed = Array.from({ length: 5000 }, (_, i) => 5000 - i);
    expect(Array.from(buildSampleTable(track(reversed), 1).byPts)).toEqual(reference(reversed));
  });
});
