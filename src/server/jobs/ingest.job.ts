import type { BlobStore } from '../adapters/blobs/blobStore';
import { NotMediaError, probe, stillWebp } from '../adapters/media/ffprobe';
import type { MediaRepository } from '../repositories/media.repository';
import { INGEST_JOB } from '../services/library.service';
import type { JobDefinition } from './registry';

/**
 * One job per media. For now: probe (duration, size, frame count) and a poster; the indexing stages
 * join in the ingest issue. Re-running is safe: each step overwrites its own results.
 */
export const ingestJob = (media: MediaRepository, blobs: BlobStore): JobDefinition<{ mediaId: string }> => ({
  name: INGEST_JOB,
  options: { name: INGEST_JOB, retryLimit: 2, retryDelay: 5, expireInSeconds: 3600 },
  workOptions: { batchSize: 1, pollingIntervalSeconds: 1 },
  async handler({ mediaId }) {
    const row = await media.transition(mediaId, ['queued', 'processing'], { status: 'processing', progress: 0.05, error_message: null });
    if (!row) return; // deleted, or already done
    try {
      const input = await blobs.toolInput(row.blob_key);
      const p = await probe(input);
      await media.update(mediaId, {
        kind: p.kind,
        duration: p.duration,
        width: p.width,
        height: p.height,
        frame_count: p.frameCount,
        probe: JSON.stringify(p),
        progress: 0.5,
      });
      const poster = await stillWebp(input, p.kind === 'image' ? 0 : Math.min(1, p.duration / 2), 280, 40);
      await blobs.put(`derived/${mediaId}/poster.webp`, poster, 'image/webp');
      await media.transition(mediaId, ['processing'], { status: 'completed', progress: 1 });
    } catch (err) {
      if (err instanceof NotMediaError) {
        await media.transition(mediaId, ['processing'], { status: 'invalid', error_message: err.message, progress: 0 });
        return;
      }
      await media.transition(mediaId, ['processing'], {
        status: 'errored',
        error_message: `Processing failed while reading the file: ${(err as Error).message.slice(0, 300)}`,
      });
    }
  },
});
