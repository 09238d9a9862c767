import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { MSG_PUBLISH, type Media, type RenderAspect } from '../../contract';
import { centreAt, clampCentre, cropSize } from '../../engine/kernels/cropWindow';
import { momentFraming, setMomentAspect, setMomentCrop } from '../state/momentFraming';
import { Button } from '../ui/Button';
import { Select } from '../ui/Select';
import { CropFrame, cropStatus } from './CropFrame';
import { useFramingPath } from './framingPath';
import { pictureSizeOf } from './mediaInfo';
import { ASPECT_OPTIONS } from './PublishOptions';
import { mediaTimeOf } from '../../engine/core/mediaClock';

/** A moment, as its crop is kept (by moment id) and asked for (its media range). */
export interface CropMoment {
  id: string;
  libraryId: string;
  mediaId: string;
  startTime: number;
  endTime: number;
}

/** The moment's crop as chosen, its window's size over the picture, and the automatic path's query. */
function useMomentCrop(moment: CropMoment, media: Media | undefined) {
  const chosen = useSnapshot(momentFraming).byMoment[moment.id];
  const aspect: RenderAspect = chosen?.aspect ?? 'source';
  const source = pictureSizeOf(media);
  const size = source ? cropSize(aspect, source.width, source.height) : null;
  const path = useFramingPath(moment.libraryId, moment.mediaId, aspect, moment.startTime, moment.endTime, Boolean(size));
  return { aspect, framing: chosen?.framing, source, size, path };
}

/**
 * Issue 39: the crop window over the moment dialog's player, while a shape is chosen for the moment
 * (MomentCropControls): it rides the automatic path at the playing time (every presented frame while
 * playing), and a drag or the arrow keys fix it for the moment, as in the publish dialog. It covers
 * only the picture (the player letterboxes it), and only the window takes the pointer: a click
 * elsewhere still plays and pauses.
 */
export function PlayerCropOverlay({
  moment,
  media,
  video,
}: {
  moment: CropMoment;
  media: Media | undefined;
  video: HTMLVideoElement | null;
}) {
  const { aspect, framing, source, size, path } = useMomentCrop(moment, media);
  const picture = useRef<HTMLDivElement>(null);
  const [time, setTime] = useState(moment.startTime);

  // Whether the window rides the path (a shape that crops, not fixed): `size` is a new object each render.
  const following = Boolean(size) && !framing;
  useEffect(() => {
    if (!video || !following) return;
    let frame = 0;
    const read = () => setTime(mediaTimeOf(video));
    // While playing, once per presented frame (the browser's own clock), else on each seek.
    const onFrame = () => {
      read();
      if (!video.paused) frame = video.requestVideoFrameCallback(onFrame);
    };
    const onPlay = () => (frame = video.requestVideoFrameCallback(onFrame));
    const events = ['seeked', 'timeupdate', 'loadedmetadata'] as const;
    events.forEach((e) => video.addEventListener(e, read));
    video.addEventListener('play', onPlay);
    read();
    if (!video.paused) onPlay();
    return () => {
      events.forEach((e) => video.removeEventListener(e, read));
      video.removeEventListener('play', onPlay);
      video.cancelVideoFrameCallback(frame);
    };
  }, [video, following]);

  if (!size || !source) return null;
  const ratio = source.width / source.height;
  const centre = clampCentre(framing ?? centreAt(path.data?.points ?? [], time), size);
  const status = cropStatus(Boolean(framing), path);
  return (
    <div className="player-crop" data-testid="player-crop">
      <div className="player-crop__status">
        <span aria-live="polite" data-testid="moment-crop-status">
          {status}
        </span>
        {framing && (
          <Button size="sm" variant="secondary" onClick={() => setMomentCrop(moment.id, aspect, undefined)}>
            {MSG_PUBLISH.followSubject}
          </Button>
        )}
      </div>
      <div
        ref={picture}
        className="player-crop__picture"
        style={{ width: `min(100cqw, calc(100cqh * ${ratio.toFixed(4)}))`, height: `min(100cqh, calc(100cqw / ${ratio.toFixed(4)}))` }}
      >
        <CropFrame
          picture={picture}
          size={size}
          centre={centre}
          fixed={Boolean(framing)}
          status={status}
          onMove={(f) => setMomentCrop(moment.id, aspect, f)}
        />
      </div>
    </div>
  );
}

/**
 * Issue 39: the moment's shape for publishing, chosen beside its Start and End: the player then shows
 * the crop window (PlayerCropOverlay), following the subject until dragged, with its state and
 * 'Follow subject' over the picture; the moment's 'MP4 for publishing…' starts from this shape and window.
 */
export function MomentCropControls({ moment, media }: { moment: CropMoment; media: Media | undefined }) {
  const { aspect, source, size } = useMomentCrop(moment, media);
  if (!source) return null;
  return (
    <div className="moment-crop" data-testid="moment-crop">
      <Select<RenderAspect>
        label={MSG_PUBLISH.crop}
        value={aspect}
        options={ASPECT_OPTIONS}
        onValueChange={(a) => setMomentAspect(moment.id, a)}
      />
      {aspect !== 'source' && !size && <span className="muted">{MSG_PUBLISH.cropNone}</span>}
    </div>
  );
}
