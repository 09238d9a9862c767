/**
 * The video track's sample table in a compact form, and the lookups the thumbnail worker plans a
 * batch with. Indices are decode-order sample indices; times are presentation times.
 */

/** One sample as the demuxer gives it (times in track timescale units). */
export interface SampleInfo {
  offset: number;
  size: number;
  cts: number;
  dts: number;
  duration: number;
  isSync: boolean;
}

export interface SampleTable {
  timescale: number;
  count: number;
  offset: Float64Array;
  size: Uint32Array;
  /** Presentation time (edit list applied), timescale units. */
  pts: Float64Array;
  duration: Float64Array;
  isSync: Uint8Array;
  /** Decode indices sorted by presentation time. */
  byPts: Uint32Array;
  /** Decode indices of sync samples, sorted by presentation time. */
  syncByPts: Uint32Array;
  /** Decode indices of sync samples, ascending. */
  syncs: Uint32Array;
}

/** Samples as columns (decode order, track timescale units), as the moov's sample tables are read. */
export interface SampleColumns {
  count: number;
  offset: Float64Array;
  size: Uint32Array;
  cts: Float64Array;
  duration: Float64Array;
  isSync: Uint8Array;
}

/**
 * `mediaTimeShift` is the edit list's media_time (ffmpeg writes one when B-frames delay the first
 * presentation); `emptyEditSeconds` is any leading empty edit.
 */
export function buildSampleTable(samples: readonly SampleInfo[], timescale: number, mediaTimeShift = 0, emptyEditSeconds = 0): SampleTable {
  const count = samples.length;
  const columns: SampleColumns = {
    count,
    offset: new Float64Array(count),
    size: new Uint32Array(count),
    cts: new Float64Array(count),
    duration: new Float64Array(count),
    isSync: new Uint8Array(count),
  };
  samples.forEach((s, i) => {
    columns.offset[i] = s.offset;
    columns.size[i] = s.size;
    columns.cts[i] = s.cts;
    columns.duration[i] = s.duration;
    columns.isSync[i] = s.isSync ? 1 : 0;
  });
  return buildSampleTableFromColumns(columns, timescale, mediaTimeShift, emptyEditSeconds);
}

/**
 * `buildSampleTable` from columns. The table keeps the `offset`, `size`, `duration` and `isSync`
 * arrays (no copy), so they must not be changed afterwards.
 */
export function buildSampleTableFromColumns(c: SampleColumns, timescale: number, mediaTimeShift = 0, emptyEditSeconds = 0): SampleTable {
  const count = c.count;
  if (count === 0) throw new Error('The video track has no samples');
  const shift = mediaTimeShift - emptyEditSeconds * timescale;
  const pts = new Float64Array(count);
  let syncCount = 0;
  for (let i = 0; i < count; i++) {
    pts[i] = c.cts[i]! - shift;
    if (c.isSync[i]) syncCount++;
  }
  // A track without stss has every sample a sync sample (mp4box reports is_sync accordingly);
  // a broken one without any is decoded from its first sample.
  if (syncCount === 0) {
    c.isSync[0] = 1;
    syncCount = 1;
  }
  const syncs = new Uint32Array(syncCount);
  for (let i = 0, n = 0; i < count; i++) if (c.isSync[i]) syncs[n++] = i;
  return {
    timescale,
    count,
    offset: c.offset,
    size: c.size,
    pts,
    duration: c.duration,
    isSync: c.isSync,
    byPts: sortByPts(pts, count),
    syncs,
    syncByPts: Uint32Array.from(syncs).sort((a, b) => pts[a]! - pts[b]! || a - b),
  };
}

/**
 * Indices 0..count-1 ordered by `pts` (ties by index). Decode order is presentation order but for
 * B-frames a few places apart, so an insertion sort is linear here (216,000 samples: ~2 ms against
 * ~30 ms for a general sort); a file that reorders far more than that gets the general sort.
 */
function sortByPts(pts: Float64Array, count: number): Uint32Array {
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  let budget = 64 * count;
  for (let i = 1; i < count; i++) {
    const v = order[i]!;
    const p = pts[v]!;
    let j = i - 1;
    while (j >= 0 && pts[order[j]!]! > p) {
      order[j + 1] = order[j]!;
      j--;
      if (--budget < 0) return Uint32Array.from(Array.from({ length: count }, (_, k) => k).sort((a, b) => pts[a]! - pts[b]! || a - b));
    }
    order[j + 1] = v;
  }
  return order;
}

/** Chunk/frame timestamp in microseconds, as given to EncodedVideoChunk and read back from VideoFrame. */
export const timestampUs = (t: SampleTable, i: number) => Math.round((t.pts[i]! * 1e6) / t.timescale);

/** A time in seconds as track ticks; a hair of tolerance so that k/fps lands on frame k, not k-1. */
const ticksOf = (t: SampleTable, seconds: number) => seconds * t.timescale + 1e-6 * t.timescale;

/** Position in `order` of the last entry with pts <= ticks (0 when the time precedes them all). */
function lastAtOrBefore(t: SampleTable, order: Uint32Array, ticks: number): number {
  let lo = 0;
  let hi = order.length - 1;
  if (t.pts[order[0]!]! > ticks) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t.pts[order[mid]!]! <= ticks) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Decode index of the frame shown at `seconds`: the one whose presentation interval contains it (clamped to the track). */
export const frameAt = (t: SampleTable, seconds: number) => t.byPts[lastAtOrBefore(t, t.byPts, ticksOf(t, seconds))]!;

/** Presentation rank (0-based frame number) of a decode index. */
export function frameNumberOf(t: SampleTable, i: number): number {
  return t.byPts.indexOf(i);
}

/** Decode index of the sync sample shown at or before `seconds` (the first one for earlier times). */
export const syncAtOrBefore = (t: SampleTable, seconds: number) => t.syncByPts[lastAtOrBefore(t, t.syncByPts, ticksOf(t, seconds))]!;

/**
 * Decode index of the sync sample to start decoding from to reach sample `i`: the last sync sample
 * at or before it in decode order, stepping back one more when `i` is a leading picture shown
 * before that sync sample (open GOP), since those reference the previous GOP.
 */
export function gopStartOf(t: SampleTable, i: number): number {
  let lo = 0;
  let hi = t.syncs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t.syncs[mid]! <= i) lo = mid;
    else hi = mid - 1;
  }
  if (t.syncs[lo]! > i) return t.syncs[0]!;
  if (lo > 0 && t.pts[i]! < t.pts[t.syncs[lo]!]!) return t.syncs[lo - 1]!;
  return t.syncs[lo]!;
}

export interface PlanRequest {
  id: number;
  time: number;
  precision: 'keyframe' | 'exact';
}

export interface GopPlan {
  /** Sync sample decoding starts from. */
  start: number;
  /** Last sample fed to the decoder (inclusive, decode order). */
  end: number;
  /** Requests answered by this GOP and the sample each one shows. */
  targets: { id: number; sample: number }[];
}

/**
 * Groups a batch by GOP so that each GOP is decoded once for all the frames wanted in it: a
 * keyframe request needs only its sync sample, an exact one every sample from the GOP's sync sample
 * up to its own in decode order. Plans come in file order.
 */
export function planBatch(t: SampleTable, requests: readonly PlanRequest[]): GopPlan[] {
  const byStart = new Map<number, GopPlan>();
  for (const r of requests) {
    const sample = r.precision === 'keyframe' ? syncAtOrBefore(t, r.time) : frameAt(t, r.time);
    const start = r.precision === 'keyframe' ? sample : gopStartOf(t, sample);
    let plan = byStart.get(start);
    if (!plan) byStart.set(start, (plan = { start, end: start, targets: [] }));
    plan.end = Math.max(plan.end, sample);
    plan.targets.push({ id: r.id, sample });
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

/**
 * Shares a batch's GOPs among `count` decoders, balancing the samples each one decodes; every lane
 * keeps file order. Fewer lanes come back when there are fewer GOPs.
 */
export function splitLanes(plans: readonly GopPlan[], count: number): GopPlan[][] {
  const lanes = Array.from({ length: Math.max(1, Math.min(count, plans.length)) }, () => ({ work: 0, plans: [] as GopPlan[] }));
  for (const plan of [...plans].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start)) {
    const lane = lanes.reduce((best, l) => (l.work < best.work ? l : best));
    lane.plans.push(plan);
    lane.work += plan.end - plan.start + 1;
  }
  return lanes.map((l) => l.plans.sort((a, b) => a.start - b.start));
}

export interface ByteRange {
  start: number;
  /** Exclusive. */
  end: number;
}

/**
 * Merges ranges that overlap or lie within `maxGap` bytes of each other (neighbouring samples, or
 * samples with a small audio chunk between them) so they are fetched with one request; a merged
 * range grows no larger than `maxSize` unless a single range is larger.
 */
export function coalesceRanges(ranges: readonly ByteRange[], maxGap: number, maxSize = Infinity): ByteRange[] {
  const sorted = [...ranges].filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const out: ByteRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end + maxGap && Math.max(last.end, r.end) - last.start <= maxSize) last.end = Math.max(last.end, r.end);
    else if (last && r.end <= last.end) continue;
    else out.push({ start: r.start, end: r.end });
  }
  return out;
}

/** Byte ranges of the samples a plan feeds to the decoder. */
export function planRanges(t: SampleTable, plans: readonly GopPlan[]): ByteRange[] {
  const out: ByteRange[] = [];
  for (const p of plans) for (let i = p.start; i <= p.end; i++) out.push({ start: t.offset[i]!, end: t.offset[i]! + t.size[i]! });
  return out;
}
