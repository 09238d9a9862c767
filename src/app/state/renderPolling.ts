// Waiting for server work that may be retried: pure helpers of downloads.ts, testable without a page.
import pRetry from 'p-retry';
import { DOWNLOAD_RETRY, MSG_RENDER, RENDER_POLL_MS, type RenderAnswer } from '../../contract';
import { isApiError } from '../api/ApiError';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A render the server made and recorded as failed: `message` is its reason, `title` the spec's
 * 'Failed to render compilation' or 'Failed to render gif'. Not retried here: asking again later
 * starts a new attempt, so the person decides.
 */
export class RenderFailedError extends Error {
  constructor(
    readonly title: string,
    reason: string,
  ) {
    super(reason);
    this.name = 'RenderFailedError';
  }
}

/** A failure worth another attempt: the network, or the server (5xx, 429); never a refusal (4xx) or a failed render. */
export const retryable = (e: unknown) => !(e instanceof RenderFailedError) && (!isApiError(e) || e.status >= 500 || e.status === 429);

/**
 * `fn` up to `attempts` times (p-retry), waiting base, 2×base, 4×base… between tries while the error
 * is retryable. A TypeError other than a network failure is a bug and is not retried.
 */
export function withRetry<T>(
  fn: (attempt: number) => Promise<T>,
  opts: { attempts?: number; baseMs?: number; isRetryable?: (e: unknown) => boolean } = {},
): Promise<T> {
  const { attempts = DOWNLOAD_RETRY.attempts, baseMs = DOWNLOAD_RETRY.baseMs, isRetryable = retryable } = opts;
  return pRetry(fn, {
    retries: attempts - 1,
    factor: 2,
    minTimeout: baseMs,
    randomize: false,
    shouldRetry: ({ error }) => isRetryable(error),
  });
}

/** Starts a render and polls it until its URL is there; progress goes to `onProgress` (0..1). */
export async function awaitRender(
  start: () => Promise<RenderAnswer>,
  status: (renderId: string) => Promise<RenderAnswer>,
  onProgress: (p: number) => void = () => undefined,
  wait: (ms: number) => Promise<void> = sleep,
  kind: 'mp4' | 'gif' = 'mp4',
): Promise<string> {
  let answer = await start();
  for (;;) {
    onProgress(answer.progress);
    if (answer.status === 'completed' && answer.url) return answer.url;
    if (answer.status === 'failed')
      throw new RenderFailedError(
        kind === 'gif' ? MSG_RENDER.gifFailed : MSG_RENDER.compilationFailed,
        answer.error ?? MSG_RENDER.failedReason,
      );
    await wait(RENDER_POLL_MS);
    answer = await status(answer.renderId);
  }
}
