import fs from 'node:fs/promises';
import path from 'node:path';
import { fromRgb, nms, type RgbImage } from './image';
import { openSession, ort, requireFiles, type SessionOptions } from './onnx';
import { ModelRunError, type Detection } from './types';

const YOLOX_FILES = ['yolox_nano.onnx', 'coco80_labels.txt'] as const;

const SIZE = 416;
const STRIDES = [8, 16, 32] as const;
const PAD = 114;

// coco80_labels.txt comes from darknet, which spells six classes its own way; the index shows COCO's names.
const COCO_NAMES: Record<string, string> = {
  motorbike: 'motorcycle',
  aeroplane: 'airplane',
  sofa: 'couch',
  pottedplant: 'potted plant',
  diningtable: 'dining table',
  tvmonitor: 'tv',
};

export interface YoloxOptions extends SessionOptions {
  /** Minimum objectness x class score to keep (default 0.3). */
  minScore?: number;
  /** Per-class NMS IoU (default 0.45, as the model's authors use). */
  iou?: number;
}

/** YOLOX-nano over the 80 COCO classes; one image per run, as its input is fixed at batch 1. */
export class YoloxDetector {
  private constructor(
    private readonly session: ort.InferenceSession,
    private readonly labels: string[],
    private readonly minScore: number,
    private readonly iouThreshold: number,
  ) {}

  /** Loads the model and labels from `modelsDir`; throws ModelMissingError naming absent files. */
  static async open(modelsDir: string, opts: YoloxOptions = {}): Promise<YoloxDetector> {
    requireFiles(modelsDir, 'objects (YOLOX-nano)', YOLOX_FILES);
    const labels = (await fs.readFile(path.join(modelsDir, 'coco80_labels.txt'), 'utf8')).split('\n').map((l) => l.trim());
    const session = await openSession(modelsDir, 'yolox_nano.onnx', 'objects (YOLOX-nano)', opts);
    return new YoloxDetector(
      session,
      labels.filter(Boolean).map((l) => COCO_NAMES[l] ?? l),
      opts.minScore ?? 0.3,
      opts.iou ?? 0.45,
    );
  }

  /** Objects in one decoded image, best first, boxes normalised to the image. */
  async detect(img: RgbImage): Promise<Detection[]> {
    // Letterbox: keep the aspect, pad right and bottom with grey 114, as the model was trained.
    const r = Math.min(SIZE / img.width, SIZE / img.height);
    const w = Math.max(1, Math.round(img.width * r));
    const h = Math.max(1, Math.round(img.height * r));
    const rgb = await fromRgb(img)
      .resize({ width: w, height: h, fit: 'fill', kernel: 'linear' })
      .extend({ right: SIZE - w, bottom: SIZE - h, background: { r: PAD, g: PAD, b: PAD } })
      .raw()
      .toBuffer();
    const plane = SIZE * SIZE;
    const input = new Float32Array(3 * plane);
    for (let i = 0; i < plane; i++) {
      // BGR planes, 0..255, no normalisation.
      input[i] = rgb[i * 3 + 2];
      input[plane + i] = rgb[i * 3 + 1];
      input[2 * plane + i] = rgb[i * 3];
    }
    const out = await this.session.run({ images: new ort.Tensor('float32', input, [1, 3, SIZE, SIZE]) });
    const pred = out.output;
    const dims = pred.dims;
    const n = Number(dims[1]);
    const width = Number(dims[2]);
    if (width !== 5 + this.labels.length)
      throw new ModelRunError('objects (YOLOX-nano)', `output row of ${width}, expected ${5 + this.labels.length}`);
    const data = pred.data as Float32Array;
    const boxes: number[][] = [];
    const scores: number[] = [];
    const classes: number[] = [];
    let row = 0;
    for (const stride of STRIDES) {
      const g = SIZE / stride;
      for (let gy = 0; gy < g; gy++) {
        for (let gx = 0; gx < g; gx++, row++) {
          const o = row * width;
          const obj = data[o + 4];
          if (obj < this.minScore) continue; // score = obj x cls <= obj
          let best = 0;
          let cls = 0;
          for (let c = 0; c < this.labels.length; c++) {
            if (data[o + 5 + c] > best) {
              best = data[o + 5 + c];
              cls = c;
            }
          }
          const score = obj * best;
          if (score < this.minScore) continue;
          const cx = (data[o] + gx) * stride;
          const cy = (data[o + 1] + gy) * stride;
          const bw = Math.exp(data[o + 2]) * stride;
          const bh = Math.exp(data[o + 3]) * stride;
          boxes.push([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2]);
          scores.push(score);
          classes.push(cls);
        }
      }
    }
    if (row !== n) throw new ModelRunError('objects (YOLOX-nano)', `${n} rows, expected ${row}`);
    const found: Detection[] = [];
    for (const cls of new Set(classes)) {
      const idx = classes.flatMap((c, i) => (c === cls ? [i] : []));
      const kept = nms(
        idx.map((i) => boxes[i]),
        idx.map((i) => scores[i]),
        this.iouThreshold,
      );
      for (const k of kept) {
        const [x1, y1, x2, y2] = boxes[idx[k]];
        // Back from letterbox pixels to fractions of the original image.
        const fx = (v: number) => clamp01(v / r / img.width);
        const fy = (v: number) => clamp01(v / r / img.height);
        found.push({ label: this.labels[cls], score: scores[idx[k]], box: [fx(x1), fy(y1), fx(x2), fy(y2)] });
      }
    }
    return found.sort((a, b) => b.score - a.score);
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
