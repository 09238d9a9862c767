import { readAll } from '../../../adapters/blobs/blobStore';
import { ocrIndexWords } from '../../search/visualTerms';
import { blobKeys } from '../../storage/blobKeys';
import type { StageHandler } from './stage';

/** Keyframes analysed by one call of the visual models. */
const VISUAL_BATCH = 8;

/**
 * What is seen in each keyframe not analysed yet (objects, classes, colours, on-screen text, the
 * embeddings) and the words it is found by; without the visual models, which features are missing.
 */
export const visualStage: StageHandler = async ({ media, onProgress, deps }) => {
  const visual = deps.models.visual;
  if (!visual) {
    await deps.index.patchState(media.id, { missing: deps.models.missing });
    return;
  }
  const pending = await deps.index.pendingKeyframes(media.id);
  const total = pending.length;
  const missing = new Set<string>();
  for (let i = 0; i < pending.length; i += VISUAL_BATCH) {
    const batch = pending.slice(i, i + VISUAL_BATCH);
    const images: Buffer[] = [];
    for (const k of batch) images.push(await readAll(await deps.blobs.read(blobKeys.keyframe(media.id, k.t))));
    const feats = await visual.analyze(images);
    for (let j = 0; j < batch.length; j++) {
      const f = feats[j]!;
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
    onProgress(Math.min(1, (i + batch.length) / Math.max(1, total)));
  }
  if (missing.size) await deps.index.patchState(media.id, { missing: [...missing] });
};
