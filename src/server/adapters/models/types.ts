/** One object found by the detector. */
export interface Detection {
  label: string;
  score: number;
  /** x1, y1, x2, y2 as fractions (0..1) of the original image. */
  box: [number, number, number, number];
  /** The colours of the object itself (the centre of its box), largest share first; absent in indexes made before. */
  colours?: Array<{ name: string; fraction: number }>;
}

/** One ImageNet class with its WordNet id (a WordNet 3.0 noun offset, as ImageNet spells it). */
export interface ClassScore {
  label: string;
  wnid: string;
  score: number;
}

/** Everything "seen" in one keyframe. */
export interface VisualFeatures {
  objects: Detection[];
  classes: ClassScore[];
  /** The classifier's pooled features: 1280 values, L2-normalised (empty when the classifier is missing). */
  embedding: Float32Array;
  /** Dominant colours in plain words, largest share first; fractions sum to at most 1. */
  colours: Array<{ name: string; fraction: number }>;
  /**
   * On-screen words that passed the confidence and junk filters, as read (confidence 0..100).
   * `parts`: the words a run-together one is made of ("PLATFORMNINE" -> platform, nine), lower-case.
   */
  text: Array<{ word: string; confidence: number; parts?: string[] }>;
  /** Number of faces (0 when the face model is missing; see `missing`). */
  faces: number;
  /** CLIP image embedding (512, L2-normalised), or null when CLIP is not installed. */
  clip: Float32Array | null;
  /** Features not computed for this frame and why, e.g. 'clip: textual_quant.onnx not in MODELS_DIR'. */
  missing: string[];
}

/**
 * A chain of keyframes that reuse a near-identical earlier frame's results (visual.ts): the last
 * frame the models ran on, its small grey fingerprint and what they saw; null starts a chain. Plain
 * data, so it crosses to the models' thread and back, and each caller keeps its own: ingest starts
 * one at every chunk of the grid, so a chunk's results do not depend on the chunk before.
 */
export type VisualChain = {
  /** Names the chain's frames to the OCR reader, which follows captions along it (OcrReader.read). */
  id: string;
  print: { grey: Uint8Array; width: number; height: number };
  seen: Omit<VisualFeatures, 'text' | 'missing'>;
} | null;

/** Runs the "what is seen" models over keyframes. */
export interface VisualAnalyzer {
  /** Feature names this analyzer computes: objects, classes, embedding, colours, text, faces, clip. */
  readonly capabilities: string[];
  /** Features for each encoded (JPEG/PNG/WebP) image, in the same order, continuing this analyzer's own chain. */
  analyze(images: Buffer[]): Promise<VisualFeatures[]>;
  /** Features for each image, in order, continuing `chain` (null: a new one); and the chain after them. */
  analyzeChained(images: Buffer[], chain: VisualChain): Promise<{ features: VisualFeatures[]; chain: VisualChain }>;
  /** Only the image embedding of one encoded image (a search query): empty when it cannot be computed. */
  embed(image: Buffer): Promise<Float32Array>;
  /** Releases the model sessions. */
  close(): Promise<void>;
}

/** CLIP's text tower: a query in words to the space of `VisualFeatures.clip`. */
export interface TextEncoder {
  readonly available: boolean;
  /** 512 values, L2-normalised; null when CLIP is absent. */
  embed(text: string): Promise<Float32Array | null>;
  close(): Promise<void>;
}

/** A stretch of speech with its words. Times in seconds from the start of the audio. */
export interface Segment {
  start: number;
  end: number;
  text: string;
  words: Array<{ word: string; start: number; end: number }>;
}

/**
 * Samples [offset, offset + samples.length) of 16 kHz mono audio `total` samples long: what a
 * chunk of a long media's speech reads of its audio (pocketsphinx.ts chunkSamples).
 */
export interface AudioWindow {
  samples: Int16Array;
  rate: number;
  offset: number;
  total: number;
}

/** Speech to text with word timestamps. */
export interface SpeechToText {
  readonly name: string;
  /** Segments of a 16 kHz mono WAV file, in time order. */
  transcribe(wavPath16kMono: string, opts?: { onProgress?(fraction: number): void }): Promise<Segment[]>;
  /**
   * The words of the whole file or of one chunk of the ingest grid (seconds): the words of all
   * chunks, in order, are the whole file's; `group` then makes the same segments as `transcribe`.
   * A chunk may be given only the window of audio it reads (chunkSamples).
   */
  words(
    audio: string | AudioWindow,
    opts?: { onProgress?(fraction: number): void; chunk?: { from: number; to: number } },
  ): Promise<Array<{ word: string; start: number; end: number }>>;
  group(words: Array<{ word: string; start: number; end: number }>): Segment[];
  /** Seconds decoded as one piece: a chunk of the ingest grid must be a multiple. */
  readonly pieceSeconds: number;
}

/** A model file or tool that is not there; `files` names each missing one, `where` the place looked in. */
export class ModelMissingError extends Error {
  readonly code = 'model_missing';
  constructor(
    readonly model: string,
    readonly files: string[],
    readonly where: string,
    dir?: string,
  ) {
    super(`${model}: ${files.join(', ')} not in ${where}${dir ? ` (${dir})` : ''}`);
    this.name = 'ModelMissingError';
  }
}

/** A model ran but gave something we cannot use (wrong shape, tool crashed). */
export class ModelRunError extends Error {
  readonly code = 'model_failed';
  constructor(
    readonly model: string,
    message: string,
  ) {
    super(`${model}: ${message}`);
    this.name = 'ModelRunError';
  }
}
