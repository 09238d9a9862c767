import { useEffect, useReducer, useRef, useState, type RefObject } from 'react';
import { MOMENT_PREVIEW, type Moment } from '../../../contract';
import { ensurePreviewToken } from '../../state/previewTokens';
import { attachPlayer, previewPlaylistUrl, type PlayerHandle } from '../../media/momentPlayer';
import {
  CircuitBreaker,
  INITIAL_PREVIEW,
  isPlaying,
  LoadQueue,
  previewReducer,
  type PreviewEvent,
  type PreviewModel,
  type PreviewReason,
} from '../../media/previewRecovery';

/** One breaker and one loading queue for every card on the page. */
const breaker = new CircuitBreaker();
const queue = new LoadQueue();
let sweeper: ReturnType<typeof setInterval> | null = null;
let cards = 0;

function useSweeper() {
  useEffect(() => {
    cards++;
    sweeper ??= setInterval(() => breaker.sweep(), MOMENT_PREVIEW.breakerCleanupEveryMs);
    return () => {
      cards--;
      if (!cards && sweeper) {
        clearInterval(sweeper);
        sweeper = null;
      }
    };
  }, []);
}

/** Becomes true `delayMs` after the pointer enters, false as soon as it leaves. */
export function useHoverIntent(delayMs: number = MOMENT_PREVIEW.hoverDelayMs) {
  const [hovered, setHovered] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  return {
    hovered,
    onMouseEnter: () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => setHovered(true), delayMs);
    },
    onMouseLeave: () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      setHovered(false);
    },
  };
}

/** Whether the element is on screen (autoplay only plays what can be seen). */
export function useInView(ref: RefObject<Element | null>) {
  const [inView, setInView] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const io = new IntersectionObserver(([entry]) => setInView(Boolean(entry?.isIntersecting)), { rootMargin: '100px' });
    io.observe(el);
    return () => io.disconnect();
  }, [ref]);
  return inView;
}

/**
 * A card's preview: plays the moment's range of the media's HLS preview, muted and looping, while
 * `reason` is set. Loads go through the shared queue (5 at a time); failures are retried 3 times,
 * then loaded directly, then shown as an error that a click retries; 5 failures of one media open
 * its breaker for 30 s.
 */
export function useMomentPreview(
  moment: Moment,
  enabled: boolean,
  reason: PreviewReason | null,
  videoRef: RefObject<HTMLVideoElement | null>,
) {
  const [model, dispatch] = useReducer((m: PreviewModel, e: PreviewEvent) => previewReducer(m, e), INITIAL_PREVIEW);
  const key = `${moment.libraryId}/${moment.mediaId}`;
  useSweeper();

  useEffect(() => {
    dispatch({ type: 'want', reason: enabled ? reason : null });
  }, [enabled, reason]);

  // The stream lives from a load until the preview goes idle or fails; a new attempt starts over.
  const alive = model.status !== 'idle' && model.status !== 'error';
  const { attempt, mode } = model;
  useEffect(() => {
    if (!alive) return;
    if (!breaker.allows(key)) {
      dispatch({ type: 'blocked' });
      return;
    }
    let player: PlayerHandle | null = null;
    let live = true;
    let loaded = false;
    // hls.js may report several fatal errors for one broken load: it counts once.
    let failed = false;
    const fail = (release: () => void) => {
      if (failed || !live) return;
      failed = true;
      release();
      breaker.fail(key);
      dispatch({ type: 'failed' });
    };
    const cancel = queue.enqueue((release) => {
      const video = videoRef.current;
      if (!video) return release();
      void ensurePreviewToken(moment.libraryId).then((token) => {
        // Cancelled while the token was on its way (cancel has freed the slot).
        if (!live) return;
        if (!token) return fail(release);
        player = attachPlayer(video, {
          url: previewPlaylistUrl(moment.libraryId, moment.mediaId, token),
          mode,
          start: moment.startTime,
          end: moment.endTime,
          loop: true,
          autoplay: true,
          onPlaying: () => {
            if (!loaded) {
              loaded = true;
              release();
              breaker.succeed(key);
            }
            dispatch({ type: 'playing' });
          },
          onWaiting: () => dispatch({ type: 'waiting' }),
          onFailed: () => fail(release),
        });
      });
    });
    return () => {
      live = false;
      cancel();
      (player as PlayerHandle | null)?.destroy();
      player = null;
    };
  }, [alive, attempt, mode, key, moment.libraryId, moment.mediaId, moment.startTime, moment.endTime, videoRef]);

  // Pausing and resuming keep the loaded stream.
  const { status } = model;
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    if (status === 'paused') video.pause();
    else if (isPlaying(status) && video.paused) video.play().catch(() => undefined);
  }, [status, videoRef]);

  return { model, retry: () => dispatch({ type: 'retry' }) };
}
