import PQueue from 'p-queue';
import { TIMELINE } from '../../contract';

export interface ThumbnailQueueOptions {
  concurrency?: number;
  gapMs?: number;
}

/** The DOMException fetch() and friends reject with when aborted. */
export const abortError = () => new DOMException('The thumbnail request was aborted.', 'AbortError');

/**
 * The thumbnail queue (spec section 9): at most 3 jobs in flight and at least 50 ms between job
 * starts (p-queue, its strict sliding window of one start per 50 ms). A job is a whole batch of
 * thumbnails (one view update), not one frame: at 3 jobs and 20 starts a second, per-frame jobs
 * could never reach the timeline's 100 thumbnails/s. A job whose signal aborts before it starts is
 * dropped without running.
 */
export class ThumbnailQueue {
  private readonly queue: PQueue;
  private readonly disposed = new AbortController();

  constructor(options: ThumbnailQueueOptions = {}) {
    this.queue = new PQueue({
      concurrency: options.concurrency ?? TIMELINE.thumbnailConcurrency,
      interval: options.gapMs ?? TIMELINE.thumbnailGapMs,
      intervalCap: 1,
      strict: true,
    });
  }

  /** Jobs waiting to start. */
  get queued() {
    return this.queue.size;
  }

  get inFlight() {
    return this.queue.pending;
  }

  /** Runs `run` when a slot is free; rejects with an AbortError if `signal` aborts before then. */
  enqueue<T>(run: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.disposed.signal.aborted || signal?.aborted) return Promise.reject(abortError());
    const own = signal ?? new AbortController().signal;
    // Waiting, a job leaves the queue on its own abort or the queue's dispose; started, it honours its own signal.
    const waiting = new AbortController();
    let started = false;
    const leave = () => {
      if (!started) waiting.abort(abortError());
    };
    own.addEventListener('abort', leave, { once: true });
    this.disposed.signal.addEventListener('abort', leave, { once: true });
    return this.queue
      .add(
        () => {
          started = true;
          return run(own);
        },
        { signal: waiting.signal },
      )
      .finally(() => {
        own.removeEventListener('abort', leave);
        this.disposed.signal.removeEventListener('abort', leave);
      });
  }

  /** Rejects every job that has not started and stops starting new ones. */
  dispose(): void {
    this.queue.pause();
    this.disposed.abort(abortError());
  }
}
