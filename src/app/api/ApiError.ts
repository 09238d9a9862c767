import type { ErrorCode } from '../../contract';

/** An error answered by the API (or raised locally in its place), with the envelope's stable code. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly status: number,
    /** Set on rate_limited answers: seconds until the call is accepted again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
