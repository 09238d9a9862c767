import type { extractAudio, extractKeyframes, makeHls, thumbnailStrip, thumbnailTrack, videoOrigin } from '../adapters/media/ffmpeg';
import type { VisualChain } from '../adapters/models/types';
import type { probe, stillWebp } from '../adapters/media/ffprobe';
import type { RelatedWord } from '../adapters/models/wordnetLexicon';

export type { RelatedWord, WordRelation } from '../adapters/models/wordnetLexicon';

/** Words related in meaning (WordNet, every part of speech), for transcript search's query expansion. */
export interface RelatedWordsPort {
  /** Words related to a word or collocation, its most used senses first (see WordNetLexicon.related). */
  related(phrase: string): RelatedWord[];
  /** Whether a run of words is one lemma ('ice cream'). */
  isCollocation(phrase: string): boolean;
}

/** What services need from the job queue, without knowing pg-boss. */
export interface JobQueue {
  send(name: string, data: object, opts?: { singletonKey?: string }): Promise<void>;
}

/** The storage allowance of a user in hours of media (billing provides the real one). */
export interface StorageQuota {
  limitHours(userId: string): Promise<number>;
}

/** What ingest needs from the model adapters (src/server/adapters/models implements it). */
export interface IndexModels {
  /** Per-keyframe visual features, or null when the models are missing (reported in `missing`). */
  visual: {
    /** Features of each image, in order, continuing a near-duplicate chain (null starts one: see VisualChain); and the chain after them. */
    analyzeChained(
      images: Buffer[],
      chain: VisualChain,
    ): Promise<{
      features: Array<{
        objects: Array<{ label: string; score: number; box: [number, number, number, number] }>;
        classes: Array<{ label: string; wnid: string; score: number }>;
        embedding: Float32Array;
        colours: Array<{ name: string; fraction: number }>;
        /** On-screen words; `parts`: the words a run-together one is made of ("PLATFORMNINE" -> platform, nine). */
        text: Array<{ word: string; confidence: number; parts?: string[] }>;
        clip: Float32Array | null;
        missing: string[];
      }>;
      chain: VisualChain;
    }>;
    /** Only the image embedding of one encoded image (a search query); empty when unreadable. */
    embed(image: Buffer): Promise<Float32Array>;
  } | null;
  speech: {
    /** The words of a 16 kHz mono WAV, or of the pieces one chunk of the ingest grid owns (seconds); see SpeechToText.words. */
    words(
      audio: string | { samples: Int16Array; rate: number; offset: number; total: number },
      opts?: { onProgress?(f: number): void; chunk?: { from: number; to: number } },
    ): Promise<Array<{ word: string; start: number; end: number }>>;
    /** The whole file's words, in order, into segments. */
    group(
      words: Array<{ word: string; start: number; end: number }>,
    ): Array<{ start: number; end: number; text: string; words: Array<{ word: string; start: number; end: number }> }>;
    /** Seconds decoded as one piece (the grid is a multiple). */
    readonly pieceSeconds: number;
  } | null;
  /** A label and the words it should be found by (synonyms, hypernyms). */
  expandLabel(label: string): string[];
  /** A query word's base forms and synonyms ('horses' -> horse). */
  normaliseQueryTerm(word: string): string[];
  /** The WordNet noun lemma of a word or collocation ('sea lions' -> sea lion), or null. */
  nounLemma(phrase: string): string | null;
  /** Whether WordNet has the word as an adjective. */
  isAdjective(word: string): boolean;
  /** The index labels (lower case) a query noun stands for, with weights in (0, 1], best first. */
  conceptTargets(lemma: string): Array<{ label: string; weight: number; relation: 'same' | 'hyponym' | 'hypernym' | 'sibling' | 'gloss' }>;
  /** Words related in meaning for transcript search (issue 40), or null without WordNet. */
  relatedWords: RelatedWordsPort | null;
  /** The colour names frames carry (what a colour word in a query can match). */
  colourNames: readonly string[];
  /** CLIP text tower, when the CLIP pair is installed. */
  textEncoder: { embed(text: string): Promise<Float32Array | null> } | null;
  /** Models that could not be loaded, by name. */
  missing: string[];
}

/** Credits for ingest. */
export interface IngestBilling {
  balance(userId: string): Promise<number>;
  charge(userId: string, amount: number, key: string, reason: string): Promise<void>;
}

/** The media tools ingest runs (ffmpeg and ffprobe in adapters/media), injected so the service runs without them in tests. */
export interface IngestTools {
  probe: typeof probe;
  makeHls: typeof makeHls;
  thumbnailStrip: typeof thumbnailStrip;
  /** A track alone, for media indexed before tracks existed (ingest makes it with the strip). */
  thumbnailTrack: typeof thumbnailTrack;
  stillWebp: typeof stillWebp;
  extractKeyframes: typeof extractKeyframes;
  videoOrigin: typeof videoOrigin;
  extractAudio: typeof extractAudio;
}
