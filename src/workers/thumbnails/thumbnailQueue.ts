import { TIMELINE } from '../../contract';

export interface ThumbnailQueueOptions {
  concurrency?: number;
  gapMs?: number;
  now?: () => number;
}

/** The DOMException fetch() and friends reject with when aborted. */
export const abortError = () => new DOMException('The thumbnail request was aborted.', 'AbortError');

interface Job {
  run: (signal: AbortSignal) => Promise<unknown>;
  signal: AbortSignal | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  onAbort?: () => void;
}

/**
 * The thumbnail queue (spec section 9): at most 3 jobs in flight and at least 50 ms between job
 * starts. A job is a whole batch of thumbnails (one view update), not one frame: at 3 jobs and
 * 20 starts a second, per-frame jobs could never reach the timeline's 100 thumbnails/s. A job
 * whose signal aborts before it starts is dropped without running.
 */
export class ThumbnailQueue {
  private readonly waiting: Job[] = [];
  private running = 0;
  private lastStart = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private readonly concurrency: number;
  private readonly gapMs: number;
  private readonly now: () => number;

  constructor(options: ThumbnailQueueOptions = {}) {
    this.concurrency = options.concurrency ?? TIMELINE.thumbnailConcurrency;
    this.gapMs = options.gapMs ?? TIMELINE.thumbnailGapMs;
    this.now = options.now ?? (() => performance.now());
  }

  /** Jobs waiting to start. */
  get queued() {
    return this.waiting.length;
  }

  get inFlight() {
    return this.running;
  }

  /** Runs `run` when a slot is free; rejects with an AbortError if `signal` aborts before then. */
  enqueue<T>(run: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.disposed || signal?.aborted) return Promise.reject(abortError());
    return new Promise<T>((resolve, reject) => {
      const job: Job = { run, signal, resolve: resolve as (value: unknown) => void, reject };
      if (signal) {
        job.onAbort = () => {
          const at = this.waiting.indexOf(job);
          if (at < 0) return; // already started: the job itself honours the signal
          this.waiting.splice(at, 1);
          reject(abortError());
        };
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.waiting.push(job);
      this.pump();
    });
  }

  /** Rejects every job that has not started and stops starting new ones. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const job of this.waiting.splice(0)) {
      if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
      job.reject(abortError());
    }
  }

  private pump() {
    while (!this.disposed && this.timer === undefined && this.running < this.concurrency && this.waiting.length > 0) {
      const wait = this.lastStart + this.gapMs - this.now();
      if (wait > 0) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, wait);
        return;
      }
      const job = this.waiting.shift()!;
      if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
      this.lastStart = this.now();
      this.running++;
      const signal = job.signal ?? new AbortController().signal;
      void (async () => {
        try {
          job.resolve(await job.run(signal));
        } catch (error) {
          job.reject(error);
        } finally {
          this.running--;
          this.pump();
        }
      })();
    }
  }
}
