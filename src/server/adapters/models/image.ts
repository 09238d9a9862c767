import sharp from 'sharp';

type Sharp = ReturnType<typeof sharp>;

/** A decoded sRGB image, 3 bytes a pixel, row-major. */
export interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Decodes an encoded image once; every model then resizes from these pixels, so a keyframe's JPEG
 * is not decoded again per model. Very large photos are capped because no model here looks at more
 * than ~1000 pixels and OCR gains nothing beyond full HD. A search's query image is decoded the
 * same way as an indexed photo (decodeCentreCrop), so that the same picture gives the same embedding.
 */
export async function decodeRgb(encoded: Buffer, maxSide = 1920): Promise<RgbImage> {
  const image = sharp(encoded, { failOn: 'none' })
    .rotate() // honour EXIF orientation of phone photos
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .removeAlpha();
  const { data, info } = await inSrgb(image, (await image.metadata()).icc)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The pipeline's output in sRGB. An embedded sRGB profile (most cameras and phones write one) would
 * be applied pixel by pixel for an identical result: 25 instead of 10 ms for a 768 x 576 photo.
 * Other profiles are converted.
 */
function inSrgb(image: Sharp, icc: Buffer | undefined): Sharp {
  return isSrgbProfile(icc) ? image.keepIccProfile() : image.toColourspace('srgb');
}

/** Whether an ICC profile describes sRGB (its description names it, as IEC 61966-2.1 profiles do). */
function isSrgbProfile(icc: Buffer | undefined): boolean {
  return !!icc && /sRGB/.test(icc.toString('latin1').replaceAll('\0', ''));
}

/** A sharp pipeline over decoded pixels. */
export const fromRgb = (img: RgbImage) => sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });

/** A small grey picture of the image, stretched to exactly width x height: to tell whether two frames differ. */
export async function greyThumbnail(img: RgbImage, width: number, height: number): Promise<Uint8Array> {
  const buf = await fromRgb(img).resize({ width, height, fit: 'fill', kernel: 'linear' }).greyscale().raw().toBuffer();
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
}

/** Resizes to exactly width x height (stretching), returning raw RGB. */
export async function resizeRgb(img: RgbImage, width: number, height: number, fit: 'fill' | 'cover' = 'fill'): Promise<Buffer> {
  return fromRgb(img).resize({ width, height, fit, kernel: 'linear' }).raw().toBuffer();
}

/** torchvision-style "resize short side to `short`, centre crop `crop`", returning raw RGB. */
export async function resizeCentreCrop(img: RgbImage, short: number, crop: number): Promise<Buffer> {
  return centreCrop(fromRgb(img), img.width, img.height, short, crop).raw().toBuffer();
}

/**
 * What `resizeCentreCrop(await decodeRgb(encoded, maxSide), short, crop)` returns, in one pipeline
 * when the photo is opaque (its full-size pixels are then neither written out nor read back: 2-4 ms
 * of a search by photo). Within `maxSide` the bytes are the same. A larger photo is scaled while it
 * is decoded (a JPEG's DCT scaling) straight to the crop's size instead of being capped first: a
 * few pixels differ from indexing's (the embedding's cosine to the indexed one is 0.985 for
 * 1.4 MB kite.jpg), and the decode takes 33 instead of 59 ms, more saved the larger the photo.
 * Images with alpha take the two steps.
 */
export async function decodeCentreCrop(encoded: Buffer, maxSide: number, short: number, crop: number): Promise<Buffer> {
  const image = sharp(encoded, { failOn: 'none' });
  const meta = await image.metadata();
  const turned = (meta.orientation ?? 1) >= 5; // EXIF orientations 5-8 swap width and height
  const width = turned ? meta.height : meta.width;
  const height = turned ? meta.width : meta.height;
  // Resizing weighs colours by an alpha channel, which decodeRgb drops before the crop's resize.
  if (!width || !height || meta.hasAlpha) return resizeCentreCrop(await decodeRgb(encoded, maxSide), short, crop);
  return centreCrop(inSrgb(image.rotate(), meta.icc), width, height, short, crop, Math.max(width, height) > maxSide)
    .raw()
    .toBuffer();
}

/** Resizes the short side to `short` and cuts the centre `crop` x `crop`. */
function centreCrop(image: Sharp, width: number, height: number, short: number, crop: number, shrinkOnLoad = false) {
  const scale = short / Math.min(width, height);
  const w = Math.max(crop, Math.round(width * scale));
  const h = Math.max(crop, Math.round(height * scale));
  return (
    image
      // A JPEG scaled while decoding would not give decodeRgb's pixels: only where they differ anyway.
      .resize({ width: w, height: h, fit: 'fill', kernel: 'linear', fastShrinkOnLoad: shrinkOnLoad })
      .extract({ left: Math.floor((w - crop) / 2), top: Math.floor((h - crop) / 2), width: crop, height: crop })
  );
}

/** Writes HWC RGB bytes into a CHW float tensor slice with per-channel (x/255 - mean)/std. */
export function toChwNormalised(
  rgb: Buffer,
  size: number,
  out: Float32Array,
  offset: number,
  mean: readonly [number, number, number],
  std: readonly [number, number, number],
): void {
  const plane = size * size;
  for (let i = 0; i < plane; i++) {
    for (let c = 0; c < 3; c++) out[offset + c * plane + i] = (rgb[i * 3 + c] / 255 - mean[c]) / std[c];
  }
}

/** L2-normalises in place and returns the same array. */
export function l2normalise(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s) || 1;
  for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

/** Cosine similarity of two vectors of equal length. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / (Math.sqrt(na * nb) || 1);
}

/** Intersection over union of two x1,y1,x2,y2 boxes. */
export function iou(a: readonly number[], b: readonly number[]): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter);
}

/** Greedy non-maximum suppression; returns the kept indices, best first. */
export function nms(boxes: ReadonlyArray<readonly number[]>, scores: readonly number[], iouThreshold: number): number[] {
  const order = scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a]);
  const keep: number[] = [];
  for (const i of order) {
    if (keep.every((k) => iou(boxes[i], boxes[k]) <= iouThreshold)) keep.push(i);
  }
  return keep;
}
