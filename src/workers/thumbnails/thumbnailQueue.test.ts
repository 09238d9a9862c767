import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TIMELINE } from '../../contract';
import { ThumbnailQueue } from './thumbnailQueue';

/** A job that records when it started and finishes when told. */
function jobs() {
  const started: Array<{ name: string; at: number }> = [];
  const finish = new Map<string, () => void>();
  const job = (name: string) => () => {
    started.push({ name, at: Date.now() });
    return new Promise<string>((resolve) => finish.set(name, () => resolve(name)));
  };
  return { started, finish: (name: string) => finish.get(name)!(), job };
}

describe('thumbnail queue', () => {
  let t0: number;
  beforeEach(() => {
    vi.useFakeTimers();
    t0 = Date.now();
  });
  afterEach(() => vi.useRealTimers());

  it('runs at most 3 jobs at once, starting them 50 ms apart', async () => {
    const q = new ThumbnailQueue();
    const { started, finish, job } = jobs();
    const results = ['a', 'b', 'c', 'd'].map((n) => q.enqueue(job(n)));
    expect(started.map((s) => s.name)).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(TIMELINE.thumbnailGapMs - 1);
    expect(started).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(started.map((s) => s.name)).toEqual(['a', 'b']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(started.map((s) => [s.name, s.at - t0])).toEqual([
      ['a', 0],
      ['b', 50],
      ['c', 100],
    ]);
    expect(q.inFlight).toBe(TIMELINE.thumbnailConcurrency);
    finish('b');
    await expect(results[1]).resolves.toBe('b');
    expect(started.map((s) => s.name)).toEqual(['a', 'b', 'c', 'd']); // the gap has long passed
    finish('a');
    finish('c');
    finish('d');
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps the gap after a slot frees up quickly', async () => {
    const q = new ThumbnailQueue({ concurrency: 1 });
    const { started, finish, job } = jobs();
    void q.enqueue(job('a'));
    const b = q.enqueue(job('b'));
    finish('a');
    await vi.advanceTimersByTimeAsync(10);
    expect(started).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(40);
    expect(started.map((s) => [s.name, s.at - t0])).toEqual([
      ['a', 0],
      ['b', 50],
    ]);
    finish('b');
    await b;
  });

  it('drops a job aborted before it starts, without running it', async () => {
    const q = new ThumbnailQueue();
    const { started, finish, job } = jobs();
    void q.enqueue(job('a'));
    const controller = new AbortController();
    const b = q.enqueue(job('b'), controller.signal);
    const c = q.enqueue(job('c'));
    controller.abort();
    await expect(b).rejects.toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(200);
    expect(started.map((s) => s.name)).toEqual(['a', 'c']);
    await expect(q.enqueue(job('x'), controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    finish('a');
    finish('c');
    await c;
    expect(started.map((s) => s.name)).toEqual(['a', 'c']);
  });

  it('passes a started job its signal, and a failing job rejects only its own promise', async () => {
    const q = new ThumbnailQueue();
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const a = q.enqueue((signal) => {
      seen = signal;
      return Promise.reject(new Error('boom'));
    }, controller.signal);
    await expect(a).rejects.toThrow('boom');
    expect(seen).toBe(controller.signal);
    await vi.advanceTimersByTimeAsync(50);
    await expect(q.enqueue(() => Promise.resolve(1))).resolves.toBe(1);
  });

  it('dispose rejects waiting jobs and starts nothing more', async () => {
    const q = new ThumbnailQueue();
    const { started, job } = jobs();
    void q.enqueue(job('a'));
    const b = q.enqueue(job('b'));
    q.dispose();
    await expect(b).rejects.toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(started.map((s) => s.name)).toEqual(['a']);
    expect(vi.getTimerCount()).toBe(0);
  });
});
