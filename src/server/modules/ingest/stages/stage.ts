import type { BlobStore } from '../../../adapters/blobs/blobStore';
import type { StoredProbe } from '../../../adapters/media/ffprobe';
import type { MediaRepository, MediaRow } from '../../libraries/media.repository';
import type { IndexModels, IngestBilling, IngestTools } from '../../ports';
import type { IndexRepository } from '../index.repository';
import type { ChunkRange, Chunking } from '../chunks';
import type { IngestState } from '../../../db/schema';

/** What the stages use: the service's ports, and its cache of expanded labels. */
export interface StageDeps {
  media: MediaRepository;
  index: IndexRepository;
  blobs: BlobStore;
  models: IndexModels;
  tools: IngestTools;
  billing: IngestBilling;
  /** Fetches a media imported from a link and stores it as its original (the `download` stage). */
  download?: (media: MediaRow, work: string, onProgress: (f: number) => void) => Promise<MediaRow>;
  /**
   * Stage starts and ends (after a crash they show where a media's ingest resumed), and what a stage
   * went on without (a thumbnail track it could not make).
   */
  log?: { info(o: object, msg: string): void; warn(o: object, msg: string): void };
  /** The words a visual label stands for (WordNet synonyms and hypernyms), cached across media. */
  expand: (label: string) => Set<string>;
  /** The time grid every chain restarts at, and the length beyond which a media is chunked (chunks.ts). */
  chunking: Chunking;
}

/** One run of one stage for one media (IngestService.runStage builds it, and removes `work` afterwards). */
export interface StageContext {
  media: MediaRow;
  /** A folder of this run's own for the files it makes. */
  work: string;
  /** The original as ffmpeg and ffprobe read it (a path or a signed URL); '' for `download`, before there is one. */
  input: string;
  /** How far the stage got, 0..1 (written at most every 500 ms). */
  onProgress: (f: number) => void;
  deps: StageDeps;
}

/**
 * One ingest stage. Idempotent: a crash mid-stage runs it again from the start, so it writes whole
 * blobs and replaces its rows. Returns the media row when the stage changed it; a throw fails the
 * media's ingest with the stage named (IngestService.fail).
 */
export type StageHandler = (ctx: StageContext) => Promise<MediaRow | void>;

/** The media's probe, which every stage after `probe` reads (that stage always runs first). */
export function probeOf(media: MediaRow): StoredProbe {
  if (!media.probe) throw new Error('the media has not been probed');
  return media.probe;
}

/**
 * A stage that runs in chunks of time for a long media (chunks.ts): the stage's job prepares what
 * the chunks share and queues one job per chunk; each chunk records its result; when all are done
 * the stage's job runs again and merges them. Each part is idempotent, like a whole stage.
 */
export interface ChunkedStage<R = unknown> {
  /** Whether this media's stage has work to split (no sound or no models: the stage runs whole, and does next to nothing). */
  applies(media: MediaRow, deps: StageDeps): boolean;
  /** Makes what the chunks share (idempotent); false when there turns out to be nothing to do. */
  prepare(ctx: StageContext): Promise<boolean>;
  /** One chunk: its blobs written; its result (stored as JSON) returned. */
  chunk(ctx: StageContext & { range: ChunkRange; state: IngestState }): Promise<R>;
  /** Every chunk's result, in order, into the index (idempotent). */
  merge(ctx: StageContext & { state: IngestState }, results: R[]): Promise<void>;
}
