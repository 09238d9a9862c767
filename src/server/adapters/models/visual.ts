import { ClipImageEncoder, clipMissing } from './clip';
import { dominantColours, regionColours } from './colours';
import type { CorruptModelFile } from './fetchModels';
import { decodeRgb, type RgbImage } from './image';
import { MobilenetClassifier, type ClassifierResult } from './mobilenet';
import { OcrThread } from './ocrThread';
import { ModelMissingError, type Detection, type VisualAnalyzer, type VisualFeatures } from './types';
import { UltrafaceDetector } from './ultraface';
import { YoloxDetector } from './yolox';

/** The features a VisualAnalyzer can compute, in the order they are reported. */
export const VISUAL_FEATURES = ['objects', 'classes', 'embedding', 'colours', 'text', 'faces', 'clip'] as const;
export type VisualFeature = (typeof VISUAL_FEATURES)[number];

export interface VisualAnalyzerOptions {
  /** Features to leave out on purpose (not reported as missing). */
  skip?: VisualFeature[];
  /** 'auto' (default) reads on-screen text with PP-OCR; 'off' never. */
  ocr?: 'auto' | 'off';
  /** Threads per ONNX session (default: ONNX Runtime's choice). */
  threads?: number;
  /** Files that failed their pinned hash (`verifyModelFiles`): their models are not opened. */
  corrupt?: readonly CorruptModelFile[];
}

/** Keyframes are decoded once at up to this size: the detectors look at <= 960 px, OCR line crops gain nothing beyond. */
const DECODE_MAX = 1280;
/** The most prominent detections (best first) that get colours of their own. */
const REGION_COLOUR_OBJECTS = 8;

/** '<file> is corrupt (<why>), …' for the corrupt files that `features` need, or null when there are none. */
export function corruptReason(corrupt: readonly CorruptModelFile[] | undefined, features: readonly string[]): string | null {
  const bad = (corrupt ?? []).filter((c) => c.features.some((f) => features.includes(f)));
  return bad.length ? bad.map((c) => `${c.path} is corrupt (${c.reason})`).join(', ') : null;
}

export const reason = (err: unknown) =>
  err instanceof ModelMissingError ? `${err.files.join(', ')} not in ${err.where}` : (err as Error).message;

/**
 * Opens every "what is seen" model found in `modelsDir`. A model that is not there does not stop
 * the others: its feature is left out of `capabilities` and each frame's `missing` says which file.
 */
export async function createVisualAnalyzer(
  modelsDir: string,
  opts: VisualAnalyzerOptions = {},
): Promise<VisualAnalyzer & { readonly missing: string[] }> {
  const skip = new Set(opts.skip ?? []);
  const notComputed: string[] = [];
  const session = { threads: opts.threads };
  const attempt = async <T>(features: VisualFeature[], open: () => Promise<T>): Promise<T | null> => {
    if (features.every((f) => skip.has(f))) return null;
    const why = corruptReason(opts.corrupt, features);
    if (why) {
      for (const f of features) if (!skip.has(f)) notComputed.push(`${f}: ${why}`);
      return null;
    }
    try {
      return await open();
    } catch (err) {
      for (const f of features) if (!skip.has(f)) notComputed.push(`${f}: ${reason(err)}`);
      return null;
    }
  };
  const yolox = await attempt(['objects'], () => YoloxDetector.open(modelsDir, session));
  const mobilenet = await attempt(['classes', 'embedding'], () => MobilenetClassifier.open(modelsDir, session));
  const faces = await attempt(['faces'], () => UltrafaceDetector.open(modelsDir, session));
  const ocr = opts.ocr === 'off' ? null : await attempt(['text'], () => OcrThread.open(session));
  let clip: ClipImageEncoder | null = null;
  if (!skip.has('clip')) {
    const why = clipMissing(modelsDir);
    if (why) notComputed.push(why);
    else clip = await attempt(['clip'], () => ClipImageEncoder.open(modelsDir, session));
  }
  const has: Record<VisualFeature, boolean> = {
    objects: !!yolox,
    classes: !!mobilenet,
    embedding: !!mobilenet,
    colours: !skip.has('colours'),
    text: !!ocr,
    faces: !!faces,
    clip: !!clip,
  };
  return new LocalVisualAnalyzer(
    VISUAL_FEATURES.filter((f) => has[f]),
    notComputed,
    { yolox, mobilenet, faces, ocr, clip },
  );
}

class LocalVisualAnalyzer implements VisualAnalyzer {
  constructor(
    readonly capabilities: string[],
    /** Features not computed and why, e.g. 'objects: yolox_nano.onnx not in MODELS_DIR'. */
    readonly missing: string[],
    private readonly m: {
      yolox: YoloxDetector | null;
      mobilenet: MobilenetClassifier | null;
      faces: UltrafaceDetector | null;
      ocr: OcrThread | null;
      clip: ClipImageEncoder | null;
    },
  ) {}

  async analyze(images: Buffer[]): Promise<VisualFeatures[]> {
    const decoded = await Promise.all(
      images.map((b) =>
        decodeRgb(b, DECODE_MAX).then(
          (img): RgbImage | Error => img,
          (err: Error) => new Error(`image: cannot decode (${err.message})`),
        ),
      ),
    );
    const good = decoded.filter((d): d is RgbImage => !(d instanceof Error));
    // Text is read on its own thread, in frame order, while this one runs the other models.
    const texts = this.m.ocr ? good.map((d) => this.m.ocr!.read(d)) : [];
    // Until awaited below, a failed read must not count as unhandled.
    for (const t of texts) t.catch(() => undefined);
    // The batch-friendly models run once over all decodable frames.
    const classes: ClassifierResult[] = this.m.mobilenet ? await this.m.mobilenet.classify(good) : [];
    const clips: Float32Array[] = this.m.clip ? await this.m.clip.embed(good) : [];
    const out: VisualFeatures[] = [];
    let g = 0;
    for (const d of decoded) {
      if (d instanceof Error) {
        out.push({
          objects: [],
          classes: [],
          embedding: new Float32Array(0),
          colours: [],
          text: [],
          faces: 0,
          clip: null,
          missing: [d.message],
        });
        continue;
      }
      const i = g++;
      const objects: Detection[] = this.m.yolox ? await this.m.yolox.detect(d) : [];
      if (this.capabilities.includes('colours'))
        for (const o of objects.slice(0, REGION_COLOUR_OBJECTS)) o.colours = regionColours(d, o.box);
      const faces = this.m.faces ? await this.m.faces.count(d) : 0;
      const colours = this.capabilities.includes('colours') ? await dominantColours(d) : [];
      const text: VisualFeatures['text'] = this.m.ocr ? await texts[i]! : [];
      out.push({
        objects,
        classes: classes[i]?.classes ?? [],
        embedding: classes[i]?.embedding ?? new Float32Array(0),
        colours,
        text,
        faces,
        clip: clips[i] ?? null,
        missing: [...this.missing],
      });
    }
    return out;
  }

  async embed(image: Buffer): Promise<Float32Array> {
    if (!this.m.mobilenet) return new Float32Array(0);
    return (await this.m.mobilenet.embedEncoded(image, DECODE_MAX)) ?? new Float32Array(0);
  }

  async close(): Promise<void> {
    await Promise.all([this.m.yolox?.close(), this.m.mobilenet?.close(), this.m.faces?.close(), this.m.ocr?.close(), this.m.clip?.close()]);
  }
}
