import { readAll } from '../../../adapters/blobs/blobStore';
import type { VisualChain } from '../../../adapters/models/types';
import { ocrIndexWords } from '../../search/visualTerms';
import { blobKeys } from '../../storage/blobKeys';
import { byChunk, chunkOf } from '../chunks';
import type { ChunkedStage, StageContext, StageHandler } from './stage';

/** Keyframes analysed by one call of the visual models. */
const VISUAL_BATCH = 8;

/**
 * What is seen in each keyframe not analysed yet (objects, classes, colours, on-screen text, the
 * embeddings) and the words it is found by; without the visual models, which features are missing.
 * Keyframes go to the models chunk of the grid by chunk (chunks.ts), each chunk whole with a chain
 * of its own, so a chunked run gives the same features; resuming redoes a chunk not finished.
 */
export const visualStage: StageHandler = async (ctx) => {
  const { media, onProgress, deps } = ctx;
  if (!deps.models.visual) {
    await deps.index.patchState(media.id, { missing: deps.models.missing });
    return;
  }
  const C = deps.chunking.seconds;
  const pending = new Set((await deps.index.pendingKeyframes(media.id)).map((k) => chunkOf(k.t, C)));
  const chunks = byChunk(await deps.index.keyframes(media.id), C).filter((g) => pending.has(chunkOf(g[0]!.t, C)));
  await analyseChunks(ctx, chunks, onProgress);
};

/** A long media's picture models, one chunk of time each: every keyframe of the chunk, so a retried chunk gives the same. */
export const visualChunks: ChunkedStage<{ frames: number }> = {
  applies: (_media, deps) => !!deps.models.visual,
  prepare: async () => true,
  chunk: async (ctx) => {
    const { media, deps, range, state, onProgress } = ctx;
    const C = state.chunking!.seconds;
    // The last chunk runs to the end: a frame past the grid's last line (a duration that undercounts) is its own chain, as in a whole run.
    const mine = (t: number) => (range.to === Infinity ? chunkOf(t, C) >= range.index : chunkOf(t, C) === range.index);
    const frames = (await deps.index.keyframes(media.id)).filter((k) => mine(k.t));
    await analyseChunks(ctx, byChunk(frames, C), onProgress);
    return { frames: frames.length };
  },
  merge: async () => undefined,
};

/** Grid chunks of keyframes through the models, one after another; what could not be computed is recorded on the media. */
async function analyseChunks(
  ctx: StageContext,
  chunks: ReadonlyArray<ReadonlyArray<{ id: string; t: number }>>,
  onProgress: (f: number) => void,
) {
  const total = chunks.reduce((n, g) => n + g.length, 0);
  let done = 0;
  const missing = new Set<string>();
  for (const frames of chunks) {
    await analyseChunk(ctx, frames, missing, (n) => onProgress(Math.min(1, (done + n) / Math.max(1, total))));
    done += frames.length;
  }
  if (missing.size) await ctx.deps.index.patchState(ctx.media.id, { missing: [...missing] });
}

/** The keyframes of one grid chunk, in time order, through the models in batches on a chain of their own. */
async function analyseChunk(
  { media, deps }: StageContext,
  frames: ReadonlyArray<{ id: string; t: number }>,
  missing: Set<string>,
  onDone: (n: number) => void,
) {
  const visual = deps.models.visual!;
  let chain: VisualChain = null;
  for (let i = 0; i < frames.length; i += VISUAL_BATCH) {
    const batch = frames.slice(i, i + VISUAL_BATCH);
    const images: Buffer[] = [];
    for (const k of batch) images.push(await readAll(await deps.blobs.read(blobKeys.keyframe(media.id, k.t))));
    const r = await visual.analyzeChained(images, chain);
    chain = r.chain;
    for (let j = 0; j < batch.length; j++) {
      const f = r.features[j]!;
      f.missing.forEach((m) => missing.add(m));
      const labels = [...f.objects.map((o) => o.label), ...f.classes.map((c) => c.label), ...f.colours.map((c) => c.name)];
      const words = ocrIndexWords(f.text);
      const terms = [
        ...new Set(
          [...labels.flatMap((l) => deps.models.expandLabel(l)), ...words]
            .flatMap((t) => t.toLowerCase().split(/[^a-z0-9]+/))
            .filter(Boolean),
        ),
      ];
      await deps.index.saveFeatures(batch[j]!.id, {
        objects: f.objects,
        classes: f.classes,
        colours: f.colours,
        ocr: words.join(' '),
        terms,
        embedding: f.embedding,
        clip: f.clip,
      });
    }
    onDone(i + batch.length);
  }
}
