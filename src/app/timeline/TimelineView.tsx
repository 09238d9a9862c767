import { useGesture } from '@use-gesture/react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { formatTimecode, sliderToZoom, wheelIntent, zoomToSlider } from '../../engine/kernels';
import type { ThumbnailSource } from '../../engine/thumbnailSource';
import { TimelineEngine, type MomentRange, type TimelineMedia } from '../../engine/TimelineEngine';
import { IconMinus, IconPlus } from '../ui/icons';
import { Slider } from '../ui/Slider';
import { KeyboardHelp, type HomeEndTarget } from './KeyboardHelp';
import { useEngineValue } from './useEngineValue';
import './timeline.css';

export interface TimelineViewProps {
  media: TimelineMedia;
  range: MomentRange | null;
  onRangeCommit(range: MomentRange): void;
  thumbnails: ThumbnailSource | null;
  video: HTMLVideoElement | null;
  onEngine?(engine: TimelineEngine | null): void;
  onThumbnailError?(message: string): void;
  /** What Home and End go to the ends of: the video (default), or the range (the moment dialog's Moment mode). */
  homeEnd?: HomeEndTarget;
}

/** Zoom buttons multiply or divide by this. */
const ZOOM_STEP = 1.5;
/** Slider resolution: positions 0..SLIDER_STEPS map logarithmically onto 100..10 000 %. */
const SLIDER_STEPS = 1000;

const selectZoom = (s: { zoom: number }) => s.zoom;
const selectTime = (s: { time: number }) => s.time;
const selectFrameRate = (s: { frameRate: number }) => s.frameRate;

/**
 * The timeline (ruler, thumbnails, moment range, playhead) with its zoom toolbar. The engine is
 * created on mount and destroyed on unmount; prop changes are passed through to it.
 */
export function TimelineView({
  media,
  range,
  onRangeCommit,
  thumbnails,
  video,
  onEngine,
  onThumbnailError,
  homeEnd = 'media',
}: TimelineViewProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const [engine, setEngine] = useState<TimelineEngine | null>(null);

  // Callbacks and first values reach the engine through refs, so changing them never recreates it.
  const latest = useRef({ onRangeCommit, onEngine, onThumbnailError, range, thumbnails });
  useEffect(() => {
    latest.current = { onRangeCommit, onEngine, onThumbnailError, range, thumbnails };
  });

  const { duration, frameRate, width, height } = media;
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    let cancelled = false;
    let created: TimelineEngine | null = null;
    TimelineEngine.create({
      container: host,
      // Keys belong to the dialog the timeline is in (a trim dialog over a moment dialog gets its own).
      keyTarget: host.closest('[role="dialog"]') ?? window,
      media: { duration, frameRate, width, height },
      range: latest.current.range,
      thumbnails: latest.current.thumbnails,
      onRangeCommit: (r) => latest.current.onRangeCommit(r),
      onThumbnailError: (m) => latest.current.onThumbnailError?.(m),
    }).then(
      (e) => {
        // Unmounted (or StrictMode's first mount) while Pixi was initialising.
        if (cancelled) return e.destroy();
        created = e;
        setEngine(e);
        latest.current.onEngine?.(e);
      },
      (error: unknown) => {
        if (!cancelled) console.error('timeline failed to start', error);
      },
    );
    return () => {
      cancelled = true;
      if (created) {
        created.destroy();
        latest.current.onEngine?.(null);
      }
      setEngine(null);
    };
  }, [duration, frameRate, width, height]);

  const rangeStart = range?.start;
  const rangeEnd = range?.end;
  useEffect(() => {
    engine?.setRange(rangeStart === undefined || rangeEnd === undefined ? null : { start: rangeStart, end: rangeEnd });
  }, [engine, rangeStart, rangeEnd]);

  useEffect(() => engine?.attachVideo(video), [engine, video]);
  useEffect(() => engine?.setThumbnails(thumbnails), [engine, thumbnails]);
  // (in the commit that changed it: a key pressed right after Moment / Full video goes to the right ends)
  useLayoutEffect(() => engine?.setHomeEnd(homeEnd), [engine, homeEnd]);

  useGesture(
    {
      onWheel: ({ event, last }) => {
        // use-gesture ends a wheel gesture by replaying its last event with `last` set: skip it.
        if (!engine || last) return;
        const intent = wheelIntent(event, hostRef.current?.clientWidth);
        if (!intent) return;
        event.preventDefault();
        if (intent.type === 'zoom') engine.zoomBy(intent.factor, event.clientX);
        else engine.panBy(intent.px);
      },
      // Touch pinch (trackpad pinch arrives as ctrl+wheel and is handled above). The engine undoes the
      // drag the first finger began when the second one lands, so a pinch neither seeks nor moves the range.
      onPinch: ({ event, origin: [ox], movement: [scale], first, memo }) => {
        if (!engine || event.type === 'wheel') return memo as number | undefined;
        const previous = first ? 1 : ((memo as number | undefined) ?? 1);
        if (scale > 0) engine.zoomBy(scale / previous, ox);
        return scale;
      },
    },
    { target: hostRef, eventOptions: { passive: false }, pinch: { pointer: { touch: true } } },
  );

  const zoom = useEngineValue(engine, selectZoom);
  const time = useEngineValue(engine, selectTime);
  const fps = useEngineValue(engine, selectFrameRate);

  return (
    <div className="timeline" role="group" aria-label="Timeline">
      <div ref={hostRef} className="timeline__canvas" data-testid="timeline-canvas" />
      <div className="timeline__toolbar">
        <button
          type="button"
          className="icon-btn timeline__zoom-btn"
          aria-label="Zoom out"
          disabled={!engine}
          onClick={() => engine?.zoomBy(1 / ZOOM_STEP)}
        >
          <IconMinus size={18} />
        </button>
        <Slider
          className="timeline__zoom"
          label="Zoom"
          min={0}
          max={SLIDER_STEPS}
          value={Math.round(zoomToSlider(zoom) * SLIDER_STEPS)}
          valueText={`${Math.round(zoom)} %`}
          disabled={!engine}
          onValueChange={(v) => engine?.setZoom(sliderToZoom(v / SLIDER_STEPS))}
        />
        <button
          type="button"
          className="icon-btn timeline__zoom-btn"
          aria-label="Zoom in"
          disabled={!engine}
          onClick={() => engine?.zoomBy(ZOOM_STEP)}
        >
          <IconPlus size={18} />
        </button>
        <span className="timeline__zoom-value" aria-live="off">
          {Math.round(zoom)} %
        </span>
        <span className="timeline__timecode" aria-label="Playhead">
          {formatTimecode(time, fps)}
        </span>
        <KeyboardHelp homeEnd={homeEnd} />
      </div>
    </div>
  );
}
