import { useDrag } from '@use-gesture/react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { MSG_PUBLISH, RENDER_ASPECT_LABELS, type ClipFraming, type RenderAspect } from '../../contract';
import { centreAt, clampCentre, type CropSize } from '../../engine/kernels/cropWindow';
import { usePreviewToken } from '../hooks/usePreviewToken';
import { Button } from '../ui/Button';
import { Slider } from '../ui/Slider';
import { formatPreciseTimecode } from '../ui/format';
import { useFramingPath } from './framingPath';
import { attachPlayer, previewPlaylistUrl } from './momentPlayer';

/** An arrow key moves the window this share of the picture; with Shift, ten times more. */
const KEY_STEP = 0.01;

/**
 * Issue 39: the crop window of an aspect over a clip's picture, at a time of the clip chosen with the
 * slider. It sits where the render puts it: on the automatic path that follows the subject
 * (API.mediaFraming), or where the user fixed it. Dragging it (mouse, pen or touch) or the arrow keys
 * while it has focus fix it for the clip; 'Follow subject' gives it back to the path.
 */
export function CropWindow({
  libraryId,
  mediaId,
  range,
  aspect,
  size,
  sourceSize,
  framing,
  onFramingChange,
}: {
  libraryId: string;
  mediaId: string;
  range: { startTime: number; endTime: number };
  aspect: RenderAspect;
  /** The window's size over the picture (cropWindow.cropSize). */
  size: CropSize;
  sourceSize: { width: number; height: number };
  framing: ClipFraming | undefined;
  onFramingChange: (framing: ClipFraming | undefined) => void;
}) {
  const [time, setTime] = useState(range.startTime);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const picture = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const token = usePreviewToken(libraryId);
  const path = useFramingPath(libraryId, mediaId, aspect, range.startTime, range.endTime, true);
  const start = range.startTime;
  const end = range.endTime;

  // The picture at the slider's time: the media's preview, paused there.
  useEffect(() => {
    if (!video || !token) return;
    const handle = attachPlayer(video, {
      url: previewPlaylistUrl(libraryId, mediaId, token),
      mode: 'hls',
      start,
      end,
      loop: false,
      autoplay: false,
    });
    return () => handle.destroy();
  }, [video, token, libraryId, mediaId, start, end]);
  useEffect(() => {
    if (video && video.readyState > 0 && Math.abs(video.currentTime - time) > 0.02) video.currentTime = time;
  }, [video, time]);
  useEffect(() => setTime((t) => Math.min(end, Math.max(start, t))), [start, end]);

  const centre = clampCentre(framing ?? centreAt(path.data?.points ?? [], time), size);
  const horizontal = size.width < 1;
  const move = (next: ClipFraming) => onFramingChange(clampCentre(next, size));

  const bind = useDrag(
    ({ movement: [mx, my], memo, first, type }) => {
      // Pointers and fingers only (pointer.touch: touch events): the arrow keys are ours, and the
      // gesture's key-up replayed its last drag.
      if (type.startsWith('key')) return memo as ClipFraming | undefined;
      const from = (first || !memo ? centre : memo) as ClipFraming;
      const box = picture.current?.getBoundingClientRect();
      if (box && box.width > 0 && box.height > 0) move({ x: from.x + mx / box.width, y: from.y + my / box.height });
      return from;
    },
    { pointer: { touch: true }, filterTaps: true, keys: false },
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? KEY_STEP * 10 : KEY_STEP;
    const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
    if (!d) return;
    e.preventDefault();
    e.stopPropagation();
    move({ x: centre.x + d[0]!, y: centre.y + d[1]! });
  };

  const status = framing
    ? MSG_PUBLISH.fixed
    : path.isError
      ? MSG_PUBLISH.framingUnavailable
      : path.data && !path.data.subject
        ? MSG_PUBLISH.followingNothing
        : MSG_PUBLISH.following;
  const percent = Math.round((horizontal ? centre.x : centre.y) * 100);

  return (
    <section className="crop-view" aria-label={`${MSG_PUBLISH.cropWindow}: ${RENDER_ASPECT_LABELS[aspect]}`} data-testid="crop-view">
      <div
        ref={picture}
        className="crop-view__picture"
        style={{
          aspectRatio: `${sourceSize.width} / ${sourceSize.height}`,
          width: `min(100%, calc(46vh * ${(sourceSize.width / sourceSize.height).toFixed(4)}))`,
        }}
      >
        <video ref={setVideo} className="crop-view__video" muted playsInline preload="auto" />
        <div
          {...bind()}
          className={`crop-view__window${framing ? ' crop-view__window--fixed' : ''}`}
          data-testid="crop-window"
          style={{
            left: `${(centre.x - size.width / 2) * 100}%`,
            top: `${(centre.y - size.height / 2) * 100}%`,
            width: `${size.width * 100}%`,
            height: `${size.height * 100}%`,
          }}
          tabIndex={0}
          role="slider"
          aria-label={MSG_PUBLISH.cropWindow}
          aria-describedby={hintId}
          aria-orientation={horizontal ? 'horizontal' : 'vertical'}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${percent} %, ${status}`}
          data-x={centre.x.toFixed(4)}
          data-y={centre.y.toFixed(4)}
          onKeyDown={onKeyDown}
        />
      </div>
      <div className="crop-view__controls">
        <Slider
          className="crop-view__time"
          label={MSG_PUBLISH.cropTime}
          value={time}
          min={start}
          max={end}
          step={0.04}
          valueText={formatPreciseTimecode(time)}
          onValueChange={setTime}
        />
        <span className="crop-view__clock muted">{formatPreciseTimecode(time)}</span>
      </div>
      <div className="crop-view__status">
        <span className="muted" aria-live="polite" data-testid="crop-status">
          {status}
        </span>
        <Button size="sm" variant="secondary" onClick={() => onFramingChange(undefined)} disabled={!framing}>
          {MSG_PUBLISH.followSubject}
        </Button>
      </div>
      <p id={hintId} className="crop-view__hint muted">
        {MSG_PUBLISH.cropHint}
      </p>
    </section>
  );
}
