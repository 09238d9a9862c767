import { fromRgb, type RgbImage } from './image';

/** A dominant colour in plain words and its share of the picture. */
export interface NamedColour {
  name: string;
  fraction: number;
}

export interface ColourOptions {
  /** Clusters before naming (default 6). */
  k?: number;
  /** Leave out colours covering less than this share (default 0.05). */
  minFraction?: number;
  /** At most this many colours (default 5). */
  max?: number;
}

const THUMB = 64;

/**
 * Dominant colours: k-means in CIELAB (where distance follows what people see) over a 64 px
 * thumbnail, each centre named by lightness, chroma and hue, same names merged.
 */
export async function dominantColours(img: RgbImage, opts: ColourOptions = {}): Promise<NamedColour[]> {
  const { data, info } = await fromRgb(img)
    .resize({ width: THUMB, height: THUMB, fit: 'inside', kernel: 'linear' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const n = info.width * info.height;
  const lab = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) rgbToLab(data[i * 3], data[i * 3 + 1], data[i * 3 + 2], lab, i * 3);
  const { centres, counts } = kmeans(lab, n, opts.k ?? 6);
  const byName = new Map<string, number>();
  counts.forEach((c, j) => {
    if (!c) return;
    const name = nameLab(centres[j * 3], centres[j * 3 + 1], centres[j * 3 + 2]);
    byName.set(name, (byName.get(name) ?? 0) + c / n);
  });
  return [...byName]
    .map(([name, fraction]) => ({ name, fraction: Math.round(fraction * 1000) / 1000 }))
    .filter((c) => c.fraction >= (opts.minFraction ?? 0.05))
    .sort((a, b) => b.fraction - a.fraction)
    .slice(0, opts.max ?? 5);
}

/** Share of each side of an object's box left out, so the background around it counts less. */
const REGION_INSET = 0.2;
/** At most this many points a side are sampled in an object's box. */
const REGION_SAMPLES = 20;

/**
 * The colours of one object: the central part of its box (fractions of the image), sampled on a
 * grid and named point by point, largest share first. Cheap enough for every detection of a
 * keyframe (at most 400 points), so 'a yellow bus' can ask whether the bus itself is yellow.
 */
export function regionColours(img: RgbImage, box: readonly number[], opts: ColourOptions = {}): NamedColour[] {
  const [x1, y1, x2, y2] = box as [number, number, number, number];
  const [dx, dy] = [(x2 - x1) * REGION_INSET, (y2 - y1) * REGION_INSET];
  const left = Math.max(0, Math.floor((x1 + dx) * img.width));
  const right = Math.min(img.width - 1, Math.ceil((x2 - dx) * img.width));
  const top = Math.max(0, Math.floor((y1 + dy) * img.height));
  const bottom = Math.min(img.height - 1, Math.ceil((y2 - dy) * img.height));
  if (right < left || bottom < top) return [];
  const nx = Math.min(REGION_SAMPLES, right - left + 1);
  const ny = Math.min(REGION_SAMPLES, bottom - top + 1);
  const lab = [0, 0, 0];
  const byName = new Map<string, number>();
  for (let j = 0; j < ny; j++) {
    const y = top + Math.floor(((bottom - top) * (j + 0.5)) / ny);
    for (let i = 0; i < nx; i++) {
      const x = left + Math.floor(((right - left) * (i + 0.5)) / nx);
      const p = (y * img.width + x) * 3;
      rgbToLab(img.data[p]!, img.data[p + 1]!, img.data[p + 2]!, lab);
      const name = nameLab(lab[0]!, lab[1]!, lab[2]!);
      byName.set(name, (byName.get(name) ?? 0) + 1);
    }
  }
  const n = nx * ny;
  return [...byName]
    .map(([name, count]) => ({ name, fraction: Math.round((count / n) * 1000) / 1000 }))
    .filter((c) => c.fraction >= (opts.minFraction ?? 0.15))
    .sort((a, b) => b.fraction - a.fraction)
    .slice(0, opts.max ?? 3);
}

/** sRGB bytes to CIELAB (D65), written at out[o..o+2]. */
export function rgbToLab(r: number, g: number, b: number, out: Float32Array | number[], o = 0): void {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const R = lin(r);
  const G = lin(g);
  const B = lin(b);
  const x = (0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047;
  const y = 0.2126 * R + 0.7152 * G + 0.0722 * B;
  const z = (0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const fx = f(x);
  const fy = f(y);
  const fz = f(z);
  out[o] = 116 * fy - 16;
  out[o + 1] = 500 * (fx - fy);
  out[o + 2] = 200 * (fy - fz);
}

/** Every name nameLab gives: what a colour word in a query can match. */
export const COLOUR_NAMES = [
  'black',
  'dark grey',
  'grey',
  'light grey',
  'white',
  'dark red',
  'pink',
  'red',
  'brown',
  'beige',
  'orange',
  'olive',
  'yellow',
  'dark green',
  'light green',
  'green',
  'teal',
  'cyan',
  'dark blue',
  'light blue',
  'blue',
  'purple',
] as const;

/**
 * A plain name for a CIELAB colour. Hue boundaries are set from where sRGB's named colours fall in
 * LCh (red 40°, orange 73°, yellow 103°, green 136°, cyan 196°, blue 306°, purple 328°); low-chroma
 * warm tones (skin, sand, wood) get beige or brown rather than a loud hue name.
 */
export function nameLab(L: number, a: number, b: number): string {
  const C = Math.hypot(a, b);
  let h = (Math.atan2(b, a) * 180) / Math.PI;
  if (h < 0) h += 360;
  if (C < 8 || (L < 12 && C < 20)) {
    if (L < 20) return 'black';
    if (L < 42) return 'dark grey';
    if (L < 68) return 'grey';
    if (L < 88) return 'light grey';
    return 'white';
  }
  if (h >= 345 || h < 20) {
    if (L < 30) return 'dark red';
    if (L > 70 || C < 35 || (h >= 345 && L > 55)) return 'pink';
    return 'red';
  }
  if (h < 85) {
    if (L < 45) return C > 55 && h < 50 ? 'dark red' : 'brown';
    if (C < 35) return 'beige';
    if (h < 50) return L > 72 ? 'pink' : 'red';
    return 'orange';
  }
  if (h < 115) {
    if (L < 60) return 'olive';
    if (C < 35 && L > 70) return 'beige';
    return 'yellow';
  }
  if (h < 170) {
    if (L < 35) return 'dark green';
    if (L > 78) return 'light green';
    return 'green';
  }
  if (h < 225) return L < 60 ? 'teal' : 'cyan';
  if (h < 315) {
    if (L < 25) return 'dark blue';
    if (L > 70) return 'light blue';
    return 'blue';
  }
  return L > 75 ? 'pink' : 'purple';
}

/** Deterministic k-means (k-means++ seeding from a fixed seed) so the same frame names the same colours. */
function kmeans(points: Float32Array, n: number, k: number): { centres: Float32Array; counts: number[] } {
  k = Math.min(k, n);
  const rand = mulberry32(0x5eed);
  const centres = new Float32Array(k * 3);
  const dist = new Float32Array(n).fill(Infinity);
  let pick = Math.floor(rand() * n);
  for (let j = 0; j < k; j++) {
    centres.set(points.subarray(pick * 3, pick * 3 + 3), j * 3);
    let total = 0;
    for (let i = 0; i < n; i++) {
      dist[i] = Math.min(dist[i], sq(points, i * 3, centres, j * 3));
      total += dist[i];
    }
    if (total === 0) return finish(points, n, centres.subarray(0, (j + 1) * 3), j + 1);
    let r = rand() * total;
    pick = n - 1;
    for (let i = 0; i < n; i++) {
      r -= dist[i];
      if (r <= 0) {
        pick = i;
        break;
      }
    }
  }
  return finish(points, n, centres, k);
}

function finish(points: Float32Array, n: number, centres: Float32Array, k: number): { centres: Float32Array; counts: number[] } {
  const assign = new Int32Array(n);
  let counts: number[] = [];
  for (let iter = 0; iter < 10; iter++) {
    let changed = 0;
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bestD = Infinity;
      for (let j = 0; j < k; j++) {
        const d = sq(points, i * 3, centres, j * 3);
        if (d < bestD) {
          bestD = d;
          best = j;
        }
      }
      if (assign[i] !== best || iter === 0) changed++;
      assign[i] = best;
    }
    const sums = new Float64Array(k * 3);
    counts = new Array<number>(k).fill(0);
    for (let i = 0; i < n; i++) {
      const j = assign[i];
      counts[j]++;
      for (let c = 0; c < 3; c++) sums[j * 3 + c] += points[i * 3 + c];
    }
    for (let j = 0; j < k; j++) if (counts[j]) for (let c = 0; c < 3; c++) centres[j * 3 + c] = sums[j * 3 + c] / counts[j];
    if (!changed) break;
  }
  return { centres, counts };
}

const sq = (a: Float32Array, i: number, b: Float32Array, j: number) =>
  (a[i] - b[j]) ** 2 + (a[i + 1] - b[j + 1]) ** 2 + (a[i + 2] - b[j + 2]) ** 2;

function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
