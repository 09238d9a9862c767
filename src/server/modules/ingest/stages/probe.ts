import { canAfford, ingestCost } from '../../../../contract';
import { InsufficientCreditsError } from '../../billing/ledger.service';
import type { StageHandler } from './stage';

/** What the original is (ffprobe), kept on the media; the credits are checked here, before any heavy work. */
export const probeStage: StageHandler = async ({ media, input, deps }) => {
  const p = await deps.tools.probe(input);
  // Check credits before any heavy work; the charge itself happens once, at the end.
  if (!media.blob_shared) {
    const cost = ingestCost(p.duration);
    const balance = await deps.billing.balance(media.user_id);
    if (!canAfford(balance, cost)) throw new InsufficientCreditsError(balance, cost);
  }
  return deps.media.update(media.id, {
    kind: p.kind,
    duration: p.duration,
    width: p.width,
    height: p.height,
    frame_count: p.frameCount,
    probe: JSON.stringify(p),
  });
};
