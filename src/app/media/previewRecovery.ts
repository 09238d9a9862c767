import PQueue from 'p-queue';
import { MOMENT_PREVIEW } from '../../contract';

/**
 * The moment card's preview (spec section 4), as plain data: a state machine, a failure circuit
 * breaker and a small loading queue. The card wires them to a <video> and hls.js; nothing here
 * touches the DOM, so the rules are unit-tested.
 */

export type PreviewStatus = 'idle' | 'loading' | 'playing-autoplay' | 'playing-hover' | 'paused' | 'buffering' | 'error';
/** Why the preview should play: the pointer rests on the card, or autoplay is on and the card is visible. */
export type PreviewReason = 'hover' | 'autoplay';
/** How the stream is loaded: through hls.js, or handed to the video element as it is (the fallback). */
export type PreviewMode = 'hls' | 'direct';

export interface PreviewModel {
  status: PreviewStatus;
  /** Set while something wants the preview to play; hover wins over autoplay. */
  reason: PreviewReason | null;
  retries: number;
  mode: PreviewMode;
  /** Bumped whenever the stream must be (re)loaded from scratch, so the player knows to start over. */
  attempt: number;
}

export type PreviewEvent =
  | { type: 'want'; reason: PreviewReason | null }
  /** The video is playing frames. */
  | { type: 'playing' }
  /** The video waits for data. */
  | { type: 'waiting' }
  | { type: 'failed' }
  /** A click on the card in the error state. */
  | { type: 'retry' }
  /** The breaker for this media is open: do not try. */
  | { type: 'blocked' };

export const INITIAL_PREVIEW: PreviewModel = { status: 'idle', reason: null, retries: 0, mode: 'hls', attempt: 0 };

const playingFor = (reason: PreviewReason): PreviewStatus => (reason === 'hover' ? 'playing-hover' : 'playing-autoplay');
export const isPlaying = (s: PreviewStatus) => s === 'playing-hover' || s === 'playing-autoplay';
/** States in which the video element is on screen (over the poster). */
export const showsVideo = (s: PreviewStatus) => isPlaying(s) || s === 'buffering' || s === 'paused';

export function previewReducer(m: PreviewModel, e: PreviewEvent, maxRetries: number = MOMENT_PREVIEW.retries): PreviewModel {
  switch (e.type) {
    case 'want': {
      const reason = e.reason;
      if (m.status === 'error') return { ...m, reason };
      if (!reason) {
        // Nothing wants it: a load in progress is dropped (its queue slot freed), playback pauses.
        if (m.status === 'loading') return { ...m, status: 'idle', reason: null };
        if (isPlaying(m.status) || m.status === 'buffering') return { ...m, status: 'paused', reason: null };
        return { ...m, reason: null };
      }
      if (m.status === 'idle') return { ...m, status: 'loading', reason, attempt: m.attempt + 1 };
      if (m.status === 'paused' || isPlaying(m.status)) return { ...m, status: playingFor(reason), reason };
      return { ...m, reason };
    }
    case 'playing':
      if (m.status === 'error' || m.status === 'idle' || !m.reason) return m;
      return { ...m, status: playingFor(m.reason) };
    case 'waiting':
      return isPlaying(m.status) ? { ...m, status: 'buffering' } : m;
    case 'failed':
      if (m.status === 'error' || m.status === 'idle') return m;
      // Nobody is watching: forget the stream; it loads afresh when wanted again.
      if (!m.reason) return { ...m, status: 'idle' };
      // Up to `maxRetries` fresh loads, then one direct load, then the error state.
      if (m.mode === 'hls' && m.retries < maxRetries) return { ...m, status: 'loading', retries: m.retries + 1, attempt: m.attempt + 1 };
      if (m.mode === 'hls') return { ...m, status: 'loading', mode: 'direct', attempt: m.attempt + 1 };
      return { ...m, status: 'error' };
    case 'retry':
      if (m.status !== 'error') return m;
      // A reset: load again from the start, counting the retry.
      return { ...m, status: m.reason ? 'loading' : 'idle', mode: 'hls', retries: m.retries + 1, attempt: m.attempt + 1 };
    case 'blocked':
      return { ...m, status: 'error' };
  }
}

/**
 * Opens for a key (a media) after `threshold` failures so the grid stops hammering a broken stream;
 * `resetMs` after opening it lets one try through again. Entries untouched for a while are swept.
 */
export class CircuitBreaker {
  private readonly entries = new Map<string, { failures: number; openedAt: number | null; lastAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly threshold: number = MOMENT_PREVIEW.breakerFailures,
    private readonly resetMs: number = MOMENT_PREVIEW.breakerResetMs,
  ) {}

  /** Whether a load may be tried; an open breaker whose time is up resets. */
  allows(key: string): boolean {
    const e = this.entries.get(key);
    if (!e || e.openedAt === null) return true;
    if (this.now() - e.openedAt >= this.resetMs) {
      this.entries.delete(key);
      return true;
    }
    return false;
  }

  fail(key: string) {
    const at = this.now();
    const e = this.entries.get(key) ?? { failures: 0, openedAt: null, lastAt: at };
    e.failures++;
    e.lastAt = at;
    if (e.failures >= this.threshold && e.openedAt === null) e.openedAt = at;
    this.entries.set(key, e);
  }

  succeed(key: string) {
    this.entries.delete(key);
  }

  isOpen(key: string) {
    return !this.allows(key);
  }

  /** Drops closed entries older than `maxAgeMs` and open ones whose time is up. */
  sweep(maxAgeMs: number = MOMENT_PREVIEW.breakerCleanupAfterMs) {
    const now = this.now();
    for (const [key, e] of this.entries) {
      const stale = e.openedAt === null ? now - e.lastAt >= maxAgeMs : now - e.openedAt >= this.resetMs;
      if (stale) this.entries.delete(key);
    }
  }

  get size() {
    return this.entries.size;
  }
}

/**
 * At most `concurrency` previews load at once (p-queue); the rest wait their turn in order. A task
 * gets a `release` to call when its load is over (played or failed); the returned cancel drops a
 * waiting task, or releases a running one's slot.
 */
export class LoadQueue {
  private readonly queue: PQueue;

  constructor(concurrency: number = MOMENT_PREVIEW.queueConcurrency) {
    this.queue = new PQueue({ concurrency });
  }

  enqueue(start: (release: () => void) => void): () => void {
    const waiting = new AbortController();
    let release: (() => void) | null = null;
    const load = () => new Promise<void>((done) => start((release = done)));
    this.queue.add(load, { signal: waiting.signal }).catch(() => undefined);
    return () => (release ? release() : waiting.abort());
  }

  get active() {
    return this.queue.pending;
  }
  get pending() {
    return this.queue.size;
  }
}
