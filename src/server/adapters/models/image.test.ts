import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { decodeCentreCrop, decodeRgb, resizeCentreCrop } from './image';

/** A 64 x 48 JPEG of saturated stripes with the given embedded profile. */
async function striped(profile: 'srgb' | 'p3') {
  const w = 64;
  const h = 48;
  const raw = Buffer.alloc(w * h * 3);
  for (let i = 0; i < w * h; i++)
    raw.set(
      [
        [230, 30, 30],
        [30, 200, 40],
        [40, 60, 220],
      ][Math.floor((i % w) / 22)]!,
      i * 3,
    );
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

/** A w x h gradient with an alpha channel that fades across it, as PNG. */
async function fadingPng(w: number, h: number) {
  const raw = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw.set([(x * 255) / w, (y * 255) / h, 128, (x * 255) / w], (y * w + x) * 4);
  return sharp(raw, { raw: { width: w, height: h, channels: 4 } })
    .png()
    .toBuffer();
}

/** Mean absolute difference of two images' bytes, in 0-255 levels. */
function meanDifference(a: Buffer, b: Buffer) {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

describe('decodeCentreCrop', () => {
  const twoSteps = async (encoded: Buffer, maxSide: number) => resizeCentreCrop(await decodeRgb(encoded, maxSide), 256, 224);

  it('gives the bytes of decoding then cropping, for photos, alpha, EXIF rotation and other colour spaces', async () => {
    const rotated = await sharp(await fadingPng(400, 260))
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const inputs = {
      photo: fs.readFileSync('/usr/share/darknet/data/dog.jpg'),
      portrait: await sharp(fs.readFileSync('/usr/share/darknet/data/person.jpg')).resize(300, 700).jpeg().toBuffer(),
      // Within the cap but over 4x the crop: decoding a JPEG at a reduced scale would be tempting.
      large: await sharp(fs.readFileSync('/usr/share/darknet/data/dog.jpg')).resize(1240, 930).jpeg().toBuffer(),
      alpha: await fadingPng(500, 300),
      rotated,
      p3: await sharp(await striped('p3'))
        .resize(600, 450)
        .withIccProfile('p3')
        .jpeg()
        .toBuffer(),
    };
    for (const [name, encoded] of Object.entries(inputs)) {
      const one = await decodeCentreCrop(encoded, 1280, 256, 224);
      expect(one.length, name).toBe(224 * 224 * 3);
      expect(one.equals(await twoSteps(encoded, 1280)), name).toBe(true);
    }
  });

  it("scales a photo larger than the cap while decoding it: close to indexing's pixels, not the same", async () => {
    const kite = fs.readFileSync('/usr/share/darknet/data/kite.jpg'); // 1352 x 900
    const one = await decodeCentreCrop(kite, 1280, 256, 224);
    const indexed = await twoSteps(kite, 1280);
    expect(one.length).toBe(224 * 224 * 3);
    expect(one.equals(indexed)).toBe(false);
    expect(meanDifference(one, indexed)).toBeLessThan(4);
    // A phone-sized photo is scaled while decoding too, still centred and with EXIF orientation applied.
    const phone = await sharp(await fadingPng(4000, 2600))
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const big = await decodeCentreCrop(phone, 1280, 256, 224);
    expect(meanDifference(big, await twoSteps(phone, 1280))).toBeLessThan(4);
  });
});
