import { describe, expect, it } from 'vitest';
import type { RenderAnswer } from '../../contract';
import { ApiError } from '../api/ApiError';
import { awaitRender, withRetry } from './renderPolling';

const answer = (status: RenderAnswer['status'], progress: number, url?: string): RenderAnswer => ({
  renderId: 'r1',
  status,
  progress,
  duration: 4,
  credits: 0,
  ...(url ? { url } : {}),
});

describe('download retries and render polling', () => {
  it('retries network and server failures with exponential backoff from the base, up to the limit', async () => {
    const waits: number[] = [];
    let calls = 0;
    const err = await withRetry(
      async () => {
        calls++;
        throw new TypeError('Failed to fetch');
      },
      { wait: async (ms) => void waits.push(ms) },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(calls).toBe(5);
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
  });

  it('does not retry a refusal, and returns the first success', async () => {
    let calls = 0;
    const refused = await withRetry(
      async () => {
        calls++;
        throw new ApiError('payment_required', 'short', 402);
      },
      { wait: async () => undefined },
    ).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect((refused as ApiError).code).toBe('payment_required');
    const value = await withRetry(
      async (attempt) => {
        if (attempt < 3) throw new ApiError('internal', 'boom', 500);
        return 'ok';
      },
      { wait: async () => undefined },
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
    await expect(
      awaitRender(
        async () => answer('failed', 0),
        async () => answer('failed', 0),
        undefined,
        async () => undefined,
      ),
    ).rejects.toThrow('Failed to render compilation');
  });
});
