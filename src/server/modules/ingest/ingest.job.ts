import { Type } from 'typebox';
import { Uuid } from '../../../contract';
import { INGEST_JOB } from '../libraries/library.service';
import { STAGES, stageJob, type IngestService, type Stage } from './ingest.service';
import { CHUNK_JOB } from './chunkRunner';
import { CHUNK_STAGES } from './chunks';
import { defineCronJob, defineJob, type JobDefinition } from '../../jobs/registry';

/**
 * How each stage's job runs: handlers at once in a process (heavy stages are capped together by
 * the service as well), how long one may run before pg-boss expires it, and retries after a crash
 * (a failure the stage can name is recorded on the media instead, and not retried).
 */
export const STAGE_JOBS: Record<Stage, { workers: number; expireMinutes: number; retryLimit: number }> = {
  download: { workers: 2, expireMinutes: 60, retryLimit: 2 },
  probe: { workers: 2, expireMinutes: 5, retryLimit: 2 },
  preview: { workers: 1, expireMinutes: 30, retryLimit: 2 },
  thumbnails: { workers: 1, expireMinutes: 10, retryLimit: 2 },
  keyframes: { workers: 1, expireMinutes: 30, retryLimit: 2 },
  visual: { workers: 1, expireMinutes: 60, retryLimit: 2 },
  speech: { workers: 1, expireMinutes: 60, retryLimit: 2 },
  descriptions: { workers: 1, expireMinutes: 5, retryLimit: 2 },
  complete: { workers: 2, expireMinutes: 5, retryLimit: 2 },
};

/** How a chunk's job runs (a long media's stage in chunks of time: chunkRunner.ts); as many at once as the heavy stages. */
export const CHUNK_JOB_OPTIONS = { workers: 2, expireMinutes: 30, retryLimit: 2 };

/** Every ingest queue: the media's job, one per stage, and the chunks' (recovery after a crash covers them all). */
export const INGEST_QUEUES = [INGEST_JOB, ...STAGES.map(stageJob), CHUNK_JOB];

/** The payload of the media's ingest job and of every stage's job. */
export const IngestJobPayload = Type.Object({ mediaId: Uuid });

/** The payload of a chunk's job: which media, stage and chunk of the grid. */
export const IngestChunkPayload = Type.Object({
  mediaId: Uuid,
  stage: Type.Union(CHUNK_STAGES.map((s) => Type.Literal(s))),
  index: Type.Integer({ minimum: 0 }),
});

/**
 * The media's ingest job (queued by uploads, link imports and retries) starts it and queues its
 * first stages; each stage is then a job of its own; all run under leases (jobs/leases.ts). A stage
 * queues the stages it unblocks when done. Stage queues are 'stately': a stage is queued at most
 * once per media while it waits, even when both lanes finish together and queue the next.
 */
export const ingestJobs = (ingest: IngestService): JobDefinition[] => [
  defineJob({
    name: INGEST_JOB,
    payload: IngestJobPayload,
    options: { name: INGEST_JOB, retryLimit: 2, retryDelay: 5, expireInSeconds: 5 * 60 },
    workOptions: { batchSize: 1, pollingIntervalSeconds: 1 },
    leased: true,
    handler: ({ mediaId }) => ingest.start(mediaId),
  }),
  ...STAGES.map((stage) => {
    const o = STAGE_JOBS[stage];
    return defineJob({
      name: stageJob(stage),
      payload: IngestJobPayload,
      options: { name: stageJob(stage), policy: 'stately', retryLimit: o.retryLimit, retryDelay: 5, expireInSeconds: o.expireMinutes * 60 },
      // With its metadata, a job knows it is a retry (after a crash: retryCount counts the takes).
      workOptions: { batchSize: 1, pollingIntervalSeconds: 1, includeMetadata: true },
      workers: o.workers,
      leased: true,
      handler: ({ mediaId }, run) => ingest.runStage(stage, mediaId, { retry: run.retryCount > 0 }),
    });
  }),
  // A chunk of a long media's stage; stately per chunk, so a chunk queued again while it waits is not queued twice.
  defineJob({
    name: CHUNK_JOB,
    payload: IngestChunkPayload,
    options: {
      name: CHUNK_JOB,
      policy: 'stately',
      retryLimit: CHUNK_JOB_OPTIONS.retryLimit,
      retryDelay: 5,
      expireInSeconds: CHUNK_JOB_OPTIONS.expireMinutes * 60,
    },
    workOptions: { batchSize: 1, pollingIntervalSeconds: 1 },
    workers: CHUNK_JOB_OPTIONS.workers,
    leased: true,
    handler: ({ mediaId, stage, index }) => ingest.runChunk(mediaId, stage, index),
  }),
];

/** Every 3 minutes: videos indexed before thumbnail tracks existed get theirs, a few at a time (IngestService.backfillThumbnailTracks). */
export const thumbnailTrackBackfillJob = (ingest: IngestService): JobDefinition =>
  defineCronJob({
    name: 'media.thumbnail-tracks',
    cron: '*/3 * * * *',
    handler: async () => void (await ingest.backfillThumbnailTracks()),
  });
