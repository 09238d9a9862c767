import path from 'node:path';
import { putFile } from '../../../adapters/blobs/blobStore';
import { blobKeys } from '../../storage/blobKeys';
import { probeOf, type StageContext, type StageHandler } from './stage';

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
  const { interval } = await deps.tools.thumbnailStrip(input, file, {
    duration: Math.max(p.duration, 0.04),
    count,
    width: STRIP_FRAME_WIDTH,
  });
  await putFile(deps.blobs, blobKeys.strip(media.id), file, 'image/webp');
  await deps.blobs.put(
    blobKeys.poster(media.id),
    await deps.tools.stillWebp(input, p.kind === 'image' ? 0 : Math.min(1, p.duration / 2), 280, 40),
    'image/webp',
  );
  const track = p.kind === 'image' ? undefined : await thumbnailTrack({ media, work, input, deps }, p.duration);
  // Last: the media's `thumbnails` (set from this) tell the app its poster exists (contract hasPoster).
  const height = Math.round((STRIP_FRAME_WIDTH * p.height) / Math.max(1, p.width) / 2) * 2;
  await deps.index.patchState(media.id, {
    ...(track && { track }),
    strip: { interval, columns: count, count, width: STRIP_FRAME_WIDTH, height },
  });
};

/**
 * The video's keyframes as a small H.264 MP4 the timeline decodes instead of the original's. Without
 * it (undefined) the media has no `thumbnailTrack` capability and the app decodes the original as
 * before, so a failure to make it is logged and does not fail the ingest.
 */
async function thumbnailTrack({ media, work, input, deps }: Pick<StageContext, 'media' | 'work' | 'input' | 'deps'>, duration: number) {
  try {
    const file = path.join(work, 'thumbnails.mp4');
    const track = await deps.tools.thumbnailTrack(input, file, { duration: Math.max(duration, 0.04) });
    await putFile(deps.blobs, blobKeys.thumbnailTrack(media.id), file, 'video/mp4');
    return track;
  } catch (err) {
    deps.log?.warn({ mediaId: media.id, err: (err as Error).message }, 'no thumbnail track: the timeline decodes the original');
    return undefined;
  }
}
