import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeRgb } from './image';

/** A 64 x 48 JPEG of saturated stripes with the given embedded profile. */
async function striped(profile: 'srgb' | 'p3') {
  const w = 64;
  const h = 48;
  const raw = Buffer.alloc(w * h * 3);
  for (let i = 0; i < w * h; i++) raw.set([[230, 30, 30], [30, 200, 40], [40, 60, 220]][Math.floor((i % w) / 22)]!, i * 3);
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .withIccProfile(profile)
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** The old decode: every embedded profile converted to sRGB. */
async function converted(encoded: Buffer) {
  return sharp(encoded).removeAlpha().toColourspace('srgb').raw().toBuffer();
}

describe('decodeRgb', () => {
  it('reads an image with an embedded sRGB profile exactly as converting through it would', async () => {
    const jpeg = await striped('srgb');
    expect((await sharp(jpeg).metadata()).icc).toBeDefined();
    const img = await decodeRgb(jpeg);
    expect([img.width, img.height]).toEqual([64, 48]);
    expect(img.data.equals(await converted(jpeg))).toBe(true);
  });

  it('still converts an image in another colour space (Display P3) to sRGB', async () => {
    const jpeg = await striped('p3');
    const img = await decodeRgb(jpeg);
    const asIs = await sharp(jpeg).keepIccProfile().raw().toBuffer();
    expect(img.data.equals(await converted(jpeg))).toBe(true);
    // P3 red is redder than sRGB can show: converting changes the pixels.
    expect(img.data.equals(asIs)).toBe(false);
  });
});
