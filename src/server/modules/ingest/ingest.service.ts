import fs from 'node:fs';
import path from 'node:path';
import pLimit from 'p-limit';
import { NotMediaError } from '../../adapters/media/ffprobe';
import { cachedExpander } from '../search/visualTerms';
import type { MediaRow } from '../libraries/media.repository';
import { InsufficientCreditsError } from '../billing/ledger.service';
import type { JobQueue } from '../ports';
import { holdAt } from '../../testHold';
import { putFile } from '../../adapters/blobs/blobStore';
import { blobKeys, parseDerivedKey } from '../storage/blobKeys';
import { ChunkRunner } from './chunkRunner';
import { isChunkStage, type ChunkStage } from './chunks';
import { STAGE_HANDLERS } from './stages';
import { indexShotTerms } from './stages/descriptions';
import type { StageDeps } from './stages/stage';

/** The ingest stages, in order; each is its own job, idempotent and recorded when done, so a retry resumes. */
export const STAGES = ['download', 'probe', 'preview', 'thumbnails', 'keyframes', 'visual', 'speech', 'descriptions', 'complete'] as const;
export type Stage = (typeof STAGES)[number];

/**
 * The stages each stage waits for. After the probe two lanes run beside each other, one per core:
 * the picture (preview, thumbnails, keyframes, what is seen) and what is said; shot descriptions
 * need both. `download` runs only for media imported from a link; for the others it counts as done.
 */
export const STAGE_AFTER: Record<Stage, readonly Stage[]> = {
  download: [],
  probe: ['download'],
  preview: ['probe'],
  thumbnails: ['preview'],
  keyframes: ['thumbnails'],
  visual: ['keyframes'],
  speech: ['probe'],
  descriptions: ['visual', 'speech'],
  complete: ['descriptions'],
};

/** The job that runs one stage of a media (ingest.job.ts registers one per stage). */
export const stageJob = (stage: Stage) => `ingest.${stage}`;

/** Stages that keep a core busy (ffmpeg, the models, pocketsphinx): at most `heavyAtOnce` of them run at once in a process. */
export const HEAVY_STAGES: ReadonlySet<Stage> = new Set(['preview', 'thumbnails', 'keyframes', 'visual', 'speech']);

/** Relative cost of each stage, for one progress figure (0..1) across them. */
const WEIGHT: Record<Stage, number> = {
  download: 10,
  probe: 1,
  preview: 10,
  thumbnails: 4,
  keyframes: 15,
  visual: 40,
  speech: 25,
  descriptions: 1,
  complete: 1,
};
const TOTAL = Object.values(WEIGHT).reduce((a, b) => a + b, 0);

/** Media given a thumbnail track by one run of the backfill job. */
export const TRACK_BACKFILL_BATCH = 5;

export interface IngestDeps extends Omit<StageDeps, 'expand'> {
  /** Where the next stages are queued. */
  queue: JobQueue;
  workDir: string;
  /** Heavy stages (HEAVY_STAGES) running at once in this process (default 2: one per core on the target machine). */
  heavyAtOnce?: number;
}

/**
 * Turns an uploaded file into a searchable media: probe, HLS preview, thumbnails, shots and
 * keyframes, what is seen, what is said, shot descriptions, then the credit charge (each stage one
 * file in stages/). `start` is the media's ingest job; each stage then runs as its own job
 * (`runStage`), and queues the stages it unblocks when it is done, so a crash mid-stage resumes that
 * stage only.
 */
export class IngestService {
  private readonly heavy: ReturnType<typeof pLimit>;
  /** What the stages are given: the ports, and one cache of expanded labels for every media. */
  private readonly stageDeps: StageDeps;
  /** The stages a long media runs in chunks of time (chunkRunner.ts). */
  private readonly chunks: ChunkRunner;

  constructor(private readonly d: IngestDeps) {
    this.heavy = pLimit(Math.max(1, d.heavyAtOnce ?? 2));
    this.stageDeps = {
      media: d.media,
      index: d.index,
      blobs: d.blobs,
      models: d.models,
      tools: d.tools,
      billing: d.billing,
      download: d.download,
      log: d.log,
      expand: cachedExpander((l) => d.models.expandLabel(l)),
      chunking: d.chunking,
    };
    const pieces = d.models.speech?.pieceSeconds;
    if (pieces && d.chunking.seconds % pieces)
      throw new Error(`INGEST_CHUNK_SECONDS (${d.chunking.seconds}) must be a multiple of the speech pieces' ${pieces} s`);
    this.chunks = new ChunkRunner({
      deps: this.stageDeps,
      queue: d.queue,
      workDir: d.workDir,
      heavy: this.heavy,
      progress: (media, stage, done) => this.progressOf(media, stage, done),
      fail: (mediaId, stage, err) => this.fail(mediaId, stage, err),
      queueStage: (stage, mediaId) => this.d.queue.send(stageJob(stage), { mediaId }, { singletonKey: mediaId }),
    });
  }

  /** One chunk's job of a long media's stage (see ChunkRunner.runChunk). */
  runChunk(mediaId: string, stage: ChunkStage, index: number): Promise<void> {
    return this.chunks.runChunk(mediaId, stage, index);
  }

  /** Media indexed before the shot index existed get their rows (run once at start; idempotent). */
  async backfillShotTerms(): Promise<number> {
    const pending = await this.d.index.mediaWithoutShotTerms();
    for (const m of pending) await indexShotTerms(this.stageDeps, m.id, m.library_id);
    return pending.length;
  }

  /**
   * Transcript segments indexed without their spoken forms (before migration 0012), or under older
   * rules, get them (run once at start; idempotent). Until then they are found by their text.
   */
  async backfillSpokenForms(): Promise<number> {
    let total = 0;
    for (let n = await this.d.index.renormaliseSpoken(); n > 0; n = await this.d.index.renormaliseSpoken()) total += n;
    return total;
  }

  /**
   * Videos indexed before thumbnail tracks existed get one, `limit` at a time (a cron job), each as
   * a heavy stage would run. One that cannot be made is marked and not tried again; its timeline
   * decodes the original as before. Returns how many were tried.
   */
  async backfillThumbnailTracks(limit = TRACK_BACKFILL_BATCH): Promise<number> {
    const pending = await this.d.index.videosWithoutTrack(limit);
    for (const m of pending) await this.heavy(() => this.makeTrack(m));
    return pending.length;
  }

  private async makeTrack(m: { id: string; blob_key: string; duration: number | null }) {
    const work = path.join(this.d.workDir, `${m.id}-track`);
    fs.mkdirSync(work, { recursive: true });
    try {
      const file = path.join(work, 'thumbnails.mp4');
      const track = await this.d.tools.thumbnailTrack(await this.d.blobs.toolInput(m.blob_key), file, {
        duration: Math.max(m.duration ?? 0, 0.04),
      });
      await putFile(this.d.blobs, blobKeys.thumbnailTrack(m.id), file, 'video/mp4');
      await this.d.index.patchState(m.id, { track });
      this.d.log?.info({ mediaId: m.id, pictures: track.count }, 'thumbnail track made for a media indexed before tracks');
    } catch (err) {
      this.d.log?.warn({ mediaId: m.id, err: (err as Error).message }, 'no thumbnail track: the timeline decodes the original');
      await this.d.index.patchState(m.id, { trackFailed: true });
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }

  /**
   * The media's ingest job (queued by an upload, a link import or a retry): the media goes to
   * processing and the stages that can run are queued. Shared samples take a twin's index instead.
   */
  async start(mediaId: string): Promise<void> {
    const media = await this.d.media.transition(mediaId, ['queued', 'processing'], { status: 'processing', error_message: null });
    if (!media) return; // deleted, cancelled or already done
    const { done } = await this.d.index.state(mediaId);
    if (done.length) this.d.log?.info({ mediaId, done }, 'ingest resumed');
    if (media.blob_shared && (await this.reuseTwin(media))) return;
    await this.advance(media, new Set(done));
  }

  /**
   * Queues the stages not done whose predecessors are: all of them when a media (re)starts, or only
   * those that follow `after` when that stage is done (the other lane's next stage is its own to queue).
   */
  private async advance(media: MediaRow, done: ReadonlySet<string>, after?: Stage) {
    const external = media.origin.source === 'external';
    const isDone = (s: Stage) => done.has(s) || (s === 'download' && !external);
    for (const stage of STAGES)
      if (!isDone(stage) && (!after || STAGE_AFTER[stage].includes(after)) && STAGE_AFTER[stage].every(isDone))
        await this.d.queue.send(stageJob(stage), { mediaId: media.id }, { singletonKey: media.id });
  }

  /**
   * One stage's job: runs `stage` of a media still processing, records it done with its time, and
   * queues the stages it unblocks. A failure ends the media's ingest with the stage named; a crash
   * leaves the job to be retried, which runs this stage again (each stage is idempotent).
   */
  async runStage(stage: Stage, mediaId: string, opts: { retry?: boolean } = {}): Promise<void> {
    let media = await this.d.media.byId(mediaId);
    if (!media || media.status !== 'processing') return; // deleted, failed in the other lane, or done
    const { done } = await this.d.index.state(mediaId);
    if (opts.retry) this.d.log?.info({ mediaId, stage, done }, 'ingest resumed');
    if (!done.includes(stage)) {
      const run = () => this.runOnce(stage, media!);
      const next = HEAVY_STAGES.has(stage) ? await this.heavy(run) : await run();
      if (!next) return;
      media = next;
    }
    // The other lane may have finished meanwhile: read what is done now. (Also when this job found
    // its stage done: a crash may have come between recording it and queueing what follows.)
    await this.advance(media, new Set((await this.d.index.state(mediaId)).done), stage);
  }

  /**
   * Writes the media's progress with `stage` a fraction `f` (0..1) of the way through: finished
   * stages count whole. Two lanes (and a long media's chunks) write it, so it only rises.
   */
  private progressOf(media: MediaRow, stage: Stage, done: readonly string[]) {
    const base = STAGES.reduce(
      (sum, s) => sum + (done.includes(s) || (s === 'download' && media.origin.source !== 'external') ? WEIGHT[s] : 0),
      0,
    );
    let lastWrite = 0;
    return async (f: number, force = false) => {
      if (!force && Date.now() - lastWrite < 500) return;
      lastWrite = Date.now();
      await this.d.media.raiseProgress(media.id, Math.min(0.99, (base + WEIGHT[stage] * f) / TOTAL));
    };
  }

  /**
   * Runs one stage and records it; null when the stage failed (the media then carries the reason),
   * or when a long media's stage went out in chunks (the last chunk queues this stage's job again).
   */
  private async runOnce(stage: Stage, media: MediaRow): Promise<MediaRow | null> {
    const mediaId = media.id;
    const { done } = await this.d.index.state(mediaId);
    const progress = this.progressOf(media, stage, done);
    await progress(0, true);
    this.d.log?.info({ mediaId, stage }, 'ingest stage started');
    await holdAt(`ingest:${stage}`, media.filename, { mediaId });
    const work = path.join(this.d.workDir, `${mediaId}-${stage}`);
    fs.mkdirSync(work, { recursive: true });
    const t0 = performance.now();
    let next: MediaRow;
    let workMs = 0;
    try {
      // Before the download there is no original to read yet.
      const input = stage === 'download' ? '' : await this.d.blobs.toolInput(media.blob_key);
      const onProgress = (f: number) => void progress(f).catch(() => undefined);
      const ctx = { media, work, input, onProgress, deps: this.stageDeps };
      const plan = isChunkStage(stage) ? await this.chunks.plan(media, stage) : null;
      if (plan) {
        const chunksMs = await this.chunks.runStage(stage as ChunkStage, media, plan, ctx);
        if (chunksMs === null) return null;
        workMs = chunksMs;
        next = media;
      } else next = (await STAGE_HANDLERS[stage](ctx)) ?? media;
    } catch (err) {
      await this.fail(mediaId, stage, err as Error);
      return null;
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
    // A chunked stage's time is its chunks' runs (on whichever workers) and the merge.
    const ms = Math.round(performance.now() - t0 + workMs);
    await this.d.index.markDone(mediaId, stage, ms);
    this.d.log?.info({ mediaId, stage, ms }, 'ingest stage done');
    return next;
  }

  /** Ends a media's ingest after a failed stage, with a reason the user can act on. */
  private async fail(mediaId: string, stage: Stage, err: Error) {
    if (err instanceof NotMediaError) {
      await this.d.media.transition(mediaId, ['processing'], { status: 'invalid', error_message: err.message, progress: 0 });
    } else if (err instanceof InsufficientCreditsError) {
      await this.d.media.transition(mediaId, ['processing'], {
        status: 'errored',
        error_message: `Not enough credits to index this media: it needs ${err.cost} credits. Top up or upgrade your plan, then retry.`,
      });
    } else if (stage === 'download') {
      // Nothing was indexed, so nothing is charged: the media is failed with the reason.
      await this.d.media.transition(mediaId, ['processing'], { status: 'failed', error_message: err.message.slice(0, 500), progress: 0 });
    } else {
      await this.d.media.transition(mediaId, ['processing'], {
        status: 'errored',
        error_message: `Processing failed at the ${stage} stage: ${err.message.slice(0, 300)}`,
      });
    }
  }

  /**
   * Shared files (the demo library's samples) are indexed once: later copies take the index and
   * derived files of an already indexed twin instead of running the models again.
   */
  private async reuseTwin(media: MediaRow): Promise<boolean> {
    const twin = await this.d.index.indexedTwin(media.blob_key, media.id);
    if (!twin) return false;
    const state = twin.ingest;
    const keys = [
      ...(state.hls
        ? ['hls/playlist.m3u8', ...Array.from({ length: state.hls.segments }, (_, i) => `hls/seg_${String(i).padStart(5, '0')}.ts`)]
        : []),
      'strip.webp',
      'poster.webp',
      ...(state.track ? [parseDerivedKey(blobKeys.thumbnailTrack(twin.id))!.rest] : []),
      ...(await this.d.index.keyframes(twin.id)).map((k) => parseDerivedKey(blobKeys.keyframe(twin.id, k.t))!.rest),
    ];
    for (const k of keys) {
      const from = `${blobKeys.derived(twin.id)}${k}`;
      if (!(await this.d.blobs.exists(from))) continue;
      // Streamed from one key to the other (the local store never holds a segment whole in memory).
      const body = await this.d.blobs.read(from);
      try {
        await this.d.blobs.put(`${blobKeys.derived(media.id)}${k}`, body);
      } finally {
        body.destroy();
      }
    }
    await this.d.index.copyIndex(twin.id, media.id, media.library_id);
    await this.d.media.update(media.id, {
      kind: twin.kind,
      duration: twin.duration,
      width: twin.width,
      height: twin.height,
      frame_count: twin.frame_count,
      probe: JSON.stringify(twin.probe),
      has_preview: twin.has_preview,
      ingest: JSON.stringify({ ...state, charged: 0 }),
    });
    await this.d.media.transition(media.id, ['processing'], { status: 'completed', progress: 1 });
    return true;
  }
}
