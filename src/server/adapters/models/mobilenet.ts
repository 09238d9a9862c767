import fs from 'node:fs';
import path from 'node:path';
import { decodeCentreCrop, l2normalise, resizeCentreCrop, toChwNormalised, type RgbImage } from './image';
import { fixedBatch, openSession, ort, requireFiles, type SessionOptions } from './onnx';
import { ModelRunError, type ClassScore } from './types';

const MOBILENET_FILES = ['mobilenetv2-12-int8-embed.onnx', 'imagenet1k_labels.tsv'] as const;

const IMAGENET_RENAMES: Record<string, string> = { kite: 'kite (bird)' };

const MEAN = [0.485, 0.456, 0.406] as const;
const STD = [0.229, 0.224, 0.225] as const;
const CROP = 224;
/** Inputs per run: big enough to amortise the call, small enough to keep memory flat (~600 KB each). */
const MAX_BATCH = 16;

export interface MobilenetOptions extends SessionOptions {
  /** At most this many classes an image (default 5). */
  topK?: number;
  /** Drop classes below this probability (default 0.05). */
  minScore?: number;
}

export interface ClassifierResult {
  classes: ClassScore[];
  /** 1280 pooled features, L2-normalised. */
  embedding: Float32Array;
}

/**
 * The 1000 classes in output order from `imagenet1k_labels.tsv`: WNID, the label the index shows,
 * and the darknet short name (another name to find the class's WordNet synset by).
 */
export function readImagenetLabels(modelsDir: string): Array<{ wnid: string; label: string; names: string[] }> {
  return fs
    .readFileSync(path.join(modelsDir, 'imagenet1k_labels.tsv'), 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => {
      const [, wnid, simple, short] = l.split('\t');
      // ImageNet's 'kite' is the bird; COCO's (the detector's) is the toy. Named like the TSV's 'crane (bird)'.
      return { wnid, label: IMAGENET_RENAMES[simple] ?? simple, names: short ? [short] : [] };
    });
}

/** MobileNetV2 ImageNet classifier; its pooled features double as the image embedding. */
export class MobilenetClassifier {
  private constructor(
    private readonly session: ort.InferenceSession,
    private readonly labels: Array<{ wnid: string; label: string; names: string[] }>,
    private readonly topK: number,
    private readonly minScore: number,
  ) {}

  /** Loads the model and labels from `modelsDir`; throws ModelMissingError naming absent files. */
  static async open(modelsDir: string, opts: MobilenetOptions = {}): Promise<MobilenetClassifier> {
    requireFiles(modelsDir, 'classes (MobileNetV2)', MOBILENET_FILES);
    const labels = readImagenetLabels(modelsDir);
    const session = await openSession(modelsDir, 'mobilenetv2-12-int8-embed.onnx', 'classes (MobileNetV2)', opts);
    return new MobilenetClassifier(session, labels, opts.topK ?? 5, opts.minScore ?? 0.05);
  }

  /** Classes and embedding for each image, batched. */
  async classify(images: RgbImage[]): Promise<ClassifierResult[]> {
    const results: ClassifierResult[] = [];
    const batch = fixedBatch(this.session) ?? MAX_BATCH;
    for (let s = 0; s < images.length; s += batch) {
      const crops = await Promise.all(images.slice(s, s + batch).map((img) => resizeCentreCrop(img, 256, CROP)));
      results.push(...(await this.run(crops)));
    }
    return results;
  }

  /**
   * The embedding of an encoded photo (a search's query photo), in one image pipeline: what
   * `classify` gives for `decodeRgb(encoded, maxSide)`'s pixels, exactly within `maxSide` and
   * closely above it (see decodeCentreCrop). Null when the bytes are not an image it can decode.
   */
  async embedEncoded(encoded: Buffer, maxSide: number): Promise<Float32Array | null> {
    const crop = await decodeCentreCrop(encoded, maxSide, 256, CROP).catch(() => null);
    return crop && (await this.run([crop]))[0]!.embedding;
  }

  /** One session run over `CROP` x `CROP` RGB crops. */
  private async run(crops: Buffer[]): Promise<ClassifierResult[]> {
    const per = 3 * CROP * CROP;
    const input = new Float32Array(crops.length * per);
    crops.forEach((rgb, i) => toChwNormalised(rgb, CROP, input, i * per, MEAN, STD));
    const out = await this.session.run({ input: new ort.Tensor('float32', input, [crops.length, 3, CROP, CROP]) });
    const logits = out.output.data as Float32Array;
    const emb = out.embedding.data as Float32Array;
    const nClasses = logits.length / crops.length;
    const dim = emb.length / crops.length;
    if (nClasses !== this.labels.length)
      throw new ModelRunError('classes (MobileNetV2)', `${nClasses} classes, labels list ${this.labels.length}`);
    return crops.map((_, i) => {
      const probs = softmax(logits.subarray(i * nClasses, (i + 1) * nClasses));
      const top = [...probs.keys()]
        .sort((a, b) => probs[b] - probs[a])
        .slice(0, this.topK)
        .filter((k) => probs[k] >= this.minScore);
      return {
        classes: top.map((k) => ({ label: this.labels[k].label, wnid: this.labels[k].wnid, score: probs[k] })),
        embedding: l2normalise(emb.slice(i * dim, (i + 1) * dim)),
      };
    });
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}

function softmax(x: Float32Array): Float32Array {
  let max = -Infinity;
  for (const v of x) max = Math.max(max, v);
  const out = new Float32Array(x.length);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += out[i] = Math.exp(x[i] - max);
  for (let i = 0; i < x.length; i++) out[i] /= sum;
  return out;
}
