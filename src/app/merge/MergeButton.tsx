import { Suspense, useState } from 'react';
import { useSnapshot } from 'valtio';
import { mergeBlockedReason, MSG_MERGE, type Moment } from '../../contract';
import type { SelectedMoments } from '../media/mediaInfo';
import { lazyComponent } from '../routing/lazyChunk';
import { ChunkErrorBoundary } from '../shell/ChunkLoadFailed';
import { effectiveMoment, momentEdits } from '../state/momentEdits';
import { Button } from '../ui/Button';
import { IconFilm } from '../ui/icons';
import { ReasonTooltip } from '../ui/Tooltip';

// The dialog, the clip editor (PixiJS), the players and the ffmpeg.wasm client load with it, on the
// first Merge: none of it is part of the search page's own code.
const MergeDialog = lazyComponent(() => import('./MergeDialog').then((m) => m.default));

/**
 * The selection bar's Merge (spec sections 2 and 5): enabled with 2 or more selected moments, each
 * longer than 0.001 s, none an image; the tooltip says why not. Opens the merge dialog on the selected
 * moments' effective (trimmed) ranges, in the order they were selected.
 */
export function MergeButton({ moments, medias, libraries }: SelectedMoments) {
  const { byMoment } = useSnapshot(momentEdits);
  const [open, setOpen] = useState<Moment[] | null>(null);
  const shown = moments.map((m) => effectiveMoment(m, byMoment));
  const reason = mergeBlockedReason(shown.map((m) => ({ kind: medias[m.mediaId]?.kind, startTime: m.startTime, endTime: m.endTime })));
  return (
    <>
      <ReasonTooltip reason={reason} side="top">
        <Button size="sm" variant="secondary" disabled={Boolean(reason)} onClick={() => setOpen(shown)}>
          <IconFilm size={16} /> {MSG_MERGE.merge}
        </Button>
      </ReasonTooltip>
      {open && (
        <ChunkErrorBoundary what="The merge dialog">
          <Suspense fallback={null}>
            <MergeDialog moments={open} medias={medias} libraries={libraries} onClose={() => setOpen(null)} />
          </Suspense>
        </ChunkErrorBoundary>
      )}
    </>
  );
}
