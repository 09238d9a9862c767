import { useCallback, useMemo, useState } from 'react';
import { HANDLE_MIN_SECONDS, MSG_MOMENT, type Media, type Moment } from '../../../contract';
import { effectiveRange, rangeProblem, updateMomentRange, type TimeRange } from '../../state/momentEdits';
import { showToast } from '../../state/toasts';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { mediaNameOf } from '../search/MomentCard';
import { formatMomentLength, formatPreciseTimecode } from '../search/momentFormat';
import { MomentPlayer } from './MomentPlayer';
import { MomentTimeline, timelineMediaOf, type TimelineRange } from './MomentTimeline';
import { TimeInput } from './TimeInput';
import './moment.css';

/**
 * The Trim dialog (spec section 2): picks a moment's range, by its boundaries' time codes or on the
 * timeline, previewing it in a loop, and saves it on Confirm. Confirm without a valid range says
 * 'No moment range selected' and keeps the dialog open.
 */
export function TrimDialog({ moment, media, onClose }: { moment: Moment; media: Media | undefined; onClose: () => void }) {
  const [draft, setDraft] = useState<TimeRange>(() => effectiveRange(moment));
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const timelineMedia = useMemo(() => timelineMediaOf(media), [media]);
  const duration = timelineMedia.duration;
  const valid = rangeProblem(draft, duration) === null;
  const original: TimeRange = { startTime: moment.startTime, endTime: moment.endTime };

  const timelineRange = useMemo<TimelineRange>(() => ({ start: draft.startTime, end: draft.endTime }), [draft.startTime, draft.endTime]);
  // In this dialog the timeline moves the selection; Confirm saves it.
  const onRangeCommit = useCallback((r: TimelineRange) => setDraft({ startTime: r.start, endTime: r.end }), []);

  const confirm = () => {
    if (!media) return void showToast(MSG_MOMENT.notFound, { tone: 'error' });
    if (!valid) return void showToast(MSG_MOMENT.noRangeSelected, { tone: 'error' });
    if (updateMomentRange(moment, draft, duration)) onClose();
  };

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      width={880}
      title={`Trim ${mediaNameOf(media)}`}
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
      <div className="trim-view">
        <MomentPlayer
          media={media}
          libraryId={moment.libraryId}
          mediaId={moment.mediaId}
          range={valid ? draft : effectiveRange(moment)}
          onVideo={setVideo}
        />
        <MomentTimeline media={timelineMedia} source={media} range={timelineRange} onRangeCommit={onRangeCommit} video={video} />
        <div className="trim-view__fields">
          <label className="trim-view__field">
            <span className="trim-view__label">Start</span>
            <TimeInput
              value={draft.startTime}
              max={duration}
              precise
              commitOnBlur
              label="Start"
              onCommit={(startTime) => setDraft((d) => ({ ...d, startTime }))}
            />
          </label>
          <label className="trim-view__field">
            <span className="trim-view__label">End</span>
            <TimeInput
              value={draft.endTime}
              max={duration}
              precise
              commitOnBlur
              label="End"
              onCommit={(endTime) => setDraft((d) => ({ ...d, endTime }))}
            />
          </label>
          <span className={`trim-view__length${valid ? '' : ' trim-view__length--invalid'}`} aria-live="polite">
            {valid
              ? `Length ${formatMomentLength(draft.endTime - draft.startTime)}`
              : `The start must come before the end, at least ${HANDLE_MIN_SECONDS} s apart.`}
          </span>
        </div>
      </div>
    </Dialog>
  );
}
