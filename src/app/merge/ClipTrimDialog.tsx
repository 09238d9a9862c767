import { useState } from 'react';
import { HANDLE_MIN_SECONDS, MSG_MOMENT, type ClipFraming, type RenderAspect } from '../../contract';
import { cropSize } from '../../engine/kernels/cropWindow';
import type { SequenceClip } from '../../engine/sequence/sequenceModel';
import { showToast } from '../state/toasts';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { BoundaryFields } from '../media/TimeInput';
import { CropWindow } from '../media/CropWindow';
import { formatMomentLength, formatPreciseTimecode } from '../ui/format';

/** Issue 39: the compilation's shape, for the crop window of a clip (absent or 'source': nothing is cropped). */
export interface ClipCropContext {
  aspect: RenderAspect;
  /** The clip's picture size (its media's width and height). */
  sourceSize: { width: number; height: number } | null;
  /** The window's centre the user fixed for this clip, if any. */
  framing: ClipFraming | undefined;
}

/**
 * The Trim dialog for one clip of the merge (spec section 2): its range by the boundaries' time codes,
 * confirmed into the editor (where it is snapped to frames, kept at least 0.1 s long and undoable).
 * Confirm without a valid range says 'No moment range selected' and keeps the dialog open. When the
 * compilation's aspect crops (issue 39), the clip's crop window is shown over its picture, to drag.
 */
export function ClipTrimDialog({
  clip,
  crop,
  onConfirm,
  onClose,
}: {
  clip: SequenceClip;
  crop?: ClipCropContext;
  onConfirm: (startTime: number, endTime: number, framing: ClipFraming | undefined) => void;
  onClose: () => void;
}) {
  const [draft, setDraft] = useState(clip.beginEndTimestamp);
  const [framing, setFraming] = useState(crop?.framing);
  const original = clip.modifications.trimmed?.originalTimestamps ?? clip.beginEndTimestamp;
  const valid = draft.endTime - draft.startTime >= HANDLE_MIN_SECONDS && draft.startTime >= 0 && draft.endTime <= clip.mediaDuration;
  const size = crop?.sourceSize ? cropSize(crop.aspect, crop.sourceSize.width, crop.sourceSize.height) : null;
  const confirm = () => {
    if (!valid) return void showToast(MSG_MOMENT.noRangeSelected, { tone: 'error' });
    onConfirm(draft.startTime, draft.endTime, framing);
    onClose();
  };
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      width={size ? 720 : 520}
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
      {size && crop?.sourceSize && (
        <CropWindow
          libraryId={clip.extendedMediaId.libraryId}
          mediaId={clip.extendedMediaId.mediaId}
          range={valid ? draft : clip.beginEndTimestamp}
          aspect={crop.aspect}
          size={size}
          sourceSize={crop.sourceSize}
          framing={framing}
          onFramingChange={setFraming}
        />
      )}
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
