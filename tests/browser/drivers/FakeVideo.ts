/**
 * A stand-in for <video> with the parts the engine uses: currentTime, paused, playbackRate,
 * play/pause, requestVideoFrameCallback and the media events. Time moves only when a test calls
 * advance(), so playback tests are deterministic.
 */
export class FakeVideo extends EventTarget {
  paused = true;
  playbackRate = 1;
  seeking = false;
  readonly duration: number;
  private time = 0;
  private nextHandle = 1;
  private readonly frameCallbacks = new Map<number, (now: number, meta: { mediaTime: number }) => void>();
  /** Every play/pause call and currentTime write, in order. */
  readonly calls: string[] = [];

  constructor(duration: number) {
    super();
    this.duration = duration;
  }

  get currentTime(): number {
    return this.time;
  }

  set currentTime(t: number) {
    this.time = Math.min(this.duration, Math.max(0, t));
    this.calls.push(`seek:${this.time}`);
    this.seeking = true;
    this.dispatchEvent(new Event('seeking'));
    queueMicrotask(() => {
      this.seeking = false;
      this.dispatchEvent(new Event('seeked'));
      this.dispatchEvent(new Event('timeupdate'));
    });
  }

  play(): Promise<void> {
    this.calls.push(`play:${this.playbackRate}`);
    if (this.paused) {
      this.paused = false;
      this.dispatchEvent(new Event('play'));
      this.dispatchEvent(new Event('playing'));
    }
    return Promise.resolve();
  }

  pause(): void {
    this.calls.push('pause');
    if (this.paused) return;
    this.paused = true;
    this.dispatchEvent(new Event('pause'));
  }

  requestVideoFrameCallback(cb: (now: number, meta: { mediaTime: number }) => void): number {
    const handle = this.nextHandle++;
    this.frameCallbacks.set(handle, cb);
    return handle;
  }

  cancelVideoFrameCallback(handle: number): void {
    this.frameCallbacks.delete(handle);
  }

  /** Video-frame callbacks registered and not yet called or cancelled. */
  get pendingFrameCallbacks(): number {
    return this.frameCallbacks.size;
  }

  /** Plays `seconds` of media (at playbackRate) if playing: presents a frame and fires timeupdate. */
  advance(seconds: number): void {
    if (this.paused) return;
    this.time = Math.min(this.duration, this.time + seconds * this.playbackRate);
    const callbacks = [...this.frameCallbacks.values()];
    this.frameCallbacks.clear();
    for (const cb of callbacks) cb(performance.now(), { mediaTime: this.time });
    this.dispatchEvent(new Event('timeupdate'));
    if (this.time >= this.duration) {
      this.paused = true;
      this.dispatchEvent(new Event('pause'));
      this.dispatchEvent(new Event('ended'));
    }
  }

  /** Typed as the element the engine takes. */
  asElement(): HTMLVideoElement {
    return this as unknown as HTMLVideoElement;
  }
}
