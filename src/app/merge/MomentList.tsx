import { useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { MOMENT_LIST_ITEM_WIDTH } from '../../contract';
import type { SequenceEngine, SequenceEngineState } from '../../engine/sequence/SequenceEngine';
import { clipStarts, type SequenceClip } from '../../engine/sequence/sequenceModel';
import { IconButton } from '../ui/Button';
import { IconChevronLeft, IconPlus, IconTrash, IconTrim } from '../ui/icons';
import { ClipTrimDialog, type ClipCropContext } from './ClipTrimDialog';
import { formatPreciseTimecode } from '../ui/format';
import { useSequenceValue } from '../timeline/useEngineValue';

const selectClips = (s: SequenceEngineState) => s.clips;
const selectCurrent = (s: SequenceEngineState) => s.current;

/**
 * The merge dialog's reorderable moment list (spec sections 2 and 9: items 176 px wide). Reordering
 * works three ways: drag an item onto another, the move buttons, or Alt+Left / Alt+Right on a
 * focused item (the item keeps focus; a live region says where it went). Each item also duplicates,
 * trims and removes its clip; every change goes through the editor, so it is undoable.
 */
export function MomentList({
  engine,
  pictureOf,
  cropOf,
}: {
  engine: SequenceEngine | null;
  pictureOf: (clip: SequenceClip) => string | null;
  /**
   * Issue 39: the compilation's crop for a clip (its Trim dialog shows the window when the aspect
   * crops, and confirms the window's centre the user fixed with the range: SequenceClip.framing).
   */
  cropOf?: (clip: SequenceClip) => ClipCropContext;
}) {
  const [announcement, setAnnouncement] = useState('');
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [trimming, setTrimming] = useState<number | null>(null);
  const list = useRef<HTMLOListElement>(null);
  // Not the whole state: playback publishes one per frame, and the list changes only with these.
  const clips = useSequenceValue(engine, selectClips);
  const current = useSequenceValue(engine, selectCurrent);
  const n = clips.length;
  const starts = clipStarts(clips);

  const focusItem = (index: number) =>
    requestAnimationFrame(() => list.current?.querySelectorAll<HTMLElement>('[data-clip-item]')[index]?.focus());

  const move = (from: number, to: number) => {
    if (!engine || to < 0 || to >= n || from === to) return;
    const label = clips[from]!.label;
    engine.reorder(from, to);
    setAnnouncement(`Moved ${label} to position ${to + 1} of ${n}.`);
    focusItem(to);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLLIElement>, index: number) => {
    if (e.target !== e.currentTarget) return;
    if (e.altKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      e.preventDefault();
      e.stopPropagation();
      move(index, index + (e.key === 'ArrowLeft' ? -1 : 1));
    } else if (!e.altKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      // Arrows alone move focus along the list (the player's arrows are for the timeline).
      e.preventDefault();
      e.stopPropagation();
      focusItem(Math.max(0, Math.min(n - 1, index + (e.key === 'ArrowLeft' ? -1 : 1))));
    } else if (e.key === 'Delete') {
      e.preventDefault();
      e.stopPropagation();
      engine?.remove(index);
      setAnnouncement(`Removed ${clips[index]!.label}.`);
    }
  };

  const onDrop = (e: DragEvent<HTMLLIElement>, index: number) => {
    e.preventDefault();
    if (dragFrom !== null) move(dragFrom, index);
    setDragFrom(null);
  };

  return (
    <div className="moment-list">
      <p id="moment-list-help" className="visually-hidden">
        Alt plus Left or Right arrow moves the focused moment; Delete removes it.
      </p>
      <ol ref={list} className="moment-list__items" aria-label="Moments in the compilation" aria-describedby="moment-list-help">
        {clips.map((clip, i) => {
          const picture = pictureOf(clip);
          return (
            <li
              key={clip.id}
              data-clip-item
              data-testid="merge-clip"
              data-media-id={clip.extendedMediaId.mediaId}
              className={`moment-list__item${i === current ? ' moment-list__item--current' : ''}${dragFrom === i ? ' moment-list__item--dragging' : ''}`}
              style={{ width: MOMENT_LIST_ITEM_WIDTH }}
              tabIndex={0}
              aria-label={`${i + 1} of ${n}: ${clip.label}, ${formatPreciseTimecode(clip.beginEndTimestamp.startTime)} to ${formatPreciseTimecode(clip.beginEndTimestamp.endTime)}`}
              draggable
              onDragStart={(e) => {
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', String(i));
                setDragFrom(i);
              }}
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => onDrop(e, i)}
              onDragEnd={() => setDragFrom(null)}
              onKeyDown={(e) => onKeyDown(e, i)}
              onClick={(e) => {
                if ((e.target as HTMLElement).closest('button')) return;
                engine?.seek(starts[i]!);
              }}
            >
              <span className="moment-list__picture">{picture ? <img src={picture} alt="" draggable={false} /> : null}</span>
              <span className="moment-list__name" title={clip.label}>
                {clip.label}
              </span>
              <span className="moment-list__range muted">
                {formatPreciseTimecode(clip.beginEndTimestamp.startTime)}–{formatPreciseTimecode(clip.beginEndTimestamp.endTime)} ·{' '}
                {clip.duration.toFixed(1)} s
              </span>
              <span className="moment-list__actions">
                <IconButton label={`Move ${clip.label} earlier`} onClick={() => move(i, i - 1)} disabled={i === 0}>
                  <IconChevronLeft size={14} />
                </IconButton>
                <IconButton label={`Move ${clip.label} later`} onClick={() => move(i, i + 1)} disabled={i === n - 1}>
                  <IconChevronLeft size={14} className="moment-list__flip" />
                </IconButton>
                <IconButton label={`Duplicate ${clip.label}`} onClick={() => engine?.duplicate(i)}>
                  <IconPlus size={14} />
                </IconButton>
                <IconButton label={`Trim ${clip.label}`} onClick={() => setTrimming(i)}>
                  <IconTrim size={14} />
                </IconButton>
                <IconButton label={`Remove ${clip.label}`} onClick={() => engine?.remove(i)}>
                  <IconTrash size={14} />
                </IconButton>
              </span>
            </li>
          );
        })}
      </ol>
      <p className="visually-hidden" aria-live="polite" data-testid="merge-announcement">
        {announcement}
      </p>
      {trimming !== null && clips[trimming] && (
        <ClipTrimDialog
          clip={clips[trimming]!}
          crop={cropOf?.(clips[trimming]!)}
          // The range and the crop window: one undoable edit of the editor.
          onConfirm={(start, end, framing) => engine?.editClip(trimming, start, end, framing)}
          onClose={() => setTrimming(null)}
        />
      )}
    </div>
  );
}
