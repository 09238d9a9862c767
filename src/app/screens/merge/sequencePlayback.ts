import { effectiveFrameRate } from '../../../engine/kernels';
import { locate, timeInClip, type SequenceClip } from '../../../engine/sequence/sequenceModel';
import { attachPlayer, type PlayerHandle } from '../search/momentPlayer';
import { mediaTimeOf, seekMedia, videoTimeOffset } from '../moment/mediaClock';
import { VIDEO_TIME_OFFSET } from '../../../contract';

/** One of the two players: an element, the media attached to it and the clip it is positioned on. */
interface Slot {
  video: HTMLVideoElement;
  handle: PlayerHandle | null;
  mediaKey: string | null;
  clipIndex: number;
  /** The media time it was last asked to show (sought again once the B-frame offset is known). */
  target: number;
}

type FrameCallback = (now: number, meta: { mediaTime: number; expectedDisplayTime: number; presentedFrames: number }) => void;
type FrameVideo = HTMLVideoElement & {
  requestVideoFrameCallback(cb: FrameCallback): number;
  cancelVideoFrameCallback(handle: number): void;
};

/** A clip boundary as the frame clock saw it (for the gap benchmark and the e2e test). */
export interface SwitchRecord {
  from: number;
  to: number;
  /** Frame-callback `expectedDisplayTime` of clip `from`'s last frame and of clip `to`'s first. */
  lastFrameAt: number;
  firstFrameAt: number;
  /** Media times of those frames. */
  lastMediaTime: number;
  firstMediaTime: number;
}

export interface SequencePlaybackOptions {
  videos: [HTMLVideoElement, HTMLVideoElement];
  /** The HLS preview URL of a clip's media, or null while its token is not there. */
  urlOf(clip: SequenceClip): string | null;
  /** Playback moved on (sequence seconds); the editor's setPlaybackTime. */
  onTime(time: number): void;
  onPlaying(playing: boolean): void;
  /** The element in front changed. */
  onActive?(video: HTMLVideoElement): void;
  onSwitch?(record: SwitchRecord): void;
}

const mediaKeyOf = (c: SequenceClip) => `${c.extendedMediaId.libraryId}/${c.extendedMediaId.mediaId}`;

/**
 * Plays a sequence of clips seamlessly on two <video> elements: the one in front plays the current
 * clip; the other is loaded and positioned on the next clip's first frame from 2 s before the current
 * one ends (`preload`, driven by the editor's `onPreload`). On the frame clock
 * (requestVideoFrameCallback) the front element's last frame of a clip pauses it and the back one,
 * already showing the next first frame, comes to the front and plays: no blank, no extra frame.
 */
export class SequencePlayback {
  private clips: readonly SequenceClip[] = [];
  private readonly slots: [Slot, Slot];
  private front = 0;
  private playing = false;
  private rate = 1;
  private watching: { slot: Slot; handle: number } | null = null;
  private reverseTimer: ReturnType<typeof setInterval> | null = null;
  private destroyed = false;
  private pending: { from: number; lastFrameAt: number; lastMediaTime: number } | null = null;
  private swapTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly cleanups: (() => void)[] = [];
  readonly switches: SwitchRecord[] = [];

  constructor(private readonly o: SequencePlaybackOptions) {
    this.slots = o.videos.map((video) => ({ video, handle: null, mediaKey: null, clipIndex: -1, target: 0 })) as [Slot, Slot];
    for (const slot of this.slots) {
      // attachPlayer seeks on loadedmetadata; the B-frame offset arrives later, so the seek is redone then.
      const again = () => seekMedia(slot.video, slot.target);
      slot.video.addEventListener(VIDEO_TIME_OFFSET.event, again);
      this.cleanups.push(() => slot.video.removeEventListener(VIDEO_TIME_OFFSET.event, again));
    }
    this.show();
  }

  get activeVideo(): HTMLVideoElement {
    return this.slots[this.front]!.video;
  }

  /** The clips changed (an edit): the front slot is re-positioned on `time`, the back one forgotten. */
  setClips(clips: readonly SequenceClip[], time: number) {
    if (clips !== this.clips) {
      this.clips = clips;
      // Positions were of the old order: nothing preloaded is known to be right any more.
      for (const slot of this.slots) slot.clipIndex = -1;
    }
    this.seek(time);
  }

  /** Shows sequence time `time` (paused or playing, as before). */
  seek(time: number) {
    const at = locate(this.clips, time);
    if (!at) return;
    const back = this.slots[1 - this.front]!;
    // The back element already holds this clip (preloaded): bring it forward rather than reloading.
    if (back.clipIndex === at.index && back.mediaKey === mediaKeyOf(this.clips[at.index]!)) this.swap();
    this.position(this.slots[this.front]!, at.index, at.mediaTime);
    this.pending = null;
    if (this.swapTimer !== null) clearTimeout(this.swapTimer);
    this.swapTimer = null;
    if (this.playing) this.startFront();
  }

  /** Loads and positions clip `index` on the back element, paused on its first frame. */
  preload(index: number) {
    if (index < 0 || index >= this.clips.length) return;
    this.position(this.slots[1 - this.front]!, index, this.clips[index]!.beginEndTimestamp.startTime);
  }

  /** Plays at `rate` (J/K/L: 0 pauses; negative steps backwards frame by frame). */
  play(rate = 1) {
    this.stopReverse();
    if (rate === 0) return this.pause();
    this.rate = rate;
    this.playing = true;
    this.o.onPlaying(true);
    if (rate < 0) {
      this.activeVideo.pause();
      this.startReverse();
      return;
    }
    this.startFront();
  }

  pause() {
    this.stopReverse();
    if (this.swapTimer !== null) clearTimeout(this.swapTimer);
    this.swapTimer = null;
    this.pending = null;
    this.playing = false;
    for (const s of this.slots) s.video.pause();
    this.o.onPlaying(false);
  }

  get isPlaying() {
    return this.playing;
  }

  private startFront() {
    const slot = this.slots[this.front]!;
    slot.video.playbackRate = Math.max(0.25, Math.min(16, this.rate));
    slot.video.play().catch(() => undefined);
    this.watchFrames();
  }

  private position(slot: Slot, index: number, mediaTime: number) {
    const clip = this.clips[index]!;
    const key = mediaKeyOf(clip);
    slot.clipIndex = index;
    slot.target = mediaTime;
    if (slot.mediaKey !== key) {
      slot.handle?.destroy();
      slot.handle = null;
      slot.mediaKey = null;
      const url = this.o.urlOf(clip);
      if (!url) return;
      slot.mediaKey = key;
      slot.handle = attachPlayer(slot.video, {
        url,
        mode: 'hls',
        start: mediaTime,
        end: Number.POSITIVE_INFINITY,
        loop: false,
        autoplay: false,
      });
      return;
    }
    seekMedia(slot.video, mediaTime);
  }

  private swap() {
    const old = this.slots[this.front]!;
    this.front = 1 - this.front;
    old.video.pause();
    this.show();
  }

  private show() {
    this.slots.forEach((s, i) => {
      s.video.style.visibility = i === this.front ? 'visible' : 'hidden';
      s.video.setAttribute('aria-hidden', i === this.front ? 'false' : 'true');
    });
    this.o.onActive?.(this.activeVideo);
  }

  // The frame clock of whichever element is in front (one request at a time, moved when the front changes).
  private watchFrames() {
    if (this.destroyed) return;
    const slot = this.slots[this.front]!;
    if (this.watching?.slot === slot) return;
    this.cancelFrames();
    const video = slot.video as FrameVideo;
    if (typeof video.requestVideoFrameCallback !== 'function') return;
    const onFrame: FrameCallback = (_now, meta) => {
      this.watching = null;
      if (this.destroyed || slot !== this.slots[this.front]) return;
      this.onFrame(slot, meta.mediaTime - videoTimeOffset(slot.video), meta.expectedDisplayTime);
      if (this.playing && this.rate > 0 && this.swapTimer === null) this.watchFrames();
    };
    this.watching = { slot, handle: video.requestVideoFrameCallback(onFrame) };
  }

  private onFrame(slot: Slot, mediaTime: number, displayAt: number) {
    const index = slot.clipIndex;
    const clip = this.clips[index];
    if (!clip) return;
    if (this.pending) {
      const p = this.pending;
      this.pending = null;
      const record = {
        from: p.from,
        to: index,
        lastFrameAt: p.lastFrameAt,
        firstFrameAt: displayAt,
        lastMediaTime: p.lastMediaTime,
        firstMediaTime: mediaTime,
      };
      this.switches.push(record);
      this.o.onSwitch?.(record);
    }
    const start = clip.beginEndTimestamp.startTime;
    const offset = Math.max(0, Math.min(clip.duration, mediaTime - start));
    this.o.onTime(timeInClip(this.clips, index, offset));
    const frame = 1 / effectiveFrameRate(clip.frameRate);
    // This is the clip's last frame when the next one would start at or after its end.
    if (mediaTime + frame < clip.beginEndTimestamp.endTime - frame / 2) return;
    if (index + 1 >= this.clips.length) {
      this.pause();
      this.o.onTime(timeInClip(this.clips, index, clip.duration));
      return;
    }
    const back = this.slots[1 - this.front]!;
    if (back.clipIndex !== index + 1) this.preload(index + 1);
    this.pending = { from: index, lastFrameAt: displayAt, lastMediaTime: mediaTime };
    // The last frame stays on screen for its duration (the element is paused on it), then the back
    // element, paused on the next clip's first frame, comes to the front and plays.
    slot.video.pause();
    this.swapTimer = setTimeout(
      () => {
        this.swapTimer = null;
        if (this.destroyed || !this.playing) return;
        this.swap();
        this.startFront();
      },
      (frame * 1000) / Math.max(1, this.rate),
    );
  }

  private cancelFrames() {
    const w = this.watching;
    this.watching = null;
    if (w) (w.slot.video as FrameVideo).cancelVideoFrameCallback?.(w.handle);
  }

  private startReverse() {
    const clip = this.clips[this.slots[this.front]!.clipIndex];
    const fps = effectiveFrameRate(clip?.frameRate ?? 0);
    this.reverseTimer = setInterval(
      () => {
        const slot = this.slots[this.front]!;
        const c = this.clips[slot.clipIndex];
        if (!c) return this.pause();
        const t = timeInClip(this.clips, slot.clipIndex, mediaTimeOf(slot.video) - c.beginEndTimestamp.startTime) - 1 / fps;
        if (t <= 0) {
          this.pause();
          this.o.onTime(0);
          this.seek(0);
          return;
        }
        this.seek(t);
        this.o.onTime(t);
      },
      1000 / fps / Math.abs(this.rate),
    );
  }

  private stopReverse() {
    if (this.reverseTimer !== null) clearInterval(this.reverseTimer);
    this.reverseTimer = null;
  }

  /** Detaches both players and stops every timer and frame callback. */
  destroy() {
    if (this.destroyed) return;
    this.stopReverse();
    if (this.swapTimer !== null) clearTimeout(this.swapTimer);
    this.cleanups.forEach((fn) => fn());
    this.cancelFrames();
    this.destroyed = true;
    for (const s of this.slots) {
      s.handle?.destroy();
      s.handle = null;
    }
  }
}
