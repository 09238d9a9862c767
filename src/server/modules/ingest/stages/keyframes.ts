import path from 'node:path';
import { putFile, readAll } from '../../../adapters/blobs/blobStore';
import type { ExtractedFrame } from '../../../adapters/media/ffmpeg';
import { blobKeys } from '../../storage/blobKeys';
import { shotsOf } from '../chunks';
import { representativePoster } from '../posterFrame';
import { probeOf, type ChunkedStage, type StageContext, type StageHandler } from './stage';

/** ffmpeg's scene score above which a new shot starts. */
export const SCENE_THRESHOLD = 0.3;
/** Seconds between two keyframes at most, within a shot. */
export const MAX_KEYFRAME_GAP = 2;

/** What extractKeyframes is asked for (the same whole or in chunks). */
const keyframeOptions = (duration: number, grid: number) => ({ duration, threshold: SCENE_THRESHOLD, maxGap: MAX_KEYFRAME_GAP, grid });

/** Shots (a new one at every scene change) and their keyframes, stored as JPEGs; the poster is remade from one. */
export const keyframesStage: StageHandler = async (ctx) => {
  const { media, work, input, onProgress, deps } = ctx;
  const p = probeOf(media);
  const frames = await deps.tools.extractKeyframes(
    input,
    path.join(work, 'kf'),
    keyframeOptions(p.duration, deps.chunking.seconds),
    onProgress,
  );
  await putKeyframes(ctx, frames);
  await indexKeyframes(ctx, frames);
};

/** A long media's keyframes, one chunk of time each (chunks.ts): each chunk picks exactly the frames a whole run picks there. */
export const keyframesChunks: ChunkedStage<{ frames: Array<{ t: number; scene: number }> }> = {
  applies: () => true,
  prepare: async ({ media, input, deps }) => {
    // Every chunk subtracts the same first-frame time as a whole run (ffmpeg.ts videoOrigin).
    if ((await deps.index.state(media.id)).keyframeOrigin === undefined)
      await deps.index.patchState(media.id, { keyframeOrigin: await deps.tools.videoOrigin(input) });
    return true;
  },
  chunk: async (ctx) => {
    const { media, work, input, onProgress, deps, range, state } = ctx;
    if (state.keyframeOrigin === undefined) throw new Error('the chunks were queued without the video origin');
    const frames = await deps.tools.extractKeyframes(
      input,
      path.join(work, 'kf'),
      {
        ...keyframeOptions(probeOf(media).duration, state.chunking!.seconds),
        chunk: { from: range.from, to: range.to, origin: state.keyframeOrigin },
      },
      onProgress,
    );
    await putKeyframes(ctx, frames);
    return { frames: frames.map((f) => ({ t: f.t, scene: f.scene })) };
  },
  merge: async (ctx, results) => {
    const { deps } = ctx;
    const frames = results.flatMap((r) => r.frames);
    // The poster's candidates are read back from the store, only those posterFrame.ts looks at.
    await indexKeyframes(ctx, frames, async (key) => readAll(await deps.blobs.read(key)));
  },
};

/** The keyframes' JPEGs, under their times' keys. */
async function putKeyframes({ media, deps }: StageContext, frames: ExtractedFrame[]) {
  for (const f of frames) await putFile(deps.blobs, blobKeys.keyframe(media.id, f.t), f.file, 'image/jpeg');
}

/**
 * Shots and keyframe rows from the keyframes in time order (of the whole media), and the poster
 * from a representative one; `picture` reads a keyframe's JPEG by its blob key when it is not a file at hand.
 */
async function indexKeyframes(
  { media, deps }: StageContext,
  frames: ReadonlyArray<{ t: number; scene: number; file?: string }>,
  picture?: (key: string) => Promise<Buffer>,
) {
  const p = probeOf(media);
  if (!frames.length) throw new Error('no frame could be decoded');
  const { shots, shotIdx } = shotsOf(frames, p.duration, SCENE_THRESHOLD);
  await deps.index.replaceShots(media.id, shots);
  await deps.index.replaceKeyframes(
    media.id,
    media.library_id,
    frames.map((f, i) => ({ t: f.t, shotIdx: shotIdx[i]! })),
  );
  // The poster becomes a representative keyframe, not the opening's bars or title card (posterFrame.ts).
  if (p.kind === 'image') return;
  const poster = await representativePoster(
    frames.map((f) => ({ t: f.t, file: picture ? blobKeys.keyframe(media.id, f.t) : f.file! })),
    p.duration,
    picture && ((key) => picture(String(key))),
  );
  if (poster) await deps.blobs.put(blobKeys.poster(media.id), poster, 'image/webp');
}
