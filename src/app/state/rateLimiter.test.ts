import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RETRY_ALL_PER_SECOND } from '../../contract';
import { createRateLimiter } from './rateLimiter';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('rate limiter', () => {
  it('starts at most 2 calls a second, in order', async () => {
    const schedule = createRateLimiter(RETRY_ALL_PER_SECOND);
    const started: Array<[number, number]> = [];
    const t0 = Date.now();
    const calls = [1, 2, 3, 4, 5].map((n) => schedule(async () => void started.push([n, Date.now() - t0])));
    await vi.advanceTimersByTimeAsync(3000);
    await Promise.all(calls);
    expect(started).toEqual([
      [1, 0],
      [2, 500],
      [3, 1000],
      [4, 1500],
      [5, 2000],
    ]);
  });

  it('does not delay a call after a quiet spell', async () => {
    const schedule = createRateLimiter(2);
    await schedule(async () => undefined);
    await vi.advanceTimersByTimeAsync(5000);
    const t = Date.now();
    let at = -1;
    await schedule(async () => void (at = Date.now()));
    expect(at).toBe(t);
  });
});
