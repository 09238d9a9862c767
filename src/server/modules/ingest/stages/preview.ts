import fs from 'node:fs';
import path from 'node:path';
import { putFile } from '../../../adapters/blobs/blobStore';
import { blobKeys } from '../../storage/blobKeys';
import { probeOf, type StageHandler } from './stage';

/** The HLS preview (ffmpeg/makeHls): its playlist and segments are streamed to the blob store. Not for a photo. */
export const previewStage: StageHandler = async ({ media, work, input, onProgress, deps }) => {
  const p = probeOf(media);
  if (p.kind === 'image') return;
  const dir = path.join(work, 'hls');
  const r = await deps.tools.makeHls(input, dir, p, onProgress);
  for (const f of fs.readdirSync(dir))
    await putFile(
      deps.blobs,
      blobKeys.hls(media.id, f),
      path.join(dir, f),
      f.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t',
    );
  await deps.index.patchState(media.id, { hls: { segments: r.segments, start: r.start } });
  return deps.media.update(media.id, { has_preview: true });
};
