import { VIDEO_TIME_OFFSET } from '../../contract';
import { frameAt, frameTime, lastFrame, nearestFrame, nextShuttle, reveal } from '../kernels';
import type { Teardown } from '../Teardown';
import type { EngineState, TimelineHost } from './types';

/** Emulated playback (reverse shuttle, or no video element) steps at this interval. */
export const EMULATED_TICK_MS = 40;

type VideoFrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?(cb: (now: number, meta: { mediaTime: number }) => void): number;
  cancelVideoFrameCallback?(handle: number): void;
};

/**
 * The timeline's playhead and the <video> it follows: frame-accurate seeks, frame steps, play and
 * pause, J/K/L shuttle. Forward playback uses the element (its frames move the playhead through
 * requestVideoFrameCallback); reverse, which HTML video cannot do, and playback without an element
 * are emulated by stepping the position on a timer.
 */
export class VideoPlayback {
  private video: VideoFrameCallbackVideo | null = null;
  private videoTeardown: Teardown | null = null;
  private stopVideoFrames: (() => void) | null = null;
  private stopEmulation: (() => void) | null = null;

  constructor(private readonly host: TimelineHost) {}

  private get state(): EngineState {
    return this.host.state();
  }

  /** Moves the playhead to the frame boundary nearest `seconds` (clamped to the media) and seeks the video; `revealIt` scrolls the view to it. */
  seekTo(seconds: number, revealIt: boolean) {
    const { fps, duration } = this.host;
    if (this.host.teardown.disposed || !Number.isFinite(seconds)) return;
    const frame = nearestFrame(seconds, fps, duration);
    // The element is sent to the middle of the frame: a boundary time can round to the frame before
    // (0.12 s is 0.11999… in binary) and decoders differ on which side of a boundary they show.
    const shown = this.pictureFrame(frame);
    const mid = frameTime(shown + 0.5, fps);
    const target = (mid < duration ? mid : frameTime(shown, fps)) + this.videoOffset();
    if (this.video && Math.abs(this.video.currentTime - target) > 1e-6) this.video.currentTime = target;
    this.showFrame(frame, revealIt);
  }

  /**
   * The frame the picture shows at playhead position `frame`: itself, except at the media's end
   * boundary (End), which shows the last frame (at the very end an HLS stream shows none).
   */
  private pictureFrame(frame: number): number {
    return Math.min(frame, Math.max(0, Math.ceil(this.host.duration * this.host.fps - 1e-6) - 1));
  }

  private showFrame(frame: number, revealIt: boolean) {
    const time = frameTime(frame, this.host.fps);
    const patch: Partial<EngineState> = { time, frame };
    if (revealIt) patch.viewStart = reveal(this.host.viewport(), time, 24).viewStart;
    this.host.patch(patch);
  }

  /** Steps `n` frames (negative: back), pausing first. */
  stepFrames(n: number) {
    if (this.host.teardown.disposed) return;
    this.runShuttle(0);
    this.seekTo(frameTime(this.state.frame + Math.trunc(n), this.host.fps), true);
  }

  /**
   * Whether playback runs now. Forward playback is the element's, so its own `paused` says: its 'play'
   * and 'pause' events, which set `playing`, come a task later, and Space pressed just after a click
   * that paused the picture read the timeline as still playing and paused it again.
   */
  get isPlaying(): boolean {
    if (this.stopEmulation) return true;
    return this.video ? !this.video.paused : this.state.playing;
  }

  /** J (-1), K (0), L (+1): the next shuttle rate from the current one. */
  shuttle(direction: -1 | 0 | 1) {
    this.runShuttle(nextShuttle(this.state.shuttle, direction));
  }

  /** Plays at `rate` (negative: reverse, emulated), or pauses at 0. */
  runShuttle(rate: number) {
    const { fps, duration, teardown } = this.host;
    if (teardown.disposed) return;
    this.stopEmulation?.();
    this.stopEmulation = null;
    const video = this.video;
    if (rate === 0) {
      video?.pause();
      this.host.patch({ shuttle: 0, playing: false });
      return;
    }
    if (rate > 0 && video) {
      if (this.state.frame >= lastFrame(duration, fps)) this.seekTo(0, true);
      video.playbackRate = rate;
      this.host.patch({ shuttle: rate, playing: true });
      video.play().catch(() => {
        if (this.video === video && this.state.shuttle === rate) this.host.patch({ shuttle: 0, playing: false });
      });
      return;
    }
    video?.pause();
    this.host.patch({ shuttle: rate, playing: true });
    let last = performance.now();
    let position = this.state.time;
    this.stopEmulation = teardown.interval(() => {
      const now = performance.now();
      position += (rate * (now - last)) / 1000;
      last = now;
      const end = frameTime(lastFrame(duration, fps), fps);
      const stop = position <= 0 || position >= end;
      this.seekTo(Math.min(end, Math.max(0, position)), true);
      if (stop) this.runShuttle(0);
    }, EMULATED_TICK_MS);
  }

  /** Seconds the attached element's clock runs ahead of the media's (see VIDEO_TIME_OFFSET). */
  private videoOffset(): number {
    const raw = Number(this.video?.dataset?.[VIDEO_TIME_OFFSET.datasetKey] ?? 0);
    return Number.isFinite(raw) ? raw : 0;
  }

  /** Follows `video` (or nothing): the playhead tracks its frames; play/pause/seek/shuttle drive it. */
  attach(video: HTMLVideoElement | null) {
    const { fps, duration } = this.host;
    if (this.host.teardown.disposed || video === this.video) return;
    this.stopEmulation?.();
    this.stopEmulation = null;
    this.videoTeardown?.dispose();
    this.videoTeardown = null;
    this.stopVideoFrames = null;
    this.video = video;
    if (!video) {
      this.host.patch({ playing: false, shuttle: 0 });
      return;
    }
    const td = this.host.teardown.child();
    this.videoTeardown = td;
    const v = video as VideoFrameCallbackVideo;
    const follow = () => {
      if (this.video !== v || this.state.dragging === 'playhead') return;
      const frame = frameAt(v.currentTime - this.videoOffset(), fps, duration);
      // The element showing the last frame for the end boundary leaves the playhead at the end.
      if (frame !== this.state.frame && frame === this.pictureFrame(this.state.frame)) return;
      this.showFrame(frame, this.state.playing);
    };
    const startFrames = () => {
      if (this.stopVideoFrames || !v.requestVideoFrameCallback) return;
      let handle = 0;
      const loop = (_now: number, meta: { mediaTime: number }) => {
        if (this.video !== v || td.disposed) return;
        if (this.state.dragging !== 'playhead') this.showFrame(frameAt(meta.mediaTime - this.videoOffset(), fps, duration), true);
        handle = v.requestVideoFrameCallback!(loop);
      };
      handle = v.requestVideoFrameCallback(loop);
      this.stopVideoFrames = td.add(() => {
        v.cancelVideoFrameCallback?.(handle);
        this.stopVideoFrames = null;
      });
    };
    const stopFrames = () => this.stopVideoFrames?.();
    td.listen(v, 'play', () => {
      startFrames();
      if (!this.stopEmulation)
        this.host.patch({ playing: true, shuttle: this.state.shuttle > 0 ? this.state.shuttle : v.playbackRate || 1 });
    });
    td.listen(v, 'pause', () => {
      stopFrames();
      follow();
      // Pausing the element is part of reverse shuttle; only a real pause stops the timeline.
      if (!this.stopEmulation) this.host.patch({ playing: false, shuttle: 0 });
    });
    td.listen(v, 'ended', () => {
      stopFrames();
      if (!this.stopEmulation) this.host.patch({ playing: false, shuttle: 0 });
    });
    td.listen(v, 'seeked', follow);
    td.listen(v, VIDEO_TIME_OFFSET.event, follow);
    td.listen(v, 'timeupdate', follow);
    td.add(() => {
      if (this.video === v) this.video = null;
    });
    if (!v.paused) {
      startFrames();
      this.host.patch({ playing: true, shuttle: v.playbackRate || 1 });
    } else this.host.patch({ playing: false, shuttle: 0 });
    follow();
  }

  /** Forgets the element and timers (the engine's teardown has already removed them). */
  destroy() {
    this.video = null;
    this.videoTeardown = null;
    this.stopVideoFrames = null;
    this.stopEmulation = null;
  }
}
