import { useState } from 'react';
import { HANDLE_MIN_SECONDS, MSG_MOMENT } from '../../contract';
import type { SequenceClip } from '../../engine/sequence/sequenceModel';
import { showToast } from '../state/toasts';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { BoundaryFields } from '../media/TimeInput';
import { formatMomentLength, formatPreciseTimecode } from '../ui/format';

/**
 * The Trim dialog for one clip of the merge (spec section 2): its range by the boundaries' time codes,
 * confirmed into the editor (where it is snapped to frames, kept at least 0.1 s long and undoable).
 * Confirm without a valid range says 'No moment range selected' and keeps the dialog open.
 */
export function ClipTrimDialog({
  clip,
  onConfirm,
  onClose,
}: {
  clip: SequenceClip;
  onConfirm: (startTime: number, endTime: number) => void;
  onClose: () => void;
}) {
  const [draft, setDraft] = useState(clip.beginEndTimestamp);
  const original = clip.modifications.trimmed?.originalTimestamps ?? clip.beginEndTimestamp;
  const valid = draft.endTime - draft.startTime >= HANDLE_MIN_SECONDS && draft.startTime >= 0 && draft.endTime <= clip.mediaDuration;
  const confirm = () => {
    if (!valid) return void showToast(MSG_MOMENT.noRangeSelected, { tone: 'error' });
    onConfirm(draft.startTime, draft.endTime);
    onClose();
  };
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      width={520}
      title={`Trim ${clip.label}`}
      description={`Original moment ${formatPreciseTimecode(original.startTime)} – ${formatPreciseTimecode(original.endTime)}`}
      footer={
        <>
          <Button variant="ghost" onClick={() => setDraft(original)}>
            Reset to original
          </Button>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={confirm}>Confirm</Button>
        </>
      }
    >
      <div className="trim-view__fields">
        <BoundaryFields
          range={draft}
          max={clip.mediaDuration}
          onCommit={(boundary, seconds) => setDraft((d) => ({ ...d, [boundary]: seconds }))}
        />
        <span className={`trim-view__length${valid ? '' : ' trim-view__length--invalid'}`} aria-live="polite">
          {valid
            ? `Length ${formatMomentLength(draft.endTime - draft.startTime)}`
            : `The start must come before the end, at least ${HANDLE_MIN_SECONDS} s apart.`}
        </span>
      </div>
    </Dialog>
  );
}
