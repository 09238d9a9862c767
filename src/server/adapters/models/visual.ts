import { randomUUID } from 'node:crypto';
import { ClipImageEncoder, clipMissing } from './clip';
import { dominantColours, regionColours } from './colours';
import type { CorruptModelFile } from './fetchModels';
import { decodeRgb, greyThumbnail, type RgbImage } from './image';
import { MobilenetClassifier, type ClassifierResult } from './mobilenet';
import { OcrThread } from './ocrThread';
import { ModelMissingError, type Detection, type VisualAnalyzer, type VisualChain, type VisualFeatures } from './types';
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
): Promise<VisualAnalyzer & { readonly missing: string[]; readonly stats: { analysed: number; reused: number } }> {
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

/** What the models other than OCR saw in a frame (what a near-identical frame reuses). */
type Seen = Pick<VisualFeatures, 'objects' | 'classes' | 'embedding' | 'colours' | 'faces' | 'clip'>;

/** A copy of its own for each frame (callers may change what they get). */
const copySeen = (s: Seen): Seen => ({
  objects: s.objects.map((o) => ({ ...o, box: [...o.box], ...(o.colours && { colours: o.colours.map((c) => ({ ...c })) }) })),
  classes: s.classes.map((c) => ({ ...c })),
  embedding: s.embedding.slice(),
  colours: s.colours.map((c) => ({ ...c })),
  faces: s.faces,
  clip: s.clip?.slice() ?? null,
});

/** A frame's look, small: 64 x 36 grey levels, and its aspect. */
interface Fingerprint {
  grey: Uint8Array;
  width: number;
  height: number;
}

const PRINT_W = 64;
const PRINT_H = 36;
/**
 * Near-identical: same size, grey levels within NEAR_MEAN on average and NEAR_MAX everywhere (at
 * 64 x 36, one cell is 10 x 10 pixels of a 640 px keyframe). A still photo with sensor-like noise
 * (ffmpeg noise=alls=8, x264 CRF 23, then the keyframe JPEG) leaves its keyframes 0.4-0.5 apart on
 * average and 2 at most; a 48 px cup coming in, a 6 px pan or a 3-level fade does not pass
 * (visualReuse.test.ts).
 */
const NEAR_MEAN = 2;
const NEAR_MAX = 16;

async function fingerprint(img: RgbImage): Promise<Fingerprint> {
  return { grey: await greyThumbnail(img, PRINT_W, PRINT_H), width: img.width, height: img.height };
}

export function nearIdentical(a: Fingerprint, b: Fingerprint): boolean {
  if (a.width !== b.width || a.height !== b.height || a.grey.length !== b.grey.length) return false;
  let sum = 0;
  for (let i = 0; i < a.grey.length; i++) {
    const d = Math.abs(a.grey[i]! - b.grey[i]!);
    if (d > NEAR_MAX) return false;
    sum += d;
  }
  return sum / a.grey.length <= NEAR_MEAN;
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

  /** Frames the models ran on, and frames that took a near-identical earlier frame's results (OCR runs on every frame). */
  readonly stats = { analysed: 0, reused: 0 };
  /** The chain of `analyze` (callers that keep their own pass it to analyzeChained). */
  private chain: VisualChain = null;

  async analyze(images: Buffer[]): Promise<VisualFeatures[]> {
    const r = await this.analyzeChained(images, this.chain);
    this.chain = r.chain;
    return r.features;
  }

  async analyzeChained(images: Buffer[], chain: VisualChain): Promise<{ features: VisualFeatures[]; chain: VisualChain }> {
    // The last frame the models ran on: its fingerprint and what they saw.
    let ref: { print: Fingerprint; seen: Seen } | null = chain;
    // The OCR reader follows this chain's frames only: jobs analysing at once do not mix their captions.
    const id = chain?.id ?? randomUUID();
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
    // A new chain (a chunk of the ingest grid starting) follows no caption from before either.
    const texts = this.m.ocr ? good.map((d, i) => this.m.ocr!.read(d, id, i === 0 && chain === null)) : [];
    // Until awaited below, a failed read must not count as unhandled.
    for (const t of texts) t.catch(() => undefined);
    // A frame near-identical to the last one the models ran on (a still shot: a slide, a screen
    // recording, a locked-off camera) takes its results; each is compared with that reference, not
    // its neighbour, so a slow change never drifts past the threshold unseen.
    const prints = await Promise.all(good.map(fingerprint));
    let reference = ref?.print ?? null;
    const fresh = prints.map((p) => {
      if (reference && nearIdentical(p, reference)) return false;
      reference = p;
      return true;
    });
    const run = good.filter((_, i) => fresh[i]);
    // The batch-friendly models run once over the frames that need them.
    const classes: ClassifierResult[] = this.m.mobilenet ? await this.m.mobilenet.classify(run) : [];
    const clips: Float32Array[] = this.m.clip ? await this.m.clip.embed(run) : [];
    const out: VisualFeatures[] = [];
    let g = 0;
    let r = 0;
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
      let seen: Seen;
      if (fresh[i] || !ref) {
        const k = r++;
        const objects: Detection[] = this.m.yolox ? await this.m.yolox.detect(d) : [];
        if (this.capabilities.includes('colours'))
          for (const o of objects.slice(0, REGION_COLOUR_OBJECTS)) o.colours = regionColours(d, o.box);
        seen = {
          objects,
          classes: classes[k]?.classes ?? [],
          embedding: classes[k]?.embedding ?? new Float32Array(0),
          colours: this.capabilities.includes('colours') ? await dominantColours(d) : [],
          faces: this.m.faces ? await this.m.faces.count(d) : 0,
          clip: clips[k] ?? null,
        };
        ref = { print: prints[i]!, seen };
        this.stats.analysed++;
      } else {
        seen = ref.seen;
        this.stats.reused++;
      }
      const text: VisualFeatures['text'] = this.m.ocr ? await texts[i]! : [];
      out.push({ ...copySeen(seen), text, missing: [...this.missing] });
    }
    return { features: out, chain: ref && { id, print: ref.print, seen: ref.seen } };
  }

  async embed(image: Buffer): Promise<Float32Array> {
    if (!this.m.mobilenet) return new Float32Array(0);
    return (await this.m.mobilenet.embedEncoded(image, DECODE_MAX)) ?? new Float32Array(0);
  }

  async close(): Promise<void> {
    await Promise.all([this.m.yolox?.close(), this.m.mobilenet?.close(), this.m.faces?.close(), this.m.ocr?.close(), this.m.clip?.close()]);
  }
}
