import path from 'node:path';
import { putFile } from '../../../adapters/blobs/blobStore';
import { blobKeys } from '../../storage/blobKeys';
import { representativePoster } from '../posterFrame';
import { probeOf, type StageHandler } from './stage';

/** ffmpeg's scene score above which a new shot starts. */
export const SCENE_THRESHOLD = 0.3;
/** Seconds between two keyframes at most, within a shot. */
export const MAX_KEYFRAME_GAP = 2;

/** Shots (a new one at every scene change) and their keyframes, stored as JPEGs; the poster is remade from one. */
export const keyframesStage: StageHandler = async ({ media, work, input, onProgress, deps }) => {
  const p = probeOf(media);
  const dir = path.join(work, 'kf');
  const frames = await deps.tools.extractKeyframes(
    input,
    dir,
    { duration: p.duration, threshold: SCENE_THRESHOLD, maxGap: MAX_KEYFRAME_GAP },
    onProgress,
  );
  if (!frames.length) throw new Error('no frame could be decoded');
  // Shots: a new one starts at every scene change.
  const shots: Array<{ start: number; end: number }> = [];
  const withShot = frames.map((f, i) => {
    if (i === 0 || f.scene > SCENE_THRESHOLD) shots.push({ start: i === 0 ? 0 : f.t, end: p.duration });
    if (shots.length > 1) shots[shots.length - 2]!.end = shots[shots.length - 1]!.start;
    return { t: f.t, shotIdx: shots.length - 1, file: f.file };
  });
  await deps.index.replaceShots(media.id, shots);
  for (const f of withShot) await putFile(deps.blobs, blobKeys.keyframe(media.id, f.t), f.file, 'image/jpeg');
  await deps.index.replaceKeyframes(media.id, media.library_id, withShot);
  // The poster becomes a representative keyframe, not the opening's bars or title card (posterFrame.ts).
  const poster = p.kind === 'image' ? null : await representativePoster(frames, p.duration);
  if (poster) await deps.blobs.put(blobKeys.poster(media.id), poster, 'image/webp');
};
