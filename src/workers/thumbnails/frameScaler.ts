/**
 * Scales a decoded picture straight from its YUV planes to a small RGBA tile.
 *
 * Drawing a VideoFrame into a 2D canvas converts the whole picture to RGB before scaling it (on
 * the CPU without a GPU: ~5 ms for 720p, half the cost of decoding the frame). A tile needs only
 * its own pixels: each is the average of a few samples spread over its box of the picture, read
 * from the planes and converted once. Pure functions on typed arrays, so tested outside a browser.
 */

/** Pixel formats read here (8 bits per sample); anything else is drawn by the canvas instead. */
export type ScalableFormat = 'I420' | 'I420A' | 'I422' | 'I444' | 'NV12' | 'RGBA' | 'RGBX' | 'BGRA' | 'BGRX';

const SCALABLE = new Set<string>(['I420', 'I420A', 'I422', 'I444', 'NV12', 'RGBA', 'RGBX', 'BGRA', 'BGRX']);
export const isScalableFormat = (format: string | null | undefined): format is ScalableFormat => !!format && SCALABLE.has(format);

export interface Plane {
  offset: number;
  stride: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ScaleInput {
  format: ScalableFormat;
  /** The planes as `VideoFrame.copyTo` laid them out in `data`, holding the rectangle `copied`. */
  data: Uint8Array;
  planes: readonly Plane[];
  /** The copied rectangle, in the frame's coded pixels (see `copyRect`). */
  copied: Rect;
  /** The part of the picture to fill the tile with, in coded pixels, inside `copied`. */
  source: Rect;
  width: number;
  height: number;
  /** `VideoColorSpace.matrix`; BT.601 when absent ('smpte170m', 'bt470bg'). */
  matrix?: string | null;
  fullRange?: boolean | null;
}

/** Samples per axis averaged for one tile pixel: enough to keep detail from aliasing, few enough to stay cheap. */
const SAMPLES_PER_AXIS = 4;
/** Colour changes slowly across a picture (and is already subsampled): fewer samples do. */
const CHROMA_SAMPLES_PER_AXIS = 2;

/**
 * For each of `count` output pixels along an axis, `n` source positions (relative to the copied
 * rectangle's `origin`, divided by `sub` for subsampled chroma, clamped below `limit`, the samples
 * copied). The positions come in adjacent pairs spread over the pixel's box: a pair averages away
 * detail one sample wide (stripes, text edges), which evenly spaced single samples would alias.
 */
function sampleGrid(start: number, length: number, count: number, origin: number, sub: number, limit: number) {
  const step = length / count;
  const box = step / sub; // the box in samples of this plane
  const most = sub > 1 ? CHROMA_SAMPLES_PER_AXIS : SAMPLES_PER_AXIS;
  const n = box >= 4 && most >= 4 ? 4 : box >= 2 ? 2 : 1;
  const pairs = Math.max(1, n / 2);
  const base = Math.floor(origin / sub);
  const grid = new Int32Array(count * n);
  for (let o = 0; o < count; o++) {
    for (let p = 0; p < pairs; p++) {
      const centre = (start + step * o + (step * (p + 0.5)) / pairs) / sub;
      const first = n === 1 ? Math.floor(centre) : Math.round(centre) - 1;
      for (let k = 0; k < n / pairs; k++) grid[o * n + p * (n / pairs) + k] = Math.min(limit - 1, Math.max(0, first + k - base));
    }
  }
  return { grid, n };
}

/** YUV -> RGB coefficients (fixed point, 1 << 16) for a matrix and range. */
function coefficients(matrix: string | null | undefined, fullRange: boolean) {
  // Kr, Kb per matrix; the rest follows.
  const [kr, kb] = matrix === 'bt709' ? [0.2126, 0.0722] : matrix === 'bt2020-ncl' ? [0.2627, 0.0593] : [0.299, 0.114];
  const kg = 1 - kr - kb;
  const yScale = fullRange ? 1 : 255 / 219;
  const cScale = fullRange ? 1 : 255 / 224;
  const f = (v: number) => Math.round(v * 65536);
  return {
    yOff: fullRange ? 0 : 16,
    y: f(yScale),
    rv: f(2 * (1 - kr) * cScale),
    gu: f(((2 * (1 - kb) * kb) / kg) * cScale),
    gv: f(((2 * (1 - kr) * kr) / kg) * cScale),
    bu: f(2 * (1 - kb) * cScale),
  };
}

/** The tile's pixels as RGBA (alpha 255), `width * height * 4` bytes. */
export function scaleToRgba(input: ScaleInput): Uint8ClampedArray<ArrayBuffer> {
  const { format, data, planes, copied, source, width, height } = input;
  const out = new Uint8ClampedArray(width * height * 4);
  const rgb = format === 'RGBA' || format === 'RGBX' || format === 'BGRA' || format === 'BGRX';
  const xs = sampleGrid(source.x, source.width, width, copied.x, 1, copied.width);
  const ys = sampleGrid(source.y, source.height, height, copied.y, 1, copied.height);

  if (rgb) {
    const p = planes[0]!;
    const [ri, bi] = format === 'BGRA' || format === 'BGRX' ? [2, 0] : [0, 2];
    const count = xs.n * ys.n;
    for (let oy = 0; oy < height; oy++) {
      for (let ox = 0; ox < width; ox++) {
        let r = 0;
        let g = 0;
        let b = 0;
        for (let sy = 0; sy < ys.n; sy++) {
          const row = p.offset + ys.grid[oy * ys.n + sy]! * p.stride;
          for (let sx = 0; sx < xs.n; sx++) {
            const i = row + xs.grid[ox * xs.n + sx]! * 4;
            r += data[i + ri]!;
            g += data[i + 1]!;
            b += data[i + bi]!;
          }
        }
        const o = (oy * width + ox) * 4;
        out[o] = r / count;
        out[o + 1] = g / count;
        out[o + 2] = b / count;
        out[o + 3] = 255;
      }
    }
    return out;
  }

  const subX = format === 'I444' ? 1 : 2;
  const subY = format === 'I420' || format === 'I420A' || format === 'NV12' ? 2 : 1;
  const cx = sampleGrid(source.x, source.width, width, copied.x, subX, Math.ceil(copied.width / subX));
  const cy = sampleGrid(source.y, source.height, height, copied.y, subY, Math.ceil(copied.height / subY));
  const yp = planes[0]!;
  const up = planes[1]!;
  // NV12 interleaves U and V in one plane: U at even bytes, V at the next.
  const nv12 = format === 'NV12';
  const vp = nv12 ? { offset: up.offset + 1, stride: up.stride } : planes[2]!;
  const cStep = nv12 ? 2 : 1;
  const k = coefficients(input.matrix, input.fullRange === true);
  const lumaCount = xs.n * ys.n;
  const chromaCount = cx.n * cy.n;
  const lumaSums = new Int32Array(width);
  const uSums = new Int32Array(width);
  const vSums = new Int32Array(width);

  for (let oy = 0; oy < height; oy++) {
    lumaSums.fill(0);
    uSums.fill(0);
    vSums.fill(0);
    for (let sy = 0; sy < ys.n; sy++) {
      const row = yp.offset + ys.grid[oy * ys.n + sy]! * yp.stride;
      for (let ox = 0; ox < width; ox++) {
        let s = 0;
        for (let sx = 0; sx < xs.n; sx++) s += data[row + xs.grid[ox * xs.n + sx]!]!;
        lumaSums[ox]! += s;
      }
    }
    for (let sy = 0; sy < cy.n; sy++) {
      const line = cy.grid[oy * cy.n + sy]!;
      const uRow = up.offset + line * up.stride;
      const vRow = vp.offset + line * vp.stride;
      for (let ox = 0; ox < width; ox++) {
        let u = 0;
        let v = 0;
        for (let sx = 0; sx < cx.n; sx++) {
          const c = cx.grid[ox * cx.n + sx]! * cStep;
          u += data[uRow + c]!;
          v += data[vRow + c]!;
        }
        uSums[ox]! += u;
        vSums[ox]! += v;
      }
    }
    let o = oy * width * 4;
    for (let ox = 0; ox < width; ox++) {
      const y = (lumaSums[ox]! / lumaCount - k.yOff) * k.y;
      const u = uSums[ox]! / chromaCount - 128;
      const v = vSums[ox]! / chromaCount - 128;
      out[o] = (y + k.rv * v) / 65536;
      out[o + 1] = (y - k.gu * u - k.gv * v) / 65536;
      out[o + 2] = (y + k.bu * u) / 65536;
      out[o + 3] = 255;
      o += 4;
    }
  }
  return out;
}

/**
 * The rectangle to copy out of a frame for `source`: widened to even coordinates so that
 * subsampled chroma planes start on a whole sample, and kept inside `visible` (the frame's
 * visibleRect, whose corner is even for every subsampled format).
 */
export function copyRect(source: Rect, visible: Rect): Rect {
  const x = Math.max(visible.x, Math.floor(source.x / 2) * 2);
  const y = Math.max(visible.y, Math.floor(source.y / 2) * 2);
  const right = Math.min(visible.x + visible.width, Math.ceil((source.x + source.width) / 2) * 2);
  const bottom = Math.min(visible.y + visible.height, Math.ceil((source.y + source.height) / 2) * 2);
  return { x, y, width: right - x, height: bottom - y };
}
