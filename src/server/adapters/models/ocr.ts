import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { decodeRgb, fromRgb, type RgbImage } from './image';
import { findTextLines, inkMask, type TextLine } from './textRegions';
import { ModelMissingError } from './types';

export interface OcrWord {
  word: string;
  confidence: number;
}

export interface OcrOptions {
  /** Words below this confidence (0..100) are dropped (default 70). */
  minConfidence?: number;
}

const require = createRequire(import.meta.url);

/** Lines are scaled to about this height before OCR: where the LSTM model read test captions best (measured 24-48 px). */
const LINE_PX = 32;

/**
 * The local English LSTM data. tesseract.js falls back to a CDN when `langPath` is not given, so the
 * path is always passed; the int-quantised "best_int" set is what tesseract.js itself picks for
 * LSTM-only recognition, and is the faster of the two shipped.
 */
export function englishDataDir(): string {
  let pkg: string;
  try {
    pkg = path.dirname(require.resolve('@tesseract.js-data/eng/package.json'));
  } catch {
    throw new ModelMissingError('text (tesseract.js)', ['@tesseract.js-data/eng'], 'node_modules');
  }
  const dir = path.join(pkg, '4.0.0_best_int');
  if (!fs.existsSync(path.join(dir, 'eng.traineddata.gz'))) throw new ModelMissingError('text (tesseract.js)', ['eng.traineddata.gz'], dir);
  return dir;
}

/** On-screen text with one reused tesseract.js worker; calls are queued because a worker runs one job at a time. */
export class OcrReader {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly worker: Worker,
    private readonly minConfidence: number,
  ) {}

  /** Starts the worker with local language data only (no network, no cache file in the working directory). */
  static async open(opts: OcrOptions = {}): Promise<OcrReader> {
    const worker = await createWorker('eng', OEM.LSTM_ONLY, {
      langPath: englishDataDir(),
      gzip: true,
      // The default 'write' drops eng.traineddata into the process's working directory.
      cacheMethod: 'none',
    });
    // Each crop is one line or a small block; the DPI is fixed because crops are scaled to a known
    // letter height, and tesseract's own estimate on a crop is noise (and a warning per call).
    await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK, user_defined_dpi: '300' });
    return new OcrReader(worker, opts.minConfidence ?? 70);
  }

  /**
   * Words in the image's lines of text (found with `findLines` unless given). Only the lines are
   * read, each cleaned to black ink on white: whole frames make tesseract read foliage as letters
   * and take ten times as long.
   */
  read(img: RgbImage, lines?: TextLine[]): Promise<OcrWord[]> {
    const job = this.queue.then(async () => {
      const words: OcrWord[] = [];
      for (const line of lines ?? (await findLines(img))) words.push(...(await this.readLine(img, line)));
      return words;
    });
    this.queue = job.catch(() => undefined);
    return job;
  }

  private async readLine(img: RgbImage, line: TextLine): Promise<OcrWord[]> {
    const h = line.y2 - line.y1 + 1;
    // A third of a line's height around it: room for what the detector skipped at the ends (dots,
    // punctuation) without taking in much of the picture (wider margins measured worse).
    const padX = Math.round(h * 0.35);
    const padY = padX;
    const left = Math.max(0, line.x1 - padX);
    const top = Math.max(0, line.y1 - padY);
    const width = Math.min(img.width - left, line.x2 - line.x1 + 1 + 2 * padX);
    const height = Math.min(img.height - top, h + 2 * padY);
    const scale = LINE_PX / h;
    const { data, info } = await fromRgb(img)
      .extract({ left, top, width, height })
      .greyscale()
      .resize({
        width: Math.max(8, Math.round(width * scale)),
        height: Math.max(8, Math.round(height * scale)),
        fit: 'fill',
        kernel: 'cubic',
      })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const sy = info.height / height;
    const mask = inkMask(data, info.width, info.height, line.ink, {
      y1: Math.floor((line.y1 - top) * sy),
      y2: Math.ceil((line.y2 + 1 - top) * sy) - 1,
    });
    const png = await sharp(mask, { raw: { width: info.width, height: info.height, channels: 1 } })
      .extend({ top: 10, bottom: 10, left: 10, right: 10, background: '#ffffff' })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const { data: page } = await this.worker.recognize(png, {}, { blocks: true, text: false });
    const words: OcrWord[] = [];
    for (const block of page.blocks ?? []) {
      for (const para of block.paragraphs) {
        for (const l of para.lines) {
          for (const w of l.words) {
            const word = cleanWord(w.text);
            if (word && w.confidence >= this.minConfidence) words.push({ word, confidence: Math.round(w.confidence) });
          }
        }
      }
    }
    return words;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.worker.terminate();
  }
}

/**
 * A word worth indexing, or null: edge punctuation trimmed, at least two letters or digits, mostly
 * letters or wholly a number, no runs like "lll" or "===" that textures and edges produce.
 */
export function cleanWord(raw: string): string | null {
  const w = raw.normalize('NFKC').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  if (w.length < 2) return null;
  const alnum = (w.match(/[\p{L}\p{N}]/gu) ?? []).length;
  const letters = (w.match(/\p{L}/gu) ?? []).length;
  const digits = (w.match(/\p{N}/gu) ?? []).length;
  if (alnum / w.length < 0.8) return null;
  if (letters && letters / alnum < 0.6) return null;
  if (!letters && digits < 2) return null;
  if (/(.)\1\1/u.test(w.toLowerCase()) && !/\p{N}/u.test(w)) return null;
  // Mixed case inside a word ("sUnSeT") is how tesseract reads texture, not how people write.
  if (/\p{Ll}\p{Lu}\p{Ll}/u.test(w) && /\p{Lu}\p{Ll}\p{Lu}/u.test(w)) return null;
  return w;
}

/**
 * Width the text detector works at: big enough for 10 px captions in a 1080p frame, small enough
 * for ~10 ms. Smaller images are enlarged to it, because its size and edge-sharpness thresholds
 * hold at one scale (a 500 px photo's foliage at native size has text-sharp edges).
 */
const PROBE_WIDTH = 640;

/** Lines of likely text in an image, in the image's own pixels. */
export async function findLines(img: RgbImage): Promise<TextLine[]> {
  const { data, info } = await fromRgb(img)
    .resize({ width: PROBE_WIDTH, kernel: 'linear' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sx = img.width / info.width;
  const sy = img.height / info.height;
  return findTextLines(data, info.width, info.height).map((l) => ({
    ...l,
    x1: Math.floor(l.x1 * sx),
    y1: Math.floor(l.y1 * sy),
    x2: Math.min(img.width - 1, Math.ceil((l.x2 + 1) * sx) - 1),
    y2: Math.min(img.height - 1, Math.ceil((l.y2 + 1) * sy) - 1),
  }));
}

/**
 * A cheap check for text before running OCR (~5-15 ms against 100+ ms for OCR): is there at least
 * one line of sharp-edged, letter-sized blobs (see `findTextLines`)?
 */
export async function hasLikelyText(image: Buffer | RgbImage): Promise<boolean> {
  const img = Buffer.isBuffer(image) ? await decodeRgb(image, 1280) : image;
  return (await findLines(img)).length > 0;
}
