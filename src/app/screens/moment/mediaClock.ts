import { VIDEO_TIME_OFFSET } from '../../../contract';

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
