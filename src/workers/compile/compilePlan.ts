/**
 * How the local compilation preview is cut (pure, shared by the worker and its tests). The preview
 * rendition is HLS: MPEG-TS segments of ~2 s, each starting on a keyframe. A clip is taken as
 *   head  — from its start to the end of its first segment, re-encoded (frame-exact start),
 *   body  — the whole segments in between, stream-copied (no decode, no encode),
 *   tail  — from the start of its last segment to its end, re-encoded (frame-exact end),
 * so at most ~4 s of each clip is decoded and encoded whatever its length. A part that happens to
 * cover a whole segment is copied too.
 */

export interface HlsSegment {
  url: string;
  /** Seconds from the start of the media. */
  start: number;
  duration: number;
}

/** The segments of a media playlist, with absolute URLs and start times summed from #EXTINF. */
export function parseMediaPlaylist(text: string, playlistUrl: string): HlsSegment[] {
  const segments: HlsSegment[] = [];
  let t = 0;
  let pending: number | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith('#EXTINF:')) pending = Number.parseFloat(line.slice(8));
    else if (!line.startsWith('#') && pending !== null) {
      segments.push({ url: new URL(line, playlistUrl).href, start: t, duration: pending });
      t += pending;
      pending = null;
    }
  }
  return segments;
}

/** One piece of a clip: copy a segment whole, or re-encode [from, to) seconds of one segment (times within it). */
export type ClipPart = { kind: 'copy'; segment: HlsSegment } | { kind: 'encode'; segment: HlsSegment; from: number; to: number };

/** Slack for the float sums of #EXTINF (well under a frame). */
const EPS = 1e-3;

/**
 * The parts of media range [start, end) in order (see the module comment). `encodeAll`: every part is
 * re-encoded, whole segments too (a cropped clip: a copied segment would keep the source's shape).
 */
export function planClip(segments: readonly HlsSegment[], start: number, end: number, encodeAll = false): ClipPart[] {
  const parts: ClipPart[] = [];
  for (const seg of segments) {
    const segEnd = seg.start + seg.duration;
    if (segEnd <= start + EPS || seg.start >= end - EPS) continue;
    const from = Math.max(0, start - seg.start);
    const to = Math.min(seg.duration, end - seg.start);
    if (from <= EPS && to >= seg.duration - EPS && !encodeAll) parts.push({ kind: 'copy', segment: seg });
    else parts.push({ kind: 'encode', segment: seg, from, to });
  }
  return parts;
}

/** Seconds of a plan that are decoded and re-encoded (the cost that matters on one wasm thread). */
export const encodedSeconds = (parts: readonly ClipPart[]) => parts.reduce((s, p) => s + (p.kind === 'encode' ? p.to - p.from : 0), 0);

/**
 * What a part costs one wasm thread, in seconds of media: an encoded part is decoded from its
 * segment's first (key)frame up to `to` and encoded from `from`; a copied one is only moved.
 */
export const partCost = (p: ClipPart) => (p.kind === 'encode' ? p.to + (p.to - p.from) : 0);

/**
 * Which of `workers` workers cuts each part of `plans` (per clip, per part): the costliest first, each
 * to the least loaded so far (ties to the lowest index). Deterministic, so every worker, planning the
 * same clips, takes its own share without being told the others'.
 */
export function shareParts(plans: readonly (readonly ClipPart[])[], workers: number): number[][] {
  const n = Math.max(1, Math.floor(workers));
  const owner = plans.map((plan) => plan.map(() => 0));
  const all = plans.flatMap((plan, clip) => plan.map((part, i) => ({ clip, i, cost: partCost(part) })));
  all.sort((a, b) => b.cost - a.cost || a.clip - b.clip || a.i - b.i);
  const load = new Array<number>(n).fill(0);
  for (const p of all) {
    let w = 0;
    for (let k = 1; k < n; k++) if (load[k]! < load[w]! - 1e-9) w = k;
    owner[p.clip]![p.i] = w;
    load[w]! += p.cost;
  }
  return owner;
}
