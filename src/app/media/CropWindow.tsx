import { useEffect, useId, useRef, useState } from 'react';
import { MSG_PUBLISH, RENDER_ASPECT_LABELS, type ClipFraming, type RenderAspect } from '../../contract';
import { centreAt, clampCentre, type CropSize } from '../../engine/kernels/cropWindow';
import { CropFrame, cropStatus } from './CropFrame';
import { usePreviewToken } from '../hooks/usePreviewToken';
import { Button } from '../ui/Button';
import { Slider } from '../ui/Slider';
import { formatPreciseTimecode } from '../ui/format';
import { useFramingPath } from './framingPath';
import { attachPlayer, previewPlaylistUrl } from './momentPlayer';

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
  const status = cropStatus(Boolean(framing), path);

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
        <CropFrame
          picture={picture}
          size={size}
          centre={centre}
          fixed={Boolean(framing)}
          status={status}
          describedBy={hintId}
          onMove={onFramingChange}
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
