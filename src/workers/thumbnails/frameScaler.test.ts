import { describe, expect, it } from 'vitest';
import { copyRect, isScalableFormat, scaleToRgba, type Rect, type ScalableFormat } from './frameScaler';

/** BT.709 limited-range YUV of an RGB colour (the inverse of what the scaler computes). */
function yuv709(r: number, g: number, b: number): [number, number, number] {
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const u = (b - y) / 1.8556;
  const v = (r - y) / 1.5748;
  return [Math.round(16 + (y * 219) / 255), Math.round(128 + (u * 224) / 255), Math.round(128 + (v * 224) / 255)];
}

type Paint = (x: number, y: number) => [number, number, number];

/** An I420 or NV12 picture of `w` x `h` painted per pixel, laid out as VideoFrame.copyTo would (with row padding). */
function picture(format: 'I420' | 'NV12', w: number, h: number, paint: Paint) {
  const pad = 16;
  const yStride = w + pad;
  const cw = w / 2;
  const ch = h / 2;
  const cStride = format === 'NV12' ? w + pad : cw + pad;
  const ySize = yStride * h;
  const data = new Uint8Array(ySize + cStride * ch * (format === 'NV12' ? 1 : 2));
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data[y * yStride + x] = yuv709(...paint(x, y))[0];
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      const [, u, v] = yuv709(...paint(x * 2, y * 2));
      if (format === 'NV12') {
        data[ySize + y * cStride + x * 2] = u;
        data[ySize + y * cStride + x * 2 + 1] = v;
      } else {
        data[ySize + y * cStride + x] = u;
        data[ySize + cStride * ch + y * cStride + x] = v;
      }
    }
  }
  const planes =
    format === 'NV12'
      ? [
          { offset: 0, stride: yStride },
          { offset: ySize, stride: cStride },
        ]
      : [
          { offset: 0, stride: yStride },
          { offset: ySize, stride: cStride },
          { offset: ySize + cStride * ch, stride: cStride },
        ];
  return { data, planes };
}

const pixel = (rgba: Uint8ClampedArray, width: number, x: number, y: number) =>
  Array.from(rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 4));

const near = (actual: number[], expected: number[], tolerance = 4) =>
  expect(
    actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance),
    `${actual} ~ ${expected}`,
  ).toBe(true);

describe('scaleToRgba', () => {
  const whole: Rect = { x: 0, y: 0, width: 64, height: 32 };

  it.each(['I420', 'NV12'] as const)('turns %s planes into the colours painted, box by box', (format) => {
    // Four quadrants: red, green / blue, white.
    const paint: Paint = (x, y) => (y < 16 ? (x < 32 ? [255, 0, 0] : [0, 255, 0]) : x < 32 ? [0, 0, 255] : [255, 255, 255]);
    const { data, planes } = picture(format, 64, 32, paint);
    const out = scaleToRgba({ format, data, planes, copied: whole, source: whole, width: 8, height: 4, matrix: 'bt709', fullRange: false });
    expect(out.length).toBe(8 * 4 * 4);
    near(pixel(out, 8, 1, 0), [255, 0, 0, 255]);
    near(pixel(out, 8, 6, 1), [0, 255, 0, 255]);
    near(pixel(out, 8, 1, 3), [0, 0, 255, 255]);
    near(pixel(out, 8, 6, 2), [255, 255, 255, 255]);
  });

  it.each([
    ['columns', ((x) => (x % 2 ? [255, 255, 255] : [0, 0, 0])) as Paint],
    ['rows', ((_, y) => (y % 2 ? [255, 255, 255] : [0, 0, 0])) as Paint],
    ['2-pixel columns', ((x) => (x % 4 < 2 ? [255, 255, 255] : [0, 0, 0])) as Paint],
  ])('averages a box instead of picking pixels: stripes of %s come out grey', (_, paint) => {
    const { data, planes } = picture('I420', 64, 32, paint);
    const out = scaleToRgba({ format: 'I420', data, planes, copied: whole, source: whole, width: 8, height: 4, matrix: 'bt709' });
    // Half black, half white luma; chroma neutral.
    for (let x = 0; x < 8; x++) near(pixel(out, 8, x, 2), [128, 128, 128, 255], 12);
  });

  it('fills the tile from the source rectangle only (a cover crop leaves the borders out)', () => {
    // Red 8-pixel borders left and right, green inside.
    const paint: Paint = (x) => (x < 8 || x >= 56 ? [255, 0, 0] : [0, 255, 0]);
    const { data, planes } = picture('I420', 64, 32, paint);
    const source = { x: 8, y: 0, width: 48, height: 32 };
    const out = scaleToRgba({ format: 'I420', data, planes, copied: whole, source, width: 6, height: 4, matrix: 'bt709' });
    for (let x = 0; x < 6; x++) near(pixel(out, 6, x, 2), [0, 255, 0, 255]);
  });

  it('reads planes copied from part of the frame, relative to that part', () => {
    const paint: Paint = (x) => (x < 32 ? [255, 0, 0] : [0, 0, 255]);
    const full = picture('I420', 64, 32, paint);
    // Copy only the right half, as copyTo({ rect }) would: a 32 x 32 picture of blue.
    const half = picture('I420', 32, 32, () => [0, 0, 255]);
    const copied = { x: 32, y: 0, width: 32, height: 32 };
    const out = scaleToRgba({
      format: 'I420',
      data: half.data,
      planes: half.planes,
      copied,
      source: copied,
      width: 4,
      height: 4,
      matrix: 'bt709',
    });
    near(pixel(out, 4, 0, 0), [0, 0, 255, 255]);
    expect(full.data.length).toBeGreaterThan(half.data.length);
  });

  it('uses BT.601 when the matrix says so or says nothing, and full range when flagged', () => {
    // Full-range BT.601 grey-ish orange: Y=150, U=100, V=180.
    const data = new Uint8Array(4 * 4 + 2 * 2 * 2);
    data.fill(150, 0, 16);
    data.fill(100, 16, 20);
    data.fill(180, 20, 24);
    const planes = [
      { offset: 0, stride: 4 },
      { offset: 16, stride: 2 },
      { offset: 20, stride: 2 },
    ];
    const rect = { x: 0, y: 0, width: 4, height: 4 };
    const out = scaleToRgba({
      format: 'I420',
      data,
      planes,
      copied: rect,
      source: rect,
      width: 1,
      height: 1,
      matrix: 'smpte170m',
      fullRange: true,
    });
    // R = Y + 1.402 V', G = Y - 0.344 U' - 0.714 V', B = Y + 1.772 U'
    near(pixel(out, 1, 0, 0), [150 + 1.402 * 52, 150 + 0.344136 * 28 - 0.714136 * 52, 150 - 1.772 * 28, 255], 2);
    const unflagged = scaleToRgba({ format: 'I420', data, planes, copied: rect, source: rect, width: 1, height: 1, fullRange: true });
    expect(Array.from(unflagged)).toEqual(Array.from(out));
  });

  it.each(['RGBA', 'BGRX'] as const)('scales %s pixels keeping the channel order right', (format: ScalableFormat) => {
    const w = 16;
    const h = 8;
    const data = new Uint8Array(w * h * 4);
    for (let i = 0; i < w * h; i++) data.set(format === 'RGBA' ? [200, 100, 50, 255] : [50, 100, 200, 0], i * 4);
    const rect = { x: 0, y: 0, width: w, height: h };
    const out = scaleToRgba({ format, data, planes: [{ offset: 0, stride: w * 4 }], copied: rect, source: rect, width: 4, height: 2 });
    near(pixel(out, 4, 3, 1), [200, 100, 50, 255], 0);
  });
});

describe('copyRect', () => {
  it('widens to even coordinates inside the visible rectangle', () => {
    expect(copyRect({ x: 80.5, y: 3, width: 1119, height: 700 }, { x: 0, y: 0, width: 1280, height: 720 })).toEqual({
      x: 80,
      y: 2,
      width: 1120,
      height: 702,
    });
    expect(copyRect({ x: -1, y: 0, width: 2000, height: 1080 }, { x: 0, y: 0, width: 1920, height: 1080 })).toEqual({
      x: 0,
      y: 0,
      width: 1920,
      height: 1080,
    });
  });
});

describe('isScalableFormat', () => {
  it('takes 8-bit planar and packed formats and leaves the rest to the canvas', () => {
    expect(['I420', 'NV12', 'I444', 'BGRA'].every(isScalableFormat)).toBe(true);
    expect(['I420P10', 'NV12A', '', null, undefined].some(isScalableFormat)).toBe(false);
  });
});
