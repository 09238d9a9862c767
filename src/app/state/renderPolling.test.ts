import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RenderAnswer } from '../../contract';
import { ApiError } from '../api/ApiError';
import { awaitRender, RenderFailedError, retryable, withRetry } from './renderPolling';

const answer = (status: RenderAnswer['status'], progress: number, url?: string): RenderAnswer => ({
  renderId: 'r1',
  status,
  progress,
  duration: 4,
  credits: 0,
  ...(url ? { url } : {}),
});

/** Runs the timers until `p` settles: the retries' waits pass at once, on a clock that still counts them. */
async function settle<T>(p: Promise<T>): Promise<T> {
  await vi.runAllTimersAsync();
  return p;
}

describe('download retries and render polling', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries network and server failures with exponential backoff from the base, up to the limit', async () => {
    const calls: number[] = [];
    const err = await settle(
      withRetry(async () => {
        calls.push(Date.now());
        throw new TypeError('Failed to fetch');
      }).catch((e: unknown) => e),
    );
    expect(err).toBeInstanceOf(TypeError);
    expect(calls).toHaveLength(5);
    expect(calls.slice(1).map((t, i) => t - calls[i]!)).toEqual([1000, 2000, 4000, 8000]);
  });

  it('does not retry a refusal or a bug, and returns the first success', async () => {
    let calls = 0;
    const refused = await settle(
      withRetry(async () => {
        calls++;
        throw new ApiError('payment_required', 'short', 402);
      }).catch((e: unknown) => e),
    );
    expect(calls).toBe(1);
    expect((refused as ApiError).code).toBe('payment_required');
    calls = 0;
    const bug = await settle(
      withRetry(async () => {
        calls++;
        throw new TypeError("Cannot read properties of undefined (reading 'url')");
      }).catch((e: unknown) => e),
    );
    expect(calls).toBe(1);
    expect(bug).toBeInstanceOf(TypeError);
    const value = await settle(
      withRetry(async (attempt) => {
        if (attempt < 3) throw new ApiError('internal', 'boom', 500);
        return 'ok';
      }),
    );
    expect(value).toBe('ok');
  });

  it('polls a render until its URL is there, reporting progress, and fails on a failed render', async () => {
    const states = [answer('rendering', 0.5), answer('completed', 1, '/blobs/out.mp4')];
    const progress: number[] = [];
    const url = await awaitRender(
      async () => answer('queued', 0),
      async () => states.shift()!,
      (p) => progress.push(p),
      async () => undefined,
    );
    expect(url).toBe('/blobs/out.mp4');
    expect(progress).toEqual([0, 0.5, 1]);
    const failed = await awaitRender(
      async () => ({ ...answer('failed', 0), error: 'The media of this render was deleted.' }),
      async () => answer('failed', 0),
      undefined,
      async () => undefined,
      'gif',
    ).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(RenderFailedError);
    expect(failed).toMatchObject({ title: 'Failed to render gif', message: 'The media of this render was deleted.' });
    // A recorded failure is not retried by the client: asking again is the person's choice.
    expect(retryable(failed)).toBe(false);
  });
});
