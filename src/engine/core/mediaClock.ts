import { VIDEO_TIME_OFFSET } from '../../contract';

/** Seconds a player element's clock runs ahead of its media's (measured by the HLS player; 0 until known). */
export function videoTimeOffset(video: HTMLVideoElement): number {
  const raw = Number(video.dataset[VIDEO_TIME_OFFSET.datasetKey] ?? 0);
  return Number.isFinite(raw) ? raw : 0;
}

/** Where the element is, in the media's time (what transcripts, moments and the timeline use). */
export const mediaTimeOf = (video: HTMLVideoElement) => Math.max(0, video.currentTime - videoTimeOffset(video));

/** Seeks the element to a time of the media. */
export function seekMedia(video: HTMLVideoElement, seconds: number) {
  video.currentTime = seconds + videoTimeOffset(video);
}

/**
 * Plays the element. A play() refused because its source was still attaching (hls.js loading it)
 * is asked again once the element can play, if `stillWanted()` then says so: no dead Play.
 */
export function playWhenReady(
  video: HTMLMediaElement,
  stillWanted: () => boolean,
  on: { played?: () => void; refused?: (e: unknown) => void; again?: () => void } = {},
) {
  video.play().then(on.played, (e: unknown) => {
    on.refused?.(e);
    const again = () => {
      if (!stillWanted()) return;
      video.play().catch(() => undefined);
      on.again?.();
    };
    if (video.readyState >= 3) queueMicrotask(again);
    else video.addEventListener('canplay', again, { once: true });
  });
}
