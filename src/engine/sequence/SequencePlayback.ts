import { VIDEO_TIME_OFFSET } from '../../contract';
import { effectiveFrameRate } from '../kernels';
import { locate, timeInClip, type SequenceClip } from './sequenceModel';
import { mediaTimeOf, playWhenReady, seekMedia, videoTimeOffset } from '../core/mediaClock';

/** One of the two players: an element, the media attached to it and the clip it is positioned on. */
interface Slot {
  video: HTMLVideoElement;
  handle: AttachedMedia | null;
  mediaKey: string | null;
  clipIndex: number;
  /** The media time it was last asked to show (sought again once the B-frame offset is known). */
  target: number;
  /** Hidden and playing towards its clip's start (the preroll), muted until it is in front. */
  rolling: boolean;
  /** When play() was last called on it (to learn how long an element takes to start). */
  playCalledAt: number | null;
  /** Arrived early: paused on its clip's first frame, at this media time, until the front one ends. */
  held: number | null;
}

type FrameMeta = { mediaTime: number; expectedDisplayTime: number };
type FrameCallback = (now: number, meta: FrameMeta) => void;
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

/** A media attached to an element by the host's player; `destroy` detaches it (its source, listeners). */
export interface AttachedMedia {
  destroy(): void;
}

export interface SequencePlaybackOptions {
  videos: [HTMLVideoElement, HTMLVideoElement];
  /** The HLS preview URL of a clip's media, or null while its token is not there. */
  urlOf(clip: SequenceClip): string | null;
  /** Attaches `url` to the element, paused, positioned at `start` (media seconds): the app's HLS player. */
  attach(video: HTMLVideoElement, url: string, start: number): AttachedMedia;
  /** Playback moved on (sequence seconds); the editor's setPlaybackTime. */
  onTime(time: number): void;
  onPlaying(playing: boolean): void;
  onSwitch?(record: SwitchRecord): void;
}

/**
 * How far before its clip the back element is positioned, so it can already be playing (hidden and
 * muted) when the front one shows its last frame: an element takes a few hundred ms from play() to
 * its first new frame, which would otherwise be a frozen picture at every boundary.
 */
const PREROLL_SECONDS = 0.6;
/**
 * The back element aims to reach the next clip's first frame this many frames before the front one
 * ends, and waits there: frame callbacks and play() come late on a busy machine, and arriving after
 * the front element's last frame shows as a frozen picture.
 */
const ARRIVE_EARLY_FRAMES = 3;
/** A display refresh (60 Hz): what is drawn in an animation frame shows about this much later. */
const REFRESH_MS = 1000 / 60;
/** First guess of that start-up time; then learnt from every play(). */
const START_LATENCY_SECONDS = 0.25;

const mediaKeyOf = (c: SequenceClip) => `${c.extendedMediaId.libraryId}/${c.extendedMediaId.mediaId}`;

/**
 * Plays a sequence of clips seamlessly on two <video> elements. The front one plays the current
 * clip. The back one is loaded and positioned just before the next clip's start from 2 s before the
 * current one ends (`preload`, driven by the editor's `onPreload`); on the frame clock
 * (requestVideoFrameCallback) it starts playing, hidden and muted, so that it reaches the next clip's
 * first frame as the front one shows its last. The front element pauses on its last frame, and on
 * the back element's frame callback for the next clip's first frame the two change places. Where no
 * preroll was possible (a clip at the very start of its media) the back element starts at the last
 * frame and the switch waits for its first frame callback.
 */
export class SequencePlayback {
  private clips: readonly SequenceClip[] = [];
  private readonly slots: [Slot, Slot];
  private front = 0;
  private playing = false;
  private rate = 1;
  private latency = START_LATENCY_SECONDS;
  private readonly watches = new Map<Slot, number>();
  private reverseTimer: ReturnType<typeof setInterval> | null = null;
  private destroyed = false;
  /** The front clip showed its last frame; the back one is awaited. */
  private pending: { from: number; lastFrameAt: number; lastMediaTime: number } | null = null;
  /** The front element's latest frame: how far its clip still has to go. */
  private frontLeft = Number.POSITIVE_INFINITY;
  private endTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly cleanups: (() => void)[] = [];
  readonly switches: SwitchRecord[] = [];
  /** The last events, for diagnosing a switch that did not happen (tests print it). */
  readonly trace: string[] = [];
  private log(event: string) {
    this.trace.push(`${performance.now().toFixed(0)} ${event}`);
    if (this.trace.length > 80) this.trace.shift();
  }

  constructor(private readonly o: SequencePlaybackOptions) {
    this.slots = o.videos.map((video) => ({
      video,
      handle: null,
      mediaKey: null,
      clipIndex: -1,
      target: 0,
      rolling: false,
      playCalledAt: null,
      held: null,
    })) as [Slot, Slot];
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

  get isPlaying() {
    return this.playing;
  }

  /** The clips changed (an edit) or the playhead moved: shows sequence time `time`. */
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
    this.log(`seek ${time.toFixed(2)}`);
    this.clearEndTimer();
    const at = locate(this.clips, time);
    if (!at) return;
    this.pending = null;
    const back = this.slots[1 - this.front]!;
    // The back element already holds this clip's media: bring it forward rather than reloading.
    if (back.clipIndex === at.index && back.mediaKey === mediaKeyOf(this.clips[at.index]!)) this.swap();
    const other = this.slots[1 - this.front]!;
    this.stopRolling(other);
    other.clipIndex = -1;
    this.position(this.slots[this.front]!, at.index, at.mediaTime);
    if (this.playing) this.startFront();
  }

  /** Loads clip `index` on the back element and positions it (paused) just before the clip's start. */
  preload(index: number) {
    this.log(`preload ${index}`);
    if (index < 0 || index >= this.clips.length) return;
    const back = this.slots[1 - this.front]!;
    if (back.clipIndex === index && (back.rolling || back.target === this.prerollStart(index))) return;
    this.stopRolling(back);
    this.position(back, index, this.prerollStart(index));
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
    this.log('pause');
    this.clearEndTimer();
    this.stopReverse();
    this.pending = null;
    this.playing = false;
    for (const s of this.slots) {
      s.video.pause();
      this.stopRolling(s);
    }
    this.o.onPlaying(false);
  }

  private prerollStart(index: number): number {
    return Math.max(0, this.clips[index]!.beginEndTimestamp.startTime - PREROLL_SECONDS);
  }

  private startFront() {
    const slot = this.slots[this.front]!;
    this.startElement(slot);
    this.watch(slot, true);
  }

  private startElement(slot: Slot) {
    slot.video.playbackRate = Math.max(0.25, Math.min(16, this.rate));
    slot.playCalledAt = performance.now();
    const index = slot.clipIndex;
    // A new source being attached (hls.js) interrupts play(): it is tried again once it can play.
    playWhenReady(
      slot.video,
      () => !this.destroyed && slot.clipIndex === index && (slot.rolling || (this.playing && slot === this.slots[this.front])),
      {
        played: () => this.log(`playing ${index}`),
        refused: (e) => this.log(`play ${index} refused: ${e instanceof Error ? e.message : String(e)}`),
        again: () => this.watch(slot, true),
      },
    );
  }

  private stopRolling(slot: Slot) {
    slot.held = null;
    if (!slot.rolling) return;
    this.log(`stop rolling ${slot.clipIndex}`);
    slot.rolling = false;
    slot.video.pause();
    // Back to the sound the front element has (the session's volume and mute).
    slot.video.muted = this.slots[this.front]!.video.muted;
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
      slot.handle = this.o.attach(slot.video, url, mediaTime);
      return;
    }
    seekMedia(slot.video, mediaTime);
  }

  private swap() {
    const old = this.slots[this.front]!;
    this.front = 1 - this.front;
    old.video.pause();
    const now = this.slots[this.front]!;
    if (now.rolling) {
      now.rolling = false;
      now.video.muted = old.video.muted;
    }
    this.show();
  }

  private show() {
    this.slots.forEach((s, i) => {
      s.video.style.visibility = i === this.front ? 'visible' : 'hidden';
      s.video.setAttribute('aria-hidden', i === this.front ? 'false' : 'true');
    });
  }

  // One frame-callback request per element while it plays.
  // `fresh`: drop an earlier request first (a new source attached by hls.js can leave it unanswered).
  private watch(slot: Slot, fresh = false) {
    if (fresh) this.unwatch(slot);
    if (this.destroyed || this.watches.has(slot)) return;
    const video = slot.video as FrameVideo;
    if (typeof video.requestVideoFrameCallback !== 'function') return;
    const handle = video.requestVideoFrameCallback((_now, meta) => {
      this.watches.delete(slot);
      if (this.destroyed || !this.playing || this.rate < 0) return;
      if (slot.playCalledAt !== null) {
        // How long this element took to show a frame after play(): the next preroll starts that much earlier.
        const took = (performance.now() - slot.playCalledAt) / 1000;
        this.latency = Math.min(1, 0.5 * this.latency + 0.5 * took);
        slot.playCalledAt = null;
      }
      const mediaTime = meta.mediaTime - videoTimeOffset(slot.video);
      if (slot === this.slots[this.front]) this.onFrontFrame(slot, mediaTime, meta.expectedDisplayTime);
      else this.onBackFrame(slot, mediaTime, meta.expectedDisplayTime);
      if (!slot.video.paused) this.watch(slot);
    });
    this.watches.set(slot, handle);
  }

  private unwatch(slot: Slot) {
    const handle = this.watches.get(slot);
    if (handle !== undefined) (slot.video as FrameVideo).cancelVideoFrameCallback?.(handle);
    this.watches.delete(slot);
  }

  private cancelWatches() {
    for (const [slot, handle] of this.watches) (slot.video as FrameVideo).cancelVideoFrameCallback?.(handle);
    this.watches.clear();
  }

  private onFrontFrame(slot: Slot, mediaTime: number, displayAt: number) {
    const index = slot.clipIndex;
    const clip = this.clips[index];
    if (!clip || this.pending) return;
    const start = clip.beginEndTimestamp.startTime;
    const end = clip.beginEndTimestamp.endTime;
    // Kept inside this clip: its end is the next clip's start, whose preload would then fire early.
    this.o.onTime(timeInClip(this.clips, index, Math.max(0, Math.min(clip.duration - 1e-3, mediaTime - start))));
    this.frontLeft = end - mediaTime;
    const frame = 1 / effectiveFrameRate(clip.frameRate);
    const back = this.slots[1 - this.front]!;
    const next = index + 1 < this.clips.length ? index + 1 : -1;
    // Start the back element so that it reaches the next clip's first frame as this one ends.
    if (next >= 0 && back.clipIndex === next && !back.rolling && back.target < this.clips[next]!.beginEndTimestamp.startTime) {
      const lead = this.clips[next]!.beginEndTimestamp.startTime - back.target;
      if (end - mediaTime <= lead + this.latency + ARRIVE_EARLY_FRAMES * frame) {
        back.rolling = true;
        this.log(`roll ${next} from ${back.target.toFixed(2)} at ${mediaTime.toFixed(2)}`);
        back.video.muted = true;
        this.startElement(back);
        this.watch(back, true);
      }
    }
    // This is the clip's last frame when the next one would start at or after its end. Frame callbacks
    // can come late on a busy machine, so the end is also kept by a timer set from the frames before it.
    if (mediaTime + frame < end - frame / 2) {
      // Half-way through the last frame's time on screen.
      const untilLastShown = (end - frame / 2 - mediaTime) / this.rate;
      // Re-aimed at every frame: the latest frame says best where the element's clock is.
      this.clearEndTimer();
      if (untilLastShown <= 1)
        this.endTimer = setTimeout(() => {
          this.endTimer = null;
          if (!this.destroyed && this.playing && !this.pending && this.slots[this.front] === slot && slot.clipIndex === index)
            this.finishClip(slot, end - frame, performance.now());
        }, untilLastShown * 1000);
      return;
    }
    this.finishClip(slot, mediaTime, displayAt);
  }

  // The front clip's last frame is on screen: hold it, and bring the next clip in as soon as it shows.
  private finishClip(slot: Slot, mediaTime: number, displayAt: number) {
    if (this.endTimer !== null) clearTimeout(this.endTimer);
    this.endTimer = null;
    const index = slot.clipIndex;
    const clip = this.clips[index]!;
    const back = this.slots[1 - this.front]!;
    const next = index + 1 < this.clips.length ? index + 1 : -1;
    if (next < 0) {
      this.pause();
      this.o.onTime(timeInClip(this.clips, index, clip.duration));
      return;
    }
    slot.video.pause();
    this.log(`last frame of ${index} at ${mediaTime.toFixed(2)}; back ${back.clipIndex} rolling ${back.rolling}`);
    this.frontLeft = Number.POSITIVE_INFINITY;
    this.pending = { from: index, lastFrameAt: displayAt, lastMediaTime: mediaTime };
    if (back.clipIndex !== next) this.preload(next);
    if (back.rolling && back.held !== null) {
      // It was waiting on the first frame: shown once the last one has had its time, and set going again.
      const held = back.held;
      back.held = null;
      this.bringInOnPaint(back, held);
      return;
    }
    if (!back.rolling) {
      // No preroll (the clip starts at 0 of its media, or it was too short to start one): start now.
      this.position(back, next, this.clips[next]!.beginEndTimestamp.startTime);
      back.rolling = true;
      back.video.muted = true;
      this.startElement(back);
      this.watch(back, true);
    }
  }

  private onBackFrame(slot: Slot, mediaTime: number, displayAt: number) {
    const clip = this.clips[slot.clipIndex];
    if (!clip || !slot.rolling) return;
    const frame = 1 / effectiveFrameRate(clip.frameRate);
    const left = clip.beginEndTimestamp.startTime - mediaTime;
    if (left > frame / 2) {
      // Still before its clip: run a little slower or faster so that it arrives a few frames before
      // the front one ends (then it waits on the first frame): arriving late is a visible gap.
      const early = ARRIVE_EARLY_FRAMES * frame;
      if (left < 2.5 * frame)
        // The first frame is one of the next two: slowly, so that its frame callback is not skipped
        // (a late callback found the element already past it, and seeking back costs ~80 ms).
        slot.video.playbackRate = this.rate * 0.5;
      else if (!this.pending && this.frontLeft > early + frame / 2)
        slot.video.playbackRate = this.rate * Math.max(0.5, Math.min(2, left / (this.frontLeft - early)));
      return;
    }
    // The back element shows the next clip's first frame: if the front one has shown its last, swap.
    slot.video.playbackRate = this.rate;
    if (-left > frame / 2) {
      // Past it: frame callbacks came late (a busy machine) while it played on. Back to the first frame.
      this.settleOnStart(slot);
      return;
    }
    if (!this.pending) {
      // Early: it waits on the first frame (paused, hidden) for the front element's last frame, so
      // none of the next clip's frames are lost.
      slot.video.pause();
      slot.held = mediaTime;
      this.log(`held ${slot.clipIndex} at ${mediaTime.toFixed(2)}`);
      return;
    }
    if (displayAt < this.dueAt(this.pending) - REFRESH_MS / 2) {
      // It would show before the front clip's last frame has had its time: it waits for that.
      slot.video.pause();
      this.bringInOnPaint(slot, mediaTime);
      return;
    }
    this.bringIn(slot, mediaTime, displayAt);
  }

  // The back element ran past its clip's first frame: paused and sought back to it, then held there
  // (or brought in, when the front one has already shown its last), so no frame is lost or skipped.
  private settleOnStart(slot: Slot) {
    const index = slot.clipIndex;
    const start = this.clips[index]!.beginEndTimestamp.startTime;
    slot.video.pause();
    this.unwatch(slot);
    this.log(`${index} ran past its first frame (at ${mediaTimeOf(slot.video).toFixed(3)}, starts ${start.toFixed(3)}); back to it`);
    // Anything since (a seek, a pause, destroy) has stopped the roll: then this is no longer wanted.
    const settled = () => {
      if (this.destroyed || !slot.rolling || slot.clipIndex !== index) return;
      const at = mediaTimeOf(slot.video);
      if (!this.pending) {
        slot.held = at;
        this.log(`held ${index} at ${at.toFixed(2)}`);
        return;
      }
      this.bringInOnPaint(slot, at);
    };
    slot.video.addEventListener('seeked', settled, { once: true });
    seekMedia(slot.video, start);
  }

  /**
   * A back element paused on its clip's first frame comes to the front at the first paint that shows
   * it no earlier than one frame after the front clip's last frame (which is on screen now and keeps
   * its time), then plays on. Without animation frames (a hidden tab) it comes at once.
   */
  private bringInOnPaint(slot: Slot, mediaTime: number) {
    const p = this.pending!;
    const index = slot.clipIndex;
    const due = this.dueAt(p);
    const go = (shownAt: number) => {
      if (this.destroyed || this.pending !== p || slot.clipIndex !== index || !slot.rolling) return;
      this.bringIn(slot, mediaTime, shownAt);
      this.startFront();
    };
    if (typeof requestAnimationFrame !== 'function' || document.hidden) return go(performance.now());
    // What changes in an animation frame is on screen about one refresh later.
    const step = (t: number) => (t + REFRESH_MS < due - REFRESH_MS / 2 ? requestAnimationFrame(step) : go(t + REFRESH_MS));
    requestAnimationFrame(step);
  }

  /** When the next clip's first frame is due on screen: one frame after the front clip's last. */
  private dueAt(p: NonNullable<SequencePlayback['pending']>) {
    return p.lastFrameAt + 1000 / effectiveFrameRate(this.clips[p.from]?.frameRate ?? 0) / this.rate;
  }

  // The back element, on the next clip's first frame, comes to the front.
  private bringIn(slot: Slot, mediaTime: number, displayAt: number) {
    const p = this.pending!;
    const clip = this.clips[slot.clipIndex]!;
    this.pending = null;
    this.log(`in ${slot.clipIndex}: shown ${(displayAt - p.lastFrameAt).toFixed(0)} ms after the last frame`);
    this.swap();
    const record = {
      from: p.from,
      to: slot.clipIndex,
      lastFrameAt: p.lastFrameAt,
      firstFrameAt: displayAt,
      lastMediaTime: p.lastMediaTime,
      firstMediaTime: mediaTime,
    };
    this.switches.push(record);
    this.o.onSwitch?.(record);
    this.o.onTime(timeInClip(this.clips, slot.clipIndex, mediaTime - clip.beginEndTimestamp.startTime));
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
          this.seek(0);
          this.o.onTime(0);
          return;
        }
        this.seek(t);
        this.o.onTime(t);
      },
      1000 / fps / Math.abs(this.rate),
    );
  }

  private clearEndTimer() {
    if (this.endTimer !== null) clearTimeout(this.endTimer);
    this.endTimer = null;
  }

  private stopReverse() {
    if (this.reverseTimer !== null) clearInterval(this.reverseTimer);
    this.reverseTimer = null;
  }

  /** Detaches both players and stops every timer and frame callback. */
  destroy() {
    if (this.destroyed) return;
    this.stopReverse();
    this.cancelWatches();
    this.clearEndTimer();
    this.destroyed = true;
    this.cleanups.forEach((fn) => fn());
    for (const s of this.slots) {
      s.handle?.destroy();
      s.handle = null;
    }
  }
}
