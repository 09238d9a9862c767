import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  type RefObject,
} from 'react';
import { MSG_MOMENT, type Media } from '../../contract';
import { focusedByKeyboard, watchFocusOrigin } from '../../engine/core/focusOrigin';
import { takesSpace } from '../../engine/kernels';
import type { TimeRange } from '../state/momentEdits';
import { usePreviewToken } from '../hooks/usePreviewToken';
import { thumbnailUrl } from '../state/previewTokens';
import { IconButton } from '../ui/Button';
import { IconAlert, IconFilm, IconFullscreen, IconFullscreenExit, IconPause, IconPlay } from '../ui/icons';
import { SegmentedControl } from '../ui/SegmentedControl';
import { Tooltip } from '../ui/Tooltip';
import { attachPlayer, previewPlaylistUrl } from './momentPlayer';
import { mediaTimeOf, playWhenReady, seekMedia } from '../../engine/core/mediaClock';
import { arrowSeek } from './playerRules';
import { TimeInput } from './TimeInput';
import { useSessionSound, VolumeControl } from './VolumeControl';
import { formatClock } from '../ui/format';
import '../moment/moment.css';

/** Moment mode (spec section 4): loop the moment, or play the whole media. */
export type MomentMode = 'moment' | 'full';

export interface MomentPlayerHandle {
  /** Seeks to `seconds` (clamped to the media); a time outside the moment switches to Full video. */
  seek(seconds: number): void;
  pause(): void;
  /** The element a dialog around the player focuses first: the video, or the still picture. */
  focusTarget(): HTMLElement | null;
}

/** A moment seek before its start by more than this is a seek away from it, not a loop's overshoot. */
const LOOP_SLACK_SECONDS = 0.5;

const clamp = (t: number, duration: number) => Math.max(0, duration > 0 ? Math.min(duration, t) : t);

/**
 * The moment viewer's player (spec section 2): a media's HLS preview with custom controls (play,
 * time input, volume, Moment / Full video, fullscreen), the spec's keyboard (arrows seek 5 s, space
 * plays), and a retry overlay when loading fails. With a `range` it starts in Moment mode, looping
 * it; without one it plays the full video only. `onVideo` receives the video element (for the
 * timeline and the lines panel); current time stays in the element and this component.
 */
export function MomentPlayer({
  media,
  libraryId,
  mediaId,
  range,
  onVideo,
  onModeChange,
  overlay,
  ref,
}: {
  media: Media | undefined;
  libraryId: string;
  mediaId: string;
  range: TimeRange | null;
  onVideo?: (video: HTMLVideoElement | null) => void;
  /** The mode that plays now (Full video without a range), told on every change. */
  onModeChange?: (mode: MomentMode) => void;
  /** Drawn over the picture (the moment dialog's crop window). */
  overlay?: ReactNode;
  ref?: Ref<MomentPlayerHandle>;
}) {
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [mode, setOwnMode] = useState<MomentMode>(range ? 'moment' : 'full');
  // A mode change is told in the same update (not from an effect after it), so that what the dialog
  // does with it (Home and End) is never a render behind the Moment / Full video control.
  const tell = useRef(onModeChange);
  tell.current = onModeChange;
  const setMode = useCallback((next: MomentMode) => {
    setOwnMode(next);
    tell.current?.(next);
  }, []);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const container = useRef<HTMLDivElement>(null);
  // Focusable (not a tab stop: Play is the keyboard's control) so that a dialog can start on the
  // player, where Space plays and pauses, and a click on the picture puts focus there too.
  const stage = useRef<HTMLElement | null>(null);
  const videoRef = useCallback((el: HTMLVideoElement | null) => {
    stage.current = el;
    setVideo(el);
  }, []);
  const stillRef = useCallback((el: HTMLDivElement | null) => void (stage.current = el), []);
  const playable = Boolean(media && media.kind === 'video' && media.capabilities.preview);
  // Asked for when the media plays; its poster shows with the token the page has.
  const token = usePreviewToken(libraryId, playable);
  const [elementDuration, setElementDuration] = useState(0);
  const duration = media?.metadata.video.duration || elementDuration;

  const start = range?.startTime ?? null;
  const end = range?.endTime ?? null;
  // The loop the listeners keep, current without re-attaching the stream.
  const loop = useRef<TimeRange | null>(null);
  // Where a (re)load starts: the moment, then wherever playback was.
  const resumeAt = useRef(start ?? 0);

  // (for Space: how focus reached the control it is pressed on)
  useEffect(() => watchFocusOrigin(), []);

  useEffect(() => {
    onVideo?.(video);
    return () => onVideo?.(null);
  }, [video, onVideo]);

  // (and the first mode, or Full video once the range is gone)
  const shownMode: MomentMode = range ? mode : 'full';
  useEffect(() => tell.current?.(shownMode), [shownMode]);

  useEffect(() => {
    if (!playable || !token || !video) return;
    setFailed(false);
    const handle = attachPlayer(video, {
      url: previewPlaylistUrl(libraryId, mediaId, token),
      mode: 'hls',
      start: resumeAt.current,
      end: Number.POSITIVE_INFINITY,
      // The loop is kept here, where the range can change without reloading the stream.
      loop: false,
      autoplay: true,
      onFailed: () => setFailed(true),
    });
    return () => handle.destroy();
  }, [playable, token, video, attempt, libraryId, mediaId]);

  useEffect(() => {
    if (!video) return;
    const keep = () => {
      // A seek in flight decides the mode when its 'seeking' event runs (below); a timeupdate queued
      // before it (the one a pause fires) must not pull that seek back into the moment first.
      if (video.seeking) return;
      const r = loop.current;
      const now = mediaTimeOf(video);
      if (r && (now >= r.endTime || now < r.startTime - LOOP_SLACK_SECONDS)) seekMedia(video, r.startTime);
      resumeAt.current = video.currentTime;
    };
    // A seek from outside the player (the timeline: Home, End, a click on the ruler, a playhead drag)
    // to a time outside the moment leaves Moment mode, as the player's own seek does. Without this
    // the loop above pulled every such seek back to the moment's start (End acted like Home).
    const leave = () => {
      const r = loop.current;
      const now = mediaTimeOf(video);
      if (!r || (now < r.endTime && now >= r.startTime - LOOP_SLACK_SECONDS)) return;
      loop.current = null;
      setMode('full');
    };
    const onDuration = () => setElementDuration(Number.isFinite(video.duration) ? video.duration : 0);
    video.addEventListener('seeking', leave);
    video.addEventListener('timeupdate', keep);
    video.addEventListener('durationchange', onDuration);
    return () => {
      video.removeEventListener('seeking', leave);
      video.removeEventListener('timeupdate', keep);
      video.removeEventListener('durationchange', onDuration);
    };
  }, [video, setMode]);

  // Moment mode plays the moment: entering it, or a new range, brings playback inside.
  useEffect(() => {
    loop.current = mode === 'moment' && start !== null && end !== null ? { startTime: start, endTime: end } : null;
    if (!video || !loop.current) return;
    const now = mediaTimeOf(video);
    if (now < start! || now >= end!) seekMedia(video, start!);
  }, [mode, start, end, video]);

  const seek = useCallback(
    (seconds: number) => {
      if (!video) return;
      const t = clamp(seconds, duration);
      const r = loop.current;
      if (r && (t < r.startTime || t >= r.endTime)) {
        loop.current = null;
        setMode('full');
      }
      seekMedia(video, t);
    },
    [video, duration, setMode],
  );
  useImperativeHandle(ref, () => ({ seek, pause: () => video?.pause(), focusTarget: () => stage.current }), [seek, video]);

  // `play` is what the control showed (its label): a click on Play plays even while an autoplay's
  // play() is still pending (the element no longer paused, its 'play' event not yet handled), where
  // going by `video.paused` alone turned that click into a pause.
  // A play() refused because the stream was still attaching (hls.js loading the source) is asked
  // again once the element can play, unless the user has pressed anything since: no dead click.
  const toggles = useRef(0);
  const togglePlay = useCallback(
    (play?: boolean) => {
      if (!video) return;
      const asked = ++toggles.current;
      if (!(play ?? video.paused)) return video.pause();
      playWhenReady(video, () => toggles.current === asked && video.paused);
    },
    [video],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    // The timeline, when there is one, has already handled the key (frame-exact, same rules).
    if (e.nativeEvent.defaultPrevented) return;
    if (e.key === ' ') {
      // The same rule as the timeline's: a text field or a control reached by Tab keeps its Space.
      if (takesSpace(target, focusedByKeyboard(target))) return;
      e.preventDefault();
      togglePlay();
    } else if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && video) {
      // The arrows are the field's or the control's while one has them (section 5).
      if (target.closest('input, textarea, [contenteditable="true"], [role="slider"], [role="radio"]')) return;
      e.preventDefault();
      seek(arrowSeek(mediaTimeOf(video), e.key === 'ArrowLeft' ? -1 : 1, duration));
    }
  };

  const poster = token ? thumbnailUrl(libraryId, mediaId, token, start ?? undefined) : undefined;
  if (!playable)
    return (
      <div className="moment-player">
        <div ref={stillRef} className="moment-player__stage moment-player__stage--still" tabIndex={-1}>
          {poster && media ? <img src={poster} alt="" /> : <IconFilm size={32} />}
          {!media && <p className="moment-player__note">{MSG_MOMENT.notFound}</p>}
        </div>
      </div>
    );

  return (
    <div ref={container} className="moment-player" onKeyDown={onKeyDown}>
      <div className="moment-player__stage">
        <video
          ref={videoRef}
          tabIndex={-1}
          poster={poster}
          playsInline
          aria-label={`Video ${media?.metadata.name ?? ''}`.trim()}
          onClick={() => togglePlay()}
        />
        {overlay}
        {failed && (
          <Tooltip content={MSG_MOMENT.retryLoading} side="top">
            <button type="button" className="moment-player__retry cover" onClick={() => setAttempt((n) => n + 1)}>
              <IconAlert size={18} /> {MSG_MOMENT.retryLoading}
            </button>
          </Tooltip>
        )}
      </div>
      <PlayerControls
        video={video}
        duration={duration}
        container={container}
        mode={range ? mode : null}
        onModeChange={setMode}
        onSeek={seek}
        onTogglePlay={togglePlay}
      />
    </div>
  );
}

/** The bar under the picture. Playing state and time follow the element's events, here only. */
function PlayerControls({
  video,
  duration,
  container,
  mode,
  onModeChange,
  onSeek,
  onTogglePlay,
}: {
  video: HTMLVideoElement | null;
  duration: number;
  container: RefObject<HTMLDivElement | null>;
  mode: MomentMode | null;
  onModeChange: (mode: MomentMode) => void;
  onSeek: (seconds: number) => void;
  onTogglePlay: (play: boolean) => void;
}) {
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [fullscreen, setFullscreen] = useState(false);
  useSessionSound(video);

  useEffect(() => {
    if (!video) return;
    const onPlayState = () => setPlaying(!video.paused);
    const onTime = () => setTime(mediaTimeOf(video));
    const events = ['play', 'pause', 'ended'] as const;
    const timeEvents = ['timeupdate', 'seeking', 'seeked', 'loadedmetadata', 'emptied'] as const;
    events.forEach((e) => video.addEventListener(e, onPlayState));
    timeEvents.forEach((e) => video.addEventListener(e, onTime));
    onPlayState();
    onTime();
    return () => {
      events.forEach((e) => video.removeEventListener(e, onPlayState));
      timeEvents.forEach((e) => video.removeEventListener(e, onTime));
    };
  }, [video]);

  useEffect(() => {
    const onChange = () => setFullscreen(Boolean(container.current) && document.fullscreenElement === container.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, [container]);

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void container.current?.requestFullscreen().catch(() => undefined);
  };

  return (
    <div className="moment-player__controls">
      <IconButton
        label={playing ? 'Pause' : 'Play'}
        className="moment-player__button"
        onClick={() => onTogglePlay(!playing)}
        disabled={!video}
      >
        {playing ? <IconPause size={18} /> : <IconPlay size={18} />}
      </IconButton>
      <span className="moment-player__time">
        <TimeInput value={time} max={duration} onCommit={onSeek} label="Current time" disabled={!video} />
        <span className="moment-player__duration">/ {formatClock(duration)}</span>
      </span>
      <VolumeControl />
      <span className="moment-player__spacer" />
      {mode && (
        <SegmentedControl<MomentMode>
          label="Play"
          value={mode}
          onValueChange={onModeChange}
          options={[
            { value: 'moment', label: MSG_MOMENT.moment },
            { value: 'full', label: MSG_MOMENT.fullVideo },
          ]}
        />
      )}
      <IconButton label={fullscreen ? 'Exit full screen' : 'Full screen'} className="moment-player__button" onClick={toggleFullscreen}>
        {fullscreen ? <IconFullscreenExit size={18} /> : <IconFullscreen size={18} />}
      </IconButton>
    </div>
  );
}
