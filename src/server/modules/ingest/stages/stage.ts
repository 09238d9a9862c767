import type { BlobStore } from '../../../adapters/blobs/blobStore';
import type { StoredProbe } from '../../../adapters/media/ffprobe';
import type { MediaRepository, MediaRow } from '../../libraries/media.repository';
import type { IndexModels, IngestBilling, IngestTools } from '../../ports';
import type { IndexRepository } from '../index.repository';

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
