import { ingestCost } from '../../../../contract';
import { holdAt } from '../../../testHold';
import { probeOf, type StageHandler } from './stage';

/** The credits charged, once per media, then the media completed. Shared samples are not charged. */
export const completeStage: StageHandler = async ({ media, deps }) => {
  if (!media.blob_shared) {
    const p = probeOf(media);
    const cost = ingestCost(p.duration);
    // One key per media: a retried job, or a retry after a crash, never charges twice.
    await deps.billing.charge(media.user_id, cost, `ingest:${media.id}`, `Indexing ${media.name}`);
    await holdAt('ingest:charged', media.filename, { mediaId: media.id });
    await deps.index.patchState(media.id, { charged: cost });
  }
  return deps.media.transition(media.id, ['processing'], { status: 'completed', progress: 1 });
};
