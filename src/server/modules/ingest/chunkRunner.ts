import fs from 'node:fs';
import path from 'node:path';
import type pLimit from 'p-limit';
import type { IngestState } from '../../db/schema';
import { holdAt } from '../../testHold';
import type { MediaRow } from '../libraries/media.repository';
import type { JobQueue } from '../ports';
import { chunkCount, chunkRange, type ChunkStage } from './chunks';
import { CHUNKED_STAGES } from './stages';
import { probeOf, type StageContext, type StageDeps } from './stages/stage';

/** The job that runs one chunk of a long media's stage (ingest.job.ts). */
export const CHUNK_JOB = 'ingest.chunk';

/** What the runner uses of the service that owns it. */
export interface ChunkHost {
  deps: StageDeps;
  queue: JobQueue;
  workDir: string;
  heavy: ReturnType<typeof pLimit>;
  /** Writes the media's progress with this stage `f` (0..1) of the way through (at most every 500 ms unless forced). */
  progress(media: MediaRow, stage: ChunkStage, done: readonly string[]): (f: number, force?: boolean) => Promise<void>;
  /** Ends the media's ingest after a failure the stage can name. */
  fail(mediaId: string, stage: ChunkStage, err: Error): Promise<void>;
  /** Queues a stage's job (deduplicated per media: stately). */
  queueStage(stage: ChunkStage, mediaId: string): Promise<void>;
}

/**
 * The chunked stages of a long media (chunks.ts): the stage's job prepares what the chunks share
 * and queues one job per chunk, then ends without marking the stage done; each chunk job records
 * its result; the job that records the last queues the stage's job again, which merges them all,
 * marks the stage done and goes on as a whole stage would. Stage jobs are stately (one running per
 * media at once), so two chunks finishing together cannot merge twice at the same time.
 */
export class ChunkRunner {
  constructor(private readonly h: ChunkHost) {}

  /** The media's chunk plan (fixed in its ingest state when first made), or null when `stage` runs whole for it. */
  async plan(media: MediaRow, stage: ChunkStage): Promise<NonNullable<IngestState['chunking']> | null> {
    const deps = this.h.deps;
    if (!CHUNKED_STAGES[stage].applies(media, deps)) return null;
    const state = await deps.index.state(media.id);
    if (state.chunking) return state.chunking;
    const count = chunkCount(probeOf(media).duration, deps.chunking);
    if (!count) return null;
    const chunking = { seconds: deps.chunking.seconds, count };
    await deps.index.patchState(media.id, { chunking });
    return chunking;
  }

  /**
   * The stage's job for a chunked media: queues the chunks not done yet, or, when all are, merges
   * them. Returns the chunks' time together (ms, their runs' sum) when the stage is done (merged, or
   * nothing to split: 0), null when its chunks are still running or it failed (the media then says why).
   */
  async runStage(
    stage: ChunkStage,
    media: MediaRow,
    plan: NonNullable<IngestState['chunking']>,
    ctx: StageContext,
  ): Promise<number | null> {
    const { deps } = this.h;
    const handler = CHUNKED_STAGES[stage];
    const recorded = await deps.index.doneChunkIndexes(media.id, stage);
    let ms = 0;
    try {
      if (recorded.length < plan.count) {
        if (!(await handler.prepare(ctx))) return 0;
        const have = new Set(recorded);
        const queued: number[] = [];
        for (let index = 0; index < plan.count; index++) {
          if (have.has(index)) continue;
          await this.h.queue.send(CHUNK_JOB, { mediaId: media.id, stage, index }, { singletonKey: `${media.id}:${stage}:${index}` });
          queued.push(index);
        }
        deps.log?.info({ mediaId: media.id, stage, chunks: plan.count, queued }, 'ingest stage split into chunks');
        return null;
      }
      const done = await deps.index.doneChunks(media.id, stage);
      await handler.merge(
        { ...ctx, state: await deps.index.state(media.id) },
        done.map((c) => c.result),
      );
      ms = done.reduce((sum, c) => sum + (c.ms ?? 0), 0);
    } catch (err) {
      await this.h.fail(media.id, stage, err as Error);
      return null;
    }
    // Merged: the chunks are in the index now. Keyframes made again leave no visual chunk standing on the old ones.
    await deps.index.clearChunks(media.id, stage === 'keyframes' ? ['keyframes', 'visual'] : [stage]);
    return ms;
  }

  /**
   * One chunk's job: does its part of `stage` for a media still processing, records it, and when
   * every chunk is done queues the stage's job to merge. A failure the stage can name fails the
   * media; a crash leaves the job to its retry or to another worker (leases), which runs it again.
   */
  async runChunk(mediaId: string, stage: ChunkStage, index: number): Promise<void> {
    const { deps } = this.h;
    const media = await deps.media.byId(mediaId);
    if (!media || media.status !== 'processing') return; // deleted, failed (another chunk, the other lane) or done
    const state = await deps.index.state(mediaId);
    const plan = state.chunking;
    if (state.done.includes(stage) || !plan || index >= plan.count) return;
    const recorded = (await deps.index.doneChunkIndexes(mediaId, stage)).includes(index);
    if (!recorded && !(await this.h.heavy(() => this.runOnce(media, stage, index, state)))) return;
    // Each finishing chunk counts after recording its own: of two finishing together, the later sees both.
    if ((await deps.index.doneChunkIndexes(mediaId, stage)).length >= plan.count) await this.h.queueStage(stage, mediaId);
  }

  private async runOnce(media: MediaRow, stage: ChunkStage, index: number, state: IngestState): Promise<boolean> {
    const { deps } = this.h;
    const plan = state.chunking!;
    const range = chunkRange(index, plan.count, plan.seconds);
    const write = this.h.progress(media, stage, state.done);
    let lastWrite = 0;
    const onProgress = (f: number) => {
      if (Date.now() - lastWrite < 500) return;
      lastWrite = Date.now();
      void deps.index
        .chunkProgress(media.id, stage, index, f, plan.count)
        .then((share) => write(share, true))
        .catch(() => undefined);
    };
    deps.log?.info({ mediaId: media.id, stage, chunk: index, chunks: plan.count, pid: process.pid }, 'ingest chunk started');
    // A test holds one chunk by its file name and index (`ingest:chunk:keyframes@long.mp4#0`), or every chunk of a stage.
    await holdAt(`ingest:chunk:${stage}`, `${media.filename}#${index}`, { mediaId: media.id, stage, chunk: index });
    const work = path.join(this.h.workDir, `${media.id}-${stage}-${index}`);
    fs.mkdirSync(work, { recursive: true });
    const t0 = performance.now();
    try {
      const input = await deps.blobs.toolInput(media.blob_key);
      const result = await CHUNKED_STAGES[stage].chunk({ media, work, input, onProgress, deps, range, state });
      await deps.index.recordChunk(media.id, stage, index, result, performance.now() - t0);
    } catch (err) {
      await this.h.fail(media.id, stage, err as Error);
      return false;
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
    await write(await deps.index.chunkProgress(media.id, stage, index, 1, plan.count), true);
    deps.log?.info(
      { mediaId: media.id, stage, chunk: index, ms: Math.round(performance.now() - t0), pid: process.pid },
      'ingest chunk done',
    );
    return true;
  }
}
