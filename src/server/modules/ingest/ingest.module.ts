import { extractAudio, extractKeyframes, makeHls, thumbnailStrip, thumbnailTrack, videoOrigin } from '../../adapters/media/ffmpeg';
import { probe, stillWebp } from '../../adapters/media/ffprobe';
import type { Platform } from '../../platform';
import type { ExternalService } from '../external/external.service';
import type { librariesModule } from '../libraries/libraries.module';
import type { ServerModule } from '../module';
import type { IngestBilling } from '../ports';
import { INGEST_QUEUES, ingestJobs, thumbnailTrackBackfillJob } from './ingest.job';
import { IngestService } from './ingest.service';

/** Ingest: a media's stages (probe, preview, thumbnails, keyframes, visual, speech, ...) as jobs of their own. */
export function ingestModule(
  p: Platform,
  lib: ReturnType<typeof librariesModule>,
  d: { credits: IngestBilling; external: ExternalService },
) {
  const ingest = new IngestService({
    media: lib.media,
    index: lib.index,
    blobs: p.blobs,
    models: p.models,
    billing: d.credits,
    tools: { probe, makeHls, thumbnailStrip, thumbnailTrack, stillWebp, extractKeyframes, videoOrigin, extractAudio },
    chunking: p.config.chunking,
    queue: p.queue,
    workDir: p.workDir,
    download: (media, work, onProgress) => d.external.download(media, work, onProgress),
    log: p.log,
  });
  return {
    ingest,
    module: {
      jobs: [...ingestJobs(ingest), thumbnailTrackBackfillJob(ingest)],
      resumableQueues: INGEST_QUEUES,
      backfill: async () => {
        const n = await ingest.backfillShotTerms();
        if (n) p.log.info({ media: n }, 'shot index written for media indexed before it existed');
        const spoken = await ingest.backfillSpokenForms();
        if (spoken) p.log.info({ segments: spoken }, 'transcript segments indexed in their spoken forms');
      },
    } satisfies ServerModule,
  };
}
