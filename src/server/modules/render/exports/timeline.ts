import type { RenderAspect } from '../../../../contract';
import type { ClipFraming } from '../framing.service';

/**
 * The timeline every editor export writes (MLT, FCPXML, CMX 3600 EDL, OpenTimelineIO): the
 * compilation's clips as frame ranges of their originals, at each original's own frame rate, one
 * after another. Pure: the writers beside it turn one into text.
 */

/** A frame rate as a fraction (30000/1001 for 29.97). */
export interface Rate {
  num: number;
  den: number;
}

/** An original file a project references by name. */
export interface ExportSource {
  mediaId: string;
  /** The original's file name (unique within the export), as the originals download saves it. */
  fileName: string;
  rate: Rate;
  width: number;
  height: number;
  /** Frames of the whole original at `rate`. */
  frames: number;
  hasAudio: boolean;
}

/** One clip: frames [in, out) of its source at the source's rate. */
export interface ExportClip {
  source: ExportSource;
  in: number;
  out: number;
  /**
   * Its crop when the timeline's aspect crops: the window as fractions of the source's picture, its
   * centre over time (seconds from the clip's start), as the render frames it.
   */
  framing?: ClipFraming;
}

export interface ExportTimeline {
  title: string;
  clips: ExportClip[];
  /** A cropping aspect (absent: the first clip's own shape, the others boxed into it). */
  aspect?: Exclude<RenderAspect, 'source'>;
}

export const fps = (r: Rate) => r.num / r.den;
const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : Math.abs(a));

/** Integer rates of video, and the NTSC rates (n * 1000/1001) beside them. */
const STANDARD_RATES = [24, 25, 30, 48, 50, 60, 120];
const NTSC_RATES = [24, 30, 48, 60, 120];

/** Within this share of a standard rate, a measured rate is that rate (an average of frame times wobbles). */
const SNAP = 0.002;

/** The standard rate a measured one is (23.976 -> 24000/1001, 25.0004 -> 25), or null. */
function standardRate(f: number): Rate | null {
  const candidates: Rate[] = [...STANDARD_RATES.map((n) => ({ num: n, den: 1 })), ...NTSC_RATES.map((n) => ({ num: n * 1000, den: 1001 }))];
  let best: Rate | null = null;
  for (const c of candidates) {
    const d = Math.abs(f - fps(c)) / fps(c);
    if (d <= SNAP && (!best || d < Math.abs(f - fps(best)) / fps(best))) best = c;
  }
  return best;
}

/**
 * The rate a project declares for a source, from its probe: `frameRate` (the average) and
 * `maxFrameRate` (the rate every frame time fits). A constant rate is its standard rate when it is
 * one (29.97 as 30000/1001), else the measured rate in thousandths (12.5 -> 25/2). A variable rate
 * (the two differ) is its nominal rate: the standard rate its frame times fit when there is one,
 * else the integer standard rate nearest its average (a phone's 29.4 average is 30).
 */
export function sourceRate(probe: { frameRate?: number | null; maxFrameRate?: number | null } | null | undefined): Rate {
  const avg = probe?.frameRate && probe.frameRate > 0 ? probe.frameRate : null;
  const max = probe?.maxFrameRate && probe.maxFrameRate > 0 ? probe.maxFrameRate : null;
  const f = avg ?? max;
  if (!f) return { num: 30, den: 1 };
  const variable = avg !== null && max !== null && Math.abs(max - avg) / max > 0.01;
  if (!variable) {
    const std = standardRate(f);
    if (std) return std;
    const num = Math.round(f * 1000);
    const g = gcd(num, 1000);
    return { num: num / g, den: 1000 / g };
  }
  const fits = standardRate(max!);
  if (fits && fps(fits) <= 60) return fits;
  let nearest = STANDARD_RATES[0]!;
  for (const n of STANDARD_RATES) if (Math.abs(n - avg!) < Math.abs(nearest - avg!)) nearest = n;
  return { num: nearest, den: 1 };
}

/**
 * The frame of a source at or after `seconds`: the renderer keeps the frames whose time t is
 * start <= t < end (a frame's time k / fps, within a microsecond), so a clip of [start, end) is
 * frames [frameAt(start), frameAt(end)) here, as in the MP4 a merge renders.
 */
export const frameAt = (seconds: number, r: Rate) => Math.max(0, Math.ceil((seconds * r.num) / r.den - 1e-6));

/** `frames` of a source at `from` as whole frames at `to` (a clip of one rate on a timeline of another). */
export const convertFrames = (frames: number, from: Rate, to: Rate) => Math.round((frames * to.num * from.den) / (to.den * from.num));

/** Whether a rate is counted in drop-frame timecode (29.97 and 59.94). */
export const isDropFrame = (r: Rate) => r.den === 1001 && (r.num === 30000 || r.num === 60000);

/** The whole frames a second a timecode counts (30 for 29.97). */
export const timecodeBase = (r: Rate) => Math.round(fps(r));

/**
 * SMPTE timecode of a frame count: HH:MM:SS:FF, or HH:MM:SS;FF in drop-frame (29.97 and 59.94
 * skip 2 or 4 frame numbers each minute but every tenth, so the timecode keeps to the clock).
 */
export function timecode(frame: number, r: Rate): string {
  const base = timecodeBase(r);
  let n = Math.max(0, Math.round(frame));
  const drop = isDropFrame(r);
  if (drop) {
    const skipped = base / 15; // 2 at 29.97, 4 at 59.94
    const perMinute = base * 60 - skipped;
    const perTen = perMinute * 10 + skipped;
    const tens = Math.floor(n / perTen);
    const rest = n % perTen;
    n += skipped * 9 * tens + (rest > skipped ? skipped * Math.floor((rest - skipped) / perMinute) : 0);
  }
  const pad = (v: number) => String(v).padStart(2, '0');
  const ff = n % base;
  const totalSeconds = Math.floor(n / base);
  return `${pad(Math.floor(totalSeconds / 3600) % 24)}:${pad(Math.floor(totalSeconds / 60) % 60)}:${pad(totalSeconds % 60)}${drop ? ';' : ':'}${pad(ff)}`;
}

/** The distinct sources of a timeline, in order of first use. */
export function sourcesOf(t: ExportTimeline): ExportSource[] {
  const seen = new Map<string, ExportSource>();
  for (const c of t.clips) if (!seen.has(c.source.mediaId)) seen.set(c.source.mediaId, c.source);
  return [...seen.values()];
}

/** A file name without its extension (a clip's or asset's display name). */
export const stemOf = (fileName: string) => fileName.replace(/\.[^.]+$/, '') || fileName;
