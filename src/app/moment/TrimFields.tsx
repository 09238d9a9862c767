import { useState } from 'react';
import { HANDLE_MIN_SECONDS, MSG_MOMENT, type Moment } from '../../contract';
import { rangeProblem, updateMomentRange, type TimeRange } from '../state/momentEdits';
import { BoundaryFields } from '../media/TimeInput';
import { formatMomentLength } from '../ui/format';

/**
 * Trimming in place (spec section 2, Trim dialog): the moment's boundaries as time codes under the
 * timeline, for the keyboard, beside its handles for the pointer. Either saves at once, as a handle
 * drag does; a range that cannot be a moment says why and is not saved ('No moment range selected').
 */
export function TrimFields({ moment, range, duration }: { moment: Moment; range: TimeRange; duration: number }) {
  // The boundary typed last when the pair it makes is not a range; the saved range otherwise.
  const [draft, setDraft] = useState<TimeRange | null>(null);
  const shown = draft ?? range;
  const commit = (next: TimeRange) => {
    if (rangeProblem(next, duration) !== null) return setDraft(next);
    setDraft(null);
    updateMomentRange(moment, next, duration);
  };
  return (
    <div className="trim-view__fields" role="group" aria-label="Trim">
      <BoundaryFields range={shown} max={duration} onCommit={(boundary, seconds) => commit({ ...shown, [boundary]: seconds })} />
      <span className={`trim-view__length${draft ? ' trim-view__length--invalid' : ''}`} role="status">
        {draft
          ? `${MSG_MOMENT.noRangeSelected}: the start must come before the end, at least ${HANDLE_MIN_SECONDS} s apart.`
          : `Length ${formatMomentLength(range.endTime - range.startTime)}`}
      </span>
    </div>
  );
}
