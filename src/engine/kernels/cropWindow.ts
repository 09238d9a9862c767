import { RENDER_ASPECT_RATIO, type ClipFraming, type FramingAnswer, type RenderAspect } from '../../contract';

/**
 * The crop window of an aspect over a picture (issue 39), pure: its size as fractions of the picture,
 * where its centre is at a time (the automatic path, or the clip's fixed framing), and the ffmpeg
 * crop of the local preview. Shared by the clip editor (drawing and dragging the window) and the
 * preview worker (cropping along the same path), so both show what the server renders.
 */

/** A window's size as fractions of the picture's width and height. */
export interface CropSize {
  width: number;
  height: number;
}

/** A window's centre at a media time (fractions of the picture). */
export type PathPoint = FramingAnswer['points'][number];

/** A crop narrower or wider than this share of the picture is not worth cropping (rounding). */
const FULL = 0.995;

/**
 * The window of `aspect` over a `sourceWidth` × `sourceHeight` picture: the largest of that shape
 * inside it. Null when the aspect keeps the whole picture ('source', or the picture's own shape).
 */
export function cropSize(aspect: RenderAspect, sourceWidth: number, sourceHeight: number): CropSize | null {
  if (aspect === 'source' || !(sourceWidth > 0) || !(sourceHeight > 0)) return null;
  const target = RENDER_ASPECT_RATIO[aspect];
  const source = sourceWidth / sourceHeight;
  const size = target < source ? { width: target / source, height: 1 } : { width: 1, height: source / target };
  return size.width >= FULL && size.height >= FULL ? null : size;
}

/** A centre kept where the whole window stays inside the picture. */
export function clampCentre(centre: ClipFraming, size: CropSize): ClipFraming {
  const clamp = (v: number, half: number) => Math.min(1 - half, Math.max(half, Number.isFinite(v) ? v : 0.5));
  return { x: clamp(centre.x, size.width / 2), y: clamp(centre.y, size.height / 2) };
}

/**
 * The path's centre at media time `t`: joined linearly between points, held before the first and
 * after the last; at a step (two points at one time, a cut at a shot change) the later one holds
 * from that time on. No points: the centre of the picture.
 */
export function centreAt(points: readonly PathPoint[], t: number): ClipFraming {
  if (!points.length) return { x: 0.5, y: 0.5 };
  const first = points[0]!;
  if (t <= first.t) return { x: first.x, y: first.y };
  for (let i = 1; i < points.length; i++) {
    const b = points[i]!;
    if (t < b.t) {
      const a = points[i - 1]!;
      const k = b.t > a.t ? (t - a.t) / (b.t - a.t) : 1;
      return { x: a.x + (b.x - a.x) * k, y: a.y + (b.y - a.y) * k };
    }
  }
  const last = points[points.length - 1]!;
  return { x: last.x, y: last.y };
}

/** How one clip is cropped: the window's size and its path (a fixed framing is one point). */
export interface ClipCrop extends CropSize {
  points: PathPoint[];
}

/** The crop of a clip: its fixed framing when the user set one, else the automatic path (centred without one). */
export function clipCrop(size: CropSize, framing: ClipFraming | undefined, path: readonly PathPoint[] | undefined): ClipCrop {
  const points = framing ? [{ t: 0, ...framing }] : path?.length ? [...path] : [{ t: 0, x: 0.5, y: 0.5 }];
  return { ...size, points: points.map((p) => ({ t: p.t, ...clampCentre(p, size) })) };
}

/** The preview's picture size for an aspect: `height` tall (even), as wide as the aspect makes it (even). */
export function outputSize(aspect: Exclude<RenderAspect, 'source'>, height: number): { width: number; height: number } {
  const even = (v: number) => Math.max(2, 2 * Math.round(v / 2));
  const h = even(height);
  return { width: even(h * RENDER_ASPECT_RATIO[aspect]), height: h };
}

const num = (v: number) => String(Number(v.toFixed(6)));

/**
 * The centre's coordinate (`axis`) as an ffmpeg expression of `t`, the time from `origin` (the media
 * time of the decoded segment's start): the same piecewise-linear path as centreAt, limited to the
 * points around [from, to] (media times) so that a long clip's path stays a short expression.
 */
export function centreExpression(points: readonly PathPoint[], axis: 'x' | 'y', origin: number, from: number, to: number): string {
  if (!points.length) return '0.5';
  let lo = 0;
  while (lo + 1 < points.length && points[lo + 1]!.t <= from) lo++;
  let hi = points.length - 1;
  while (hi - 1 > lo && points[hi - 1]!.t >= to) hi--;
  const used = points.slice(lo, hi + 1);
  const at = (p: PathPoint) => p[axis];
  if (used.length === 1) return num(at(used[0]!));
  const T = origin ? `(t+${num(origin)})` : 't';
  // From the last piece back: each piece is chosen while T is before its end.
  let expr = num(at(used[used.length - 1]!));
  for (let i = used.length - 1; i >= 1; i--) {
    const a = used[i - 1]!;
    const b = used[i]!;
    const piece = b.t > a.t ? `${num(at(a))}+(${num(at(b) - at(a))})*(${T}-${num(a.t)})/${num(b.t - a.t)}` : num(at(b));
    expr = `if(lt(${T},${num(b.t)}),${piece},${expr})`;
  }
  return `if(lt(${T},${num(used[0]!.t)}),${num(at(used[0]!))},${expr})`;
}

/**
 * The ffmpeg video filter cropping a decoded segment (starting at media time `origin`) along `crop`
 * and scaling it to `out`: the window's top-left follows the centre, kept inside the picture.
 */
export function cropFilter(crop: ClipCrop, origin: number, from: number, to: number, out: { width: number; height: number }): string {
  const x = centreExpression(crop.points, 'x', origin, from, to);
  const y = centreExpression(crop.points, 'y', origin, from, to);
  return [
    `crop=w='trunc(iw*${num(crop.width)}/2)*2':h='trunc(ih*${num(crop.height)}/2)*2'` +
      `:x='clip((${x})*iw-ow/2,0,iw-ow)':y='clip((${y})*ih-oh/2,0,ih-oh)':exact=1`,
    `scale=${out.width}:${out.height}`,
    'setsar=1',
  ].join(',');
}
