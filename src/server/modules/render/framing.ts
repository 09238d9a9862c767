import { RENDER_ASPECT_RATIO, type FramingAnswer, type RenderAspect } from '../../../contract';

/**
 * The automatic crop path of a media range for an aspect (issue 39): where a window of the aspect's
 * shape sits in the displayed picture over time, following the people ingest found. Pure: the
 * service reads the keyframes and shots, the renderer turns the path into ffmpeg's crop.
 *
 * The window follows people first (a larger, more confident box weighs more), other objects only
 * when a keyframe holds no person, and stays centred where nothing is found. It does not jitter: it
 * stays put while the subject is inside its middle part (DEAD_ZONE); it does not jump inside a shot:
 * it moves at most MAX_SPEED and eases in and out (EASE_SECONDS); at a shot change it may cut (two
 * points at one time).
 */

/** A detection as ingest stores it in `keyframes.objects`: box x1, y1, x2, y2 as fractions of the displayed picture. */
export interface SubjectBox {
  label: string;
  score: number;
  box: [number, number, number, number];
}
export interface FramingKeyframe {
  t: number;
  shotIdx: number;
  objects: unknown;
}
export interface FramingShot {
  idx: number;
  start: number;
  end: number;
}
export interface FramingInput {
  aspect: RenderAspect;
  /** The displayed picture's size (rotation applied); null when unknown (then taken as 16:9). */
  width: number | null;
  height: number | null;
  start: number;
  end: number;
  /** The keyframes of the shots overlapping the range (also those before `start`: the subject there counts). */
  keyframes: FramingKeyframe[];
  shots: FramingShot[];
}

/** The subject may wander this far from the window's centre (a fraction of the window's size) before it moves: its middle half. */
export const DEAD_ZONE = 0.25;
/** The window moves at most this much of the picture per second. */
export const MAX_SPEED = 0.35;
/** Starts and stops of a move are eased over about this long (a moving average of the path). */
export const EASE_SECONDS = 0.6;
/**
 * Past a shot's last keyframe the subject is taken to keep going as it went between the last two
 * (ingest takes a keyframe at least every 2 s), for at most this long.
 */
export const EXTRAPOLATE_SECONDS = 2;
/** Detections below these scores are not followed. */
export const MIN_PERSON_SCORE = 0.3;
export const MIN_OBJECT_SCORE = 0.4;
/** Two paths closer than this everywhere (a fraction of the picture) look the same: the path keeps only the points that matter. */
export const PATH_TOLERANCE = 0.002;

type Point = FramingAnswer['points'][number];

/** The window's size as fractions of the picture: the aspect's shape inside the source, as large as fits. */
export function windowSize(aspect: RenderAspect, width: number | null, height: number | null): { width: number; height: number } {
  if (aspect === 'source') return { width: 1, height: 1 };
  const source = width && height ? width / height : 16 / 9;
  const ratio = RENDER_ASPECT_RATIO[aspect];
  // Within 0.5% the shapes are the same: nothing to move.
  if (Math.abs(ratio / source - 1) < 0.005) return { width: 1, height: 1 };
  return ratio < source ? { width: ratio / source, height: 1 } : { width: 1, height: source / ratio };
}

function isBox(o: unknown): o is SubjectBox {
  const d = o as SubjectBox;
  return !!d && typeof d.label === 'string' && typeof d.score === 'number' && Array.isArray(d.box) && d.box.length === 4;
}

/**
 * Where the subject of one keyframe is along the window's axis, or null when nothing is found.
 * People first; the heaviest box (area x score) and those that fit in the window beside it, their
 * centres weighed. Along y a person's point is near the head, so a tall person keeps their face.
 */
export function subjectAt(objects: unknown, axis: 'x' | 'y', window: number): number | null {
  const found = Array.isArray(objects) ? objects.filter(isBox) : [];
  const people = found.filter((o) => o.label === 'person' && o.score >= MIN_PERSON_SCORE);
  const pool = people.length ? people : found.filter((o) => o.score >= MIN_OBJECT_SCORE);
  if (!pool.length) return null;
  const [lo, hi] = axis === 'x' ? [0, 2] : [1, 3];
  const weighed = pool
    .map((o) => {
      const a = o.box[lo]!;
      const b = o.box[hi]!;
      const area = Math.max(0, o.box[2] - o.box[0]) * Math.max(0, o.box[3] - o.box[1]);
      const centre = axis === 'y' && o.label === 'person' ? a + Math.min((b - a) / 2, window * 0.4) : (a + b) / 2;
      return { a, b, centre, weight: Math.max(1e-6, area) * o.score };
    })
    .sort((p, q) => q.weight - p.weight);
  const group = [weighed[0]!];
  let from = weighed[0]!.a;
  let to = weighed[0]!.b;
  for (const o of weighed.slice(1)) {
    if (Math.max(to, o.b) - Math.min(from, o.a) > window) continue;
    group.push(o);
    from = Math.min(from, o.a);
    to = Math.max(to, o.b);
  }
  const total = group.reduce((s, o) => s + o.weight, 0);
  return group.reduce((s, o) => s + o.centre * o.weight, 0) / total;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Value at `t` of a path joined linearly (constant outside it). */
function valueAt(path: Array<{ t: number; v: number }>, t: number): number {
  if (t <= path[0]!.t) return path[0]!.v;
  for (let i = 1; i < path.length; i++) {
    const p = path[i]!;
    if (t <= p.t) {
      const q = path[i - 1]!;
      return p.t === q.t ? p.v : q.v + ((p.v - q.v) * (t - q.t)) / (p.t - q.t);
    }
  }
  return path[path.length - 1]!.v;
}

/** Ramer-Douglas-Peucker on (t, v): the points a piecewise-linear path needs to stay within `tolerance` of `v`. */
function simplify(path: Array<{ t: number; v: number }>, tolerance: number): Array<{ t: number; v: number }> {
  if (path.length <= 2) return path;
  const keep = new Array<boolean>(path.length).fill(false);
  keep[0] = keep[path.length - 1] = true;
  const stack: Array<[number, number]> = [[0, path.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    let worst = -1;
    let at = -1;
    for (let i = a + 1; i < b; i++) {
      const p = path[i]!;
      const line = valueAt([path[a]!, path[b]!], p.t);
      const d = Math.abs(p.v - line);
      if (d > worst) [worst, at] = [d, i];
    }
    if (worst > tolerance) {
      keep[at] = true;
      stack.push([a, at], [at, b]);
    }
  }
  return path.filter((_, i) => keep[i]);
}

/**
 * The window's centre over one shot (clipped to the range) along one axis: the subject's path at
 * its keyframes; still while the subject stays in the dead zone; at bounded speed; eased.
 */
function shotPath(frames: Array<{ t: number; v: number }>, from: number, to: number, window: number): Array<{ t: number; v: number }> {
  const lo = window / 2;
  const hi = 1 - window / 2;
  if (!frames.length || hi - lo < 1e-6) return [{ t: from, v: 0.5 }, ...(to > from ? [{ t: to, v: 0.5 }] : [])];
  const known = [...frames];
  const [before, last] = known.slice(-2);
  if (before && last && to > last.t && last.t - before.t <= 1.5 * EXTRAPOLATE_SECONDS) {
    const t = Math.min(to, last.t + EXTRAPOLATE_SECONDS);
    known.push({ t, v: last.v + ((last.v - before.v) * (t - last.t)) / (last.t - before.t) });
  }
  const subject = known.map((f) => ({ t: f.t, v: clamp(f.v, lo, hi) }));
  // Dead zone: the window rests until the subject leaves its middle part, then re-centres on it
  // between the two keyframes (the subject moves between them, so does the window).
  let rest = subject[0]!.v;
  const rests = [{ t: subject[0]!.t, v: rest }];
  for (let i = 1; i < subject.length; i++) {
    const s = subject[i]!;
    if (Math.abs(s.v - rest) <= DEAD_ZONE * window) continue;
    const before = subject[i - 1]!.t;
    if (rests[rests.length - 1]!.t < before) rests.push({ t: before, v: rest });
    rest = s.v;
    rests.push({ t: s.t, v: rest });
  }
  if (to <= from) return [{ t: from, v: valueAt(rests, from) }];
  // On a grid: bounded speed, then a moving average eases each start and stop.
  const steps = Math.min(3000, Math.max(2, Math.ceil((to - from) / 0.1)));
  const dt = (to - from) / steps;
  const grid: Array<{ t: number; v: number }> = [];
  let v = valueAt(rests, from);
  for (let i = 0; i <= steps; i++) {
    const t = from + i * dt;
    const want = valueAt(rests, t);
    if (i > 0) v += clamp(want - v, -MAX_SPEED * dt, MAX_SPEED * dt);
    grid.push({ t, v });
  }
  const half = Math.max(0, Math.round(EASE_SECONDS / 2 / dt));
  const eased = grid.map((g, i) => {
    // The window shrinks at the shot's ends, so the first and last positions stay where they are.
    const k = Math.min(half, i, grid.length - 1 - i);
    let sum = 0;
    for (let j = i - k; j <= i + k; j++) sum += grid[j]!.v;
    return { t: g.t, v: clamp(sum / (2 * k + 1), lo, hi) };
  });
  return simplify(eased, PATH_TOLERANCE);
}

/** The automatic framing of a range: see the file's comment. */
export function framingPath(input: FramingInput): FramingAnswer {
  const size = windowSize(input.aspect, input.width, input.height);
  const axis: 'x' | 'y' | null = size.width < 1 ? 'x' : size.height < 1 ? 'y' : null;
  const window = axis === 'x' ? size.width : size.height;
  const centre = (v: number): Point =>
    axis === 'x' ? { t: 0, x: v, y: 0.5 } : axis === 'y' ? { t: 0, x: 0.5, y: v } : { t: 0, x: 0.5, y: 0.5 };
  const still = (subject: boolean): FramingAnswer => ({
    aspect: input.aspect,
    ...size,
    points: [{ t: input.start, x: 0.5, y: 0.5 }],
    subject,
  });
  if (!axis) return still(false);

  const shots = input.shots.filter((s) => s.end > input.start && s.start < input.end).sort((a, b) => a.start - b.start);
  // No shots recorded (an image, an index in the making): the range is one shot.
  if (!shots.length) shots.push({ idx: input.keyframes[0]?.shotIdx ?? 0, start: input.start, end: input.end });
  let subject = false;
  const points: Point[] = [];
  for (const shot of shots) {
    const from = Math.max(input.start, shot.start);
    const to = Math.min(input.end, shot.end);
    const frames = input.keyframes
      .filter((k) => k.shotIdx === shot.idx)
      .sort((a, b) => a.t - b.t)
      .flatMap((k) => {
        const v = subjectAt(k.objects, axis, window);
        return v === null ? [] : [{ t: k.t, v }];
      });
    if (frames.length) subject = true;
    for (const p of shotPath(frames, from, to, window)) {
      const last = points[points.length - 1];
      const point = { ...centre(p.v), t: p.t };
      // A shot that starts where the last one left off needs no cut.
      if (last && Math.abs(last.t - point.t) < 1e-9 && Math.abs(last.x - point.x) + Math.abs(last.y - point.y) < 1e-6) continue;
      points.push(point);
    }
  }
  const round = (v: number) => Math.round(v * 1e4) / 1e4;
  return {
    aspect: input.aspect,
    ...size,
    points: points.map((p) => ({ t: round(p.t), x: round(p.x), y: round(p.y) })),
    subject,
  };
}

/**
 * At most `max` points (a renderer's expression stays short): the path is simplified with a growing
 * tolerance until it fits; cuts (two points at one time) are kept as long as possible.
 */
export function capPoints(points: Point[], max: number): Point[] {
  if (points.length <= max) return points;
  const axis = points.some((p) => p.x !== points[0]!.x) ? 'x' : 'y';
  const path = points.map((p) => ({ t: p.t, v: p[axis] }));
  let tolerance = PATH_TOLERANCE;
  let kept = path;
  while (kept.length > max && tolerance < 1) {
    tolerance *= 2;
    kept = simplify(path, tolerance);
  }
  if (kept.length > max) kept = [kept[0]!, kept[kept.length - 1]!];
  return kept.map((p) => (axis === 'x' ? { t: p.t, x: p.v, y: points[0]!.y } : { t: p.t, x: points[0]!.x, y: p.v }));
}
