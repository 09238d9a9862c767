import fs from 'node:fs';
import path from 'node:path';
import { describeMissingFeature } from '../../../contract';
import type { IndexModels } from '../../services/ports';
import { ClipImageEncoder, ClipTextEncoder, clipMissing, NoTextEncoder } from './clip';
import { COLOUR_NAMES, dominantColours, regionColours } from './colours';
import { verifyModelFiles, type CorruptModelFile } from './fetchModels';
import { decodeRgb, type RgbImage } from './image';
import { MobilenetClassifier, readImagenetLabels, type ClassifierResult } from './mobilenet';
import { OcrThread } from './ocrThread';
import { PocketsphinxSpeech, type PocketsphinxOptions } from './pocketsphinx';
import { ModelMissingError, type Detection, type SpeechToText, type TextEncoder, type VisualAnalyzer, type VisualFeatures } from './types';
import { UltrafaceDetector } from './ultraface';
import { WordNet } from './wordnet';
import { YoloxDetector } from './yolox';

export * from './types';
export { cosine } from './image';

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
function corruptReason(corrupt: readonly CorruptModelFile[] | undefined, features: readonly string[]): string | null {
  const bad = (corrupt ?? []).filter((c) => c.features.some((f) => features.includes(f)));
  return bad.length ? bad.map((c) => `${c.path} is corrupt (${c.reason})`).join(', ') : null;
}

const reason = (err: unknown) =>
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
      if (this.capabilities.includes('colours')) for (const o of objects.slice(0, REGION_COLOUR_OBJECTS)) o.colours = regionColours(d, o.box);
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
    const img = await decodeRgb(image, DECODE_MAX).catch(() => null);
    if (!img) return new Float32Array(0);
    return (await this.m.mobilenet.classify([img]))[0]?.embedding ?? new Float32Array(0);
  }

  async close(): Promise<void> {
    await Promise.all([this.m.yolox?.close(), this.m.mobilenet?.close(), this.m.faces?.close(), this.m.ocr?.close(), this.m.clip?.close()]);
  }
}

/** CLIP's text tower when `modelsDir` holds the pair and tokenizer; otherwise an encoder whose `available` is false and `reason` names the files. */
export async function createTextEncoder(modelsDir: string): Promise<TextEncoder & { reason?: string }> {
  const why = clipMissing(modelsDir);
  if (why) return new NoTextEncoder(why);
  return ClipTextEncoder.open(modelsDir);
}

/** The default speech engine (Debian's pocketsphinx); throws ModelMissingError naming the packages when absent. */
export function createSpeechToText(opts: PocketsphinxOptions = {}): SpeechToText {
  return new PocketsphinxSpeech(opts);
}

/** WordNet with ImageNet's classes registered (from `imagenet1k_labels.tsv` when present). */
export function createWordNet(modelsDir: string): WordNet {
  const wn = new WordNet();
  if (fs.existsSync(path.join(modelsDir, 'imagenet1k_labels.tsv'))) wn.registerImagenet(readImagenetLabels(modelsDir));
  const coco = path.join(modelsDir, 'coco80_labels.txt');
  if (fs.existsSync(coco))
    wn.registerDetectorLabels(
      fs
        .readFileSync(coco, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    );
  return wn;
}

/** Anything with pino's (obj, msg) calls; the server passes its logger. */
export interface ModelLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Everything ingest and search need from the models, opened from `modelsDir`. What could not be
 * opened is listed by name in `missing` (and logged), never replaced by something else.
 */
export async function createIndexModels(
  modelsDir: string,
  log?: ModelLog,
): Promise<IndexModels & { capabilities: string[]; close(): Promise<void> }> {
  const missing: string[] = [];
  const corrupt = await verifyModelFiles(modelsDir);
  for (const c of corrupt)
    log?.warn({ file: c.path, modelsDir }, `model file ${c.path} is corrupt (${c.reason}): ${c.features.join(', ')} off`);
  // One thread per session: ingest runs speech beside the picture models, and on 2 cores ONNX
  // Runtime's own thread pool only spins against it (measured 38 vs 50 ms a keyframe, idle machine).
  // Faces are not run: nothing stores or searches a face count yet, and UltraFace cost 8-13 ms of
  // CPU a keyframe (tests/bench/ingest.bench.ts).
  const visual = await createVisualAnalyzer(modelsDir, { threads: 1, corrupt, skip: ['faces'] });
  missing.push(...visual.missing);
  const useVisual = visual.capabilities.includes('objects') || visual.capabilities.includes('classes');
  if (!useVisual) await visual.close();

  let speech: SpeechToText | null = null;
  try {
    speech = createSpeechToText();
  } catch (err) {
    missing.push(`speech: ${reason(err)}`);
  }

  const clipCorrupt = corruptReason(corrupt, ['clip']);
  const encoder = clipCorrupt ? new NoTextEncoder(`clip: ${clipCorrupt}`) : await createTextEncoder(modelsDir);
  if (!encoder.available && encoder.reason && !missing.includes(encoder.reason)) missing.push(encoder.reason);

  let wn: WordNet | null = null;
  try {
    wn = createWordNet(modelsDir);
    wn.expandLabel('dog'); // loads the files now, so a missing one shows at boot rather than mid-ingest
    wn.conceptTargets('dog'); // and the label vocabulary and sense counts queries are mapped with
  } catch (err) {
    missing.push(`labels: ${reason(err)}`);
    wn = null;
  }

  const capabilities = [
    ...(useVisual ? visual.capabilities : []),
    ...(speech ? ['speech'] : []),
    ...(encoder.available ? ['clip-text'] : []),
    ...(wn ? ['wordnet'] : []),
  ];
  // An add-on that is not installed (CLIP) is normal; anything else missing is worth a warning.
  const faults = missing.filter((m) => !describeMissingFeature(m).optional);
  if (faults.length) log?.warn({ modelsDir, missing: faults }, 'some indexer models are missing: those features are not computed');
  if (faults.length < missing.length) log?.info({ missing: missing.filter((m) => !faults.includes(m)) }, 'optional models not installed');
  log?.info({ modelsDir, capabilities }, 'indexer models loaded');
  return {
    visual: useVisual ? visual : null,
    speech,
    textEncoder: encoder.available ? encoder : null,
    expandLabel: (label) => (wn ? wn.expandLabel(label) : [label.toLowerCase()]),
    normaliseQueryTerm: (word) => (wn ? wn.normaliseQueryTerm(word) : [word.toLowerCase()]),
    nounLemma: (phrase) => (wn ? wn.nounLemma(phrase) : null),
    isAdjective: (word) => (wn ? wn.isAdjective(word) : false),
    conceptTargets: (lemma) => (wn ? wn.conceptTargets(lemma) : [{ label: lemma.toLowerCase(), weight: 1, relation: 'same' as const }]),
    colourNames: COLOUR_NAMES,
    missing,
    capabilities,
    async close() {
      await Promise.all([useVisual ? visual.close() : undefined, encoder.close()]);
    },
  };
}
