import { l2normalise, resizeCentreCrop, toChwNormalised, type RgbImage } from './image';
import { ClipTokenizer } from './clipTokenizer';
import { fixedBatch, missingFiles, openSession, ort, type SessionOptions } from './onnx';
import { ModelRunError, type TextEncoder } from './types';

export const CLIP_TEXTUAL = 'textual_quant.onnx';
export const CLIP_VISUAL = 'visual_quant.onnx';

const MEAN = [0.48145466, 0.4578275, 0.40821073] as const;
const STD = [0.26862954, 0.26130258, 0.27577711] as const;
const SIZE = 224;
const MAX_BATCH = 16;

/** Why CLIP is off, naming each absent file, or null when the pair and tokenizer are all present. */
export function clipMissing(modelsDir: string): string | null {
  const absent = missingFiles(modelsDir, [CLIP_TEXTUAL, CLIP_VISUAL, 'clip-tokenizer/vocab.json', 'clip-tokenizer/merges.txt']);
  return absent.length ? `clip: ${absent.join(', ')} not in MODELS_DIR` : null;
}

/**
 * The embedding output of a CLIP tower. Exports name it differently (`image_embeds`/`text_embeds`
 * from Hugging Face Optimum, `embeds` from Olive, unnamed `output` from others) and often list
 * `last_hidden_state` first, so: a name with "embed", else the only rank-2 output, else the first.
 */
export function embeddingOutput(session: ort.InferenceSession): string {
  const byName = session.outputNames.find((n) => /embed/i.test(n) && !/hidden/i.test(n));
  if (byName) return byName;
  const rank2 = session.outputMetadata.filter((m) => 'shape' in m && m.shape.length === 2);
  return rank2.length === 1 ? rank2[0].name : session.outputNames[0];
}

/** CLIP's image tower: keyframes to the space text queries are embedded in. */
export class ClipImageEncoder {
  private constructor(
    private readonly session: ort.InferenceSession,
    private readonly output: string,
  ) {}

  /** Opens `visual_quant.onnx` from `modelsDir`; throws ModelMissingError naming it when absent. */
  static async open(modelsDir: string, opts: SessionOptions = {}): Promise<ClipImageEncoder> {
    const session = await openSession(modelsDir, CLIP_VISUAL, 'clip', opts);
    return new ClipImageEncoder(session, embeddingOutput(session));
  }

  /** One L2-normalised embedding per image; batched when the model's batch dimension is free. */
  async embed(images: RgbImage[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    const batch = fixedBatch(this.session) ?? MAX_BATCH;
    const input = this.session.inputNames[0];
    for (let s = 0; s < images.length; s += batch) {
      const chunk = images.slice(s, s + batch);
      const crops = await Promise.all(chunk.map((img) => resizeCentreCrop(img, SIZE, SIZE)));
      const per = 3 * SIZE * SIZE;
      const data = new Float32Array(chunk.length * per);
      crops.forEach((rgb, i) => toChwNormalised(rgb, SIZE, data, i * per, MEAN, STD));
      const res = await this.session.run({ [input]: new ort.Tensor('float32', data, [chunk.length, 3, SIZE, SIZE]) });
      const emb = res[this.output];
      if (emb.dims.length !== 2 || Number(emb.dims[0]) !== chunk.length) {
        throw new ModelRunError(
          'clip',
          `${CLIP_VISUAL} output ${this.output} has shape [${emb.dims.join(',')}], expected [${chunk.length},D]`,
        );
      }
      const dim = Number(emb.dims[1]);
      const values = emb.data as Float32Array;
      for (let i = 0; i < chunk.length; i++) out.push(l2normalise(values.slice(i * dim, (i + 1) * dim)));
    }
    return out;
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}

/** CLIP's text tower with its tokenizer. */
export class ClipTextEncoder implements TextEncoder {
  readonly available = true;

  private constructor(
    private readonly session: ort.InferenceSession,
    private readonly tokenizer: ClipTokenizer,
    private readonly output: string,
  ) {}

  /** Opens `textual_quant.onnx` and the tokenizer from `modelsDir`; throws ModelMissingError naming absent files. */
  static async open(modelsDir: string, opts: SessionOptions = {}): Promise<ClipTextEncoder> {
    const tokenizer = ClipTokenizer.load(modelsDir);
    const session = await openSession(modelsDir, CLIP_TEXTUAL, 'clip', opts);
    return new ClipTextEncoder(session, tokenizer, embeddingOutput(session));
  }

  /** 512 values (the model's width), L2-normalised. */
  async embed(text: string): Promise<Float32Array> {
    const { ids, mask } = this.tokenizer.encode(text);
    const feeds: Record<string, ort.Tensor> = {};
    for (const meta of this.session.inputMetadata) {
      const source = /mask/i.test(meta.name) ? mask : ids;
      // The documented pair takes int32; some exports take int64.
      const int64 = 'type' in meta && meta.type === 'int64';
      feeds[meta.name] = int64
        ? new ort.Tensor('int64', BigInt64Array.from(source, BigInt), [1, source.length])
        : new ort.Tensor('int32', source, [1, source.length]);
    }
    const res = await this.session.run(feeds);
    const emb = res[this.output];
    if (emb.dims.length !== 2 || Number(emb.dims[0]) !== 1) {
      throw new ModelRunError('clip', `${CLIP_TEXTUAL} output ${this.output} has shape [${emb.dims.join(',')}], expected [1,D]`);
    }
    return l2normalise(Float32Array.from(emb.data as Float32Array));
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}

/** The text encoder when CLIP is absent: says so instead of guessing. */
export class NoTextEncoder implements TextEncoder {
  readonly available = false;
  constructor(readonly reason: string) {}
  async embed(): Promise<null> {
    return null;
  }
  async close(): Promise<void> {}
}
