import type Hls from 'hls.js';
import { API, MOMENT_PREVIEW, VIDEO_TIME_OFFSET } from '../../contract';
import { API_BASE } from '../config';
import type { PreviewMode } from './previewRecovery';

/** hls.js is loaded on first use, once (house style 6: lazy, self-hosted). */
let hlsModule: Promise<typeof Hls> | null = null;
export const loadHls = () => (hlsModule ??= import('hls.js/light').then((m) => m.default));

/** The HLS preview playlist of a media, authorised by the library preview token. */
export const previewPlaylistUrl = (libraryId: string, mediaId: string, token: string) =>
  `${API_BASE}${API.mediaPreview(libraryId, mediaId)}?token=${encodeURIComponent(token)}`;

export interface PlayerOptions {
  url: string;
  mode: PreviewMode;
  /** Seconds. Playback starts here. */
  start: number;
  /** With `loop`, playback returns to `start` on reaching `end`, and is kept inside the range. */
  end: number;
  loop: boolean;
  /** Start playing as soon as there is something to play. */
  autoplay: boolean;
  onPlaying?: () => void;
  onWaiting?: () => void;
  onFailed?: (reason: string) => void;
}

export interface PlayerHandle {
  setLoop(loop: boolean): void;
  destroy(): void;
}

/**
 * Plays a media's HLS preview in `video`: through hls.js, or (mode 'direct', or where hls.js has no
 * MediaSource to work with) by handing the playlist to the element. One handle, one teardown: the
 * hls instance, the listeners and the element's source all go with `destroy`.
 */
export function attachPlayer(video: HTMLVideoElement, o: PlayerOptions): PlayerHandle {
  let destroyed = false;
  let loop = o.loop;
  let hls: Hls | null = null;
  const fail = (reason: string) => {
    if (!destroyed) o.onFailed?.(reason);
  };

  const onTime = () => {
    if (!loop) return;
    // Kept inside the moment: the end goes back to the start, and so does a seek before it.
    if (video.currentTime >= o.end || video.currentTime < o.start - 0.5) video.currentTime = o.start;
  };
  const onPlaying = () => o.onPlaying?.();
  const onWaiting = () => o.onWaiting?.();
  const onError = () => fail(video.error?.message || 'The video could not be played.');
  const onMeta = () => {
    if (Math.abs(video.currentTime - o.start) > 0.25) video.currentTime = o.start;
    if (o.autoplay) video.play().catch(() => undefined);
  };
  video.addEventListener('timeupdate', onTime);
  video.addEventListener('playing', onPlaying);
  video.addEventListener('waiting', onWaiting);
  video.addEventListener('loadedmetadata', onMeta);

  const direct = () => {
    video.addEventListener('error', onError);
    video.src = o.url;
  };

  if (o.mode === 'direct') direct();
  else
    loadHls().then(
      (HlsClass) => {
        if (destroyed) return;
        if (!HlsClass.isSupported()) {
          direct();
          return;
        }
        hls = new HlsClass({
          startPosition: o.start,
          maxBufferLength: MOMENT_PREVIEW.bufferMaxSeconds,
          maxMaxBufferLength: MOMENT_PREVIEW.bufferMaxSeconds,
          // A failure is the card's to handle (retries, fallback, breaker): hls.js should not loop on it.
          manifestLoadingMaxRetry: 0,
          levelLoadingMaxRetry: 1,
          fragLoadingMaxRetry: 2,
        });
        hls.on(HlsClass.Events.ERROR, (_event, data) => {
          if (data.fatal) fail(data.details);
        });
        // How far the element's clock runs ahead of the media's (B-frame delay; see VIDEO_TIME_OFFSET),
        // measured on the first picture appended, as hls.js's maintainers advise.
        const onAppended = (
          _event: unknown,
          data: { frag: { type: string; start: number; elementaryStreams: { video?: { startPTS: number } | null } } },
        ) => {
          const v = data.frag.type === 'main' ? data.frag.elementaryStreams.video : undefined;
          if (!v || !Number.isFinite(v.startPTS)) return;
          hls?.off(HlsClass.Events.BUFFER_APPENDED, onAppended);
          const offset = Math.max(0, Math.min(1, v.startPTS - data.frag.start));
          video.dataset[VIDEO_TIME_OFFSET.datasetKey] = offset.toFixed(6);
          video.dispatchEvent(new Event(VIDEO_TIME_OFFSET.event));
        };
        hls.on(HlsClass.Events.BUFFER_APPENDED, onAppended);
        hls.loadSource(o.url);
        hls.attachMedia(video);
      },
      () => fail('The player could not be loaded.'),
    );

  return {
    setLoop(value) {
      loop = value;
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      video.removeEventListener('timeupdate', onTime);
      video.removeEventListener('playing', onPlaying);
      video.removeEventListener('waiting', onWaiting);
      video.removeEventListener('loadedmetadata', onMeta);
      video.removeEventListener('error', onError);
      hls?.destroy();
      hls = null;
      delete video.dataset[VIDEO_TIME_OFFSET.datasetKey];
      video.removeAttribute('src');
      video.load();
    },
  };
}
