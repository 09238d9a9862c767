import { describe, expect, it } from 'vitest';
import { CircuitBreaker, INITIAL_PREVIEW, LoadQueue, previewReducer, type PreviewEvent, type PreviewModel } from './previewRecovery';

const run = (events: PreviewEvent[], from: PreviewModel = INITIAL_PREVIEW) => events.reduce((m, e) => previewReducer(m, e), from);

describe('moment preview state', () => {
  it('loads on hover, plays, buffers and pauses when the pointer leaves', () => {
    let m = run([{ type: 'want', reason: 'hover' }]);
    expect(m.status).toBe('loading');
    expect(m.attempt).toBe(1);
    m = run([{ type: 'playing' }], m);
    expect(m.status).toBe('playing-hover');
    m = run([{ type: 'waiting' }], m);
    expect(m.status).toBe('buffering');
    m = run([{ type: 'playing' }, { type: 'want', reason: null }], m);
    expect(m.status).toBe('paused');
    // Autoplay picks it up again without reloading.
    m = run([{ type: 'want', reason: 'autoplay' }], m);
    expect(m.status).toBe('playing-autoplay');
    expect(m.attempt).toBe(1);
  });

  it('drops a load nobody wants any more', () => {
    expect(
      run([
        { type: 'want', reason: 'autoplay' },
        { type: 'want', reason: null },
      ]).status,
    ).toBe('idle');
  });

  it('retries 3 times, then loads directly, then shows the error', () => {
    let m = run([{ type: 'want', reason: 'hover' }]);
    for (let i = 1; i <= 3; i++) {
      m = previewReducer(m, { type: 'failed' });
      expect(m).toMatchObject({ status: 'loading', mode: 'hls', retries: i });
    }
    m = previewReducer(m, { type: 'failed' });
    expect(m).toMatchObject({ status: 'loading', mode: 'direct' });
    m = previewReducer(m, { type: 'failed' });
    expect(m.status).toBe('error');
    expect(m.attempt).toBe(5);
  });

  it('a click in the error state resets the preview and counts the retry', () => {
    const failed: PreviewModel = { status: 'error', reason: 'hover', retries: 3, mode: 'direct', attempt: 5 };
    const m = previewReducer(failed, { type: 'retry' });
    expect(m).toEqual({ status: 'loading', reason: 'hover', retries: 4, mode: 'hls', attempt: 6 });
    // A retry outside the error state does nothing.
    expect(previewReducer(m, { type: 'retry' })).toBe(m);
  });

  it('an open breaker goes straight to the error state', () => {
    expect(run([{ type: 'want', reason: 'hover' }, { type: 'blocked' }]).status).toBe('error');
  });
});

describe('circuit breaker', () => {
  it('opens after 5 failures for a key and resets after 30 s', () => {
    let now = 1_000;
    const b = new CircuitBreaker(() => now);
    for (let i = 0; i < 4; i++) b.fail('a');
    expect(b.allows('a')).toBe(true);
    b.fail('a');
    expect(b.allows('a')).toBe(false);
    expect(b.allows('b')).toBe(true);
    now += 29_999;
    expect(b.isOpen('a')).toBe(true);
    now += 1;
    expect(b.allows('a')).toBe(true);
    // Reset: it takes 5 new failures to open again.
    b.fail('a');
    expect(b.allows('a')).toBe(true);
  });

  it('a success clears the count', () => {
    const b = new CircuitBreaker(() => 0);
    for (let i = 0; i < 4; i++) b.fail('a');
    b.succeed('a');
    b.fail('a');
    expect(b.allows('a')).toBe(true);
  });

  it('sweeps entries untouched for 60 s', () => {
    let now = 0;
    const b = new CircuitBreaker(() => now);
    b.fail('old');
    now = 50_000;
    b.fail('recent');
    now = 60_000;
    b.sweep();
    expect(b.size).toBe(1);
  });
});

describe('preview load queue', () => {
  it('runs at most 5 loads at once, in order, and frees slots on release or cancel', async () => {
    const q = new LoadQueue(5);
    const started: number[] = [];
    const releases: Array<() => void> = [];
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    const cancels = Array.from({ length: 8 }, (_, i) =>
      q.enqueue((release) => {
        started.push(i);
        releases.push(release);
      }),
    );
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(q.pending).toBe(3);
    cancels[5]!(); // cancelled while waiting: never starts
    releases[0]!();
    releases[0]!(); // releasing twice frees one slot only
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4, 6]);
    cancels[1]!(); // cancelling a running load frees its slot
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4, 6, 7]);
    expect(q.active).toBe(5);
    expect(q.pending).toBe(0);
  });
});
