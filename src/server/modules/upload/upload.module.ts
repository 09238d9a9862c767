import { probeQuick } from '../../adapters/media/ffprobe';
import type { Platform } from '../../platform';
import type { librariesModule } from '../libraries/libraries.module';
import type { ServerModule } from '../module';
import type { StorageQuota } from '../ports';
import { uploadExpiryJob } from './uploadExpiry.job';
import { UploadService } from './upload.service';

/** A media file's seconds read from its header (ffprobe), or null when it cannot be read. */
export async function quickDuration(input: string): Promise<number | null> {
  try {
    return (await probeQuick(input)).duration;
  } catch {
    return null;
  }
}

/** Chunked uploads: started, parts stored, finished into a media and its ingest (routes with the library's). */
export function uploadModule(p: Platform, lib: ReturnType<typeof librariesModule>, quota: StorageQuota) {
  const uploads = new UploadService({
    library: lib.libraries,
    access: lib.access,
    media: lib.media,
    uploads: lib.uploadRepo,
    blobs: p.blobs,
    queue: p.queue,
    tokens: p.tokens,
    quota,
    quickDuration,
  });
  return {
    uploads,
    module: {
      jobs: [uploadExpiryJob(uploads)],
      resume: async () => {
        const f = await uploads.reopenCutOffFinishes(new Date());
        if (f) p.log.info({ uploads: f }, 'reopened upload finishes cut off by an earlier stop');
      },
    } satisfies ServerModule,
  };
}
