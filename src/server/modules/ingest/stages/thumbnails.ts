import path from 'node:path';
import { putFile } from '../../../adapters/blobs/blobStore';
import { blobKeys } from '../../storage/blobKeys';
import type { ThumbnailTrack } from '../../../adapters/media/ffmpeg';
import { probeOf, type StageHandler } from './stage';

/** Pictures in a media's thumbnail strip: one a second, at most this many. */
export const STRIP_FRAMES = 60;
export const STRIP_FRAME_WIDTH = 140;

/**
 * The timeline's thumbnail strip, a first poster (remade from a representative keyframe by
 * `keyframes`) and, for a video, its thumbnail track (API.mediaThumbnailTrack).
 */
export const thumbnailsStage: StageHandler = async ({ media, work, input, deps }) => {
  const p = probeOf(media);
  const count = p.kind === 'image' ? 1 : Math.max(1, Math.min(STRIP_FRAMES, Math.ceil(p.duration)));
  const file = path.join(work, 'strip.webp');
  const strip = { duration: Math.max(p.duration, 0.04), count, width: STRIP_FRAME_WIDTH };
  // A video's thumbnail track is made from the same decoded keyframes as its strip, in one run.
  const trackFile = path.join(work, 'thumbnails.mp4');
  let made: { interval: number; track?: ThumbnailTrack };
  try {
    made = await deps.tools.thumbnailStrip(input, file, { ...strip, ...(p.kind !== 'image' && { track: trackFile }) });
  } catch (err) {
    if (p.kind === 'image') throw err;
    // Without a track the app decodes the original as before: the strip alone, and the reason logged.
    deps.log?.warn({ mediaId: media.id, err: (err as Error).message }, 'no thumbnail track: the timeline decodes the original');
    made = await deps.tools.thumbnailStrip(input, file, strip);
  }
  const { interval, track } = made;
  await putFile(deps.blobs, blobKeys.strip(media.id), file, 'image/webp');
  if (track) await putFile(deps.blobs, blobKeys.thumbnailTrack(media.id), trackFile, 'video/mp4');
  await deps.blobs.put(
    blobKeys.poster(media.id),
    await deps.tools.stillWebp(input, p.kind === 'image' ? 0 : Math.min(1, p.duration / 2), 280, 40),
    'image/webp',
  );
  // Last: the media's `thumbnails` (set from this) tell the app its poster exists (contract hasPoster).
  const height = Math.round((STRIP_FRAME_WIDTH * p.height) / Math.max(1, p.width) / 2) * 2;
  await deps.index.patchState(media.id, {
    ...(track && { track }),
    strip: { interval, columns: count, count, width: STRIP_FRAME_WIDTH, height },
  });
};
