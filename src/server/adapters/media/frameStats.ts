import sharp from 'sharp';

/** What choosing a poster needs to know of a picture (services/posterFrame.ts decides with it). */
export interface FrameStats {
  /** Standard deviation of the luma, 0..255: near 0 for black, a fade or a flat colour. */
  stdev: number;
  /**
   * The share of pixels (0..1) whose right or lower neighbour differs by more than EDGE_STEP in luma,
   * on a copy MEASURE_WIDTH wide: photographed scenes are full of such edges (0.24 to 0.83 on the
   * photos measured), while flat graphics have them only along their shapes (colour bars 0.11 to
   * 0.18, a title on a plain ground or a slate about 0.07, a screen of text 0.07). The small copy
   * averages sensor noise away, so grain does not count as detail.
   */
  detail: number;
}

const MEASURE_WIDTH = 96;
const EDGE_STEP = 10;

/** Measures one encoded picture (a keyframe JPEG) on a small greyscale copy: a few milliseconds. */
export async function measureFrame(input: string | Buffer): Promise<FrameStats> {
  const { data, info } = await sharp(input, { failOn: 'none' })
    .resize({ width: MEASURE_WIDTH })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = info;
  const step = info.channels;
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < data.length; i += step) {
    sum += data[i]!;
    squares += data[i]! * data[i]!;
  }
  const n = data.length / step;
  const mean = sum / n;
  let edges = 0;
  for (let y = 0; y < h - 1; y++)
    for (let x = 0; x < w - 1; x++) {
      const i = (y * w + x) * step;
      const v = data[i]!;
      if (Math.abs(data[i + step]! - v) > EDGE_STEP || Math.abs(data[i + w * step]! - v) > EDGE_STEP) edges++;
    }
  return {
    stdev: Math.sqrt(Math.max(0, squares / n - mean * mean)),
    detail: w > 1 && h > 1 ? edges / ((w - 1) * (h - 1)) : 0,
  };
}

/** A poster as the thumbnail route serves it (WebP, at most `maxWidth` wide) from an encoded picture. */
export function posterWebp(input: string | Buffer, maxWidth: number, quality: number): Promise<Buffer> {
  return sharp(input, { failOn: 'none' }).resize({ width: maxWidth, withoutEnlargement: true }).webp({ quality }).toBuffer();
}
