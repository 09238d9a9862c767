import { ERROR_STATUS, type ErrorCode } from '../contract';

/** The one error type services throw; the HTTP layer maps it to the envelope and its status. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export const badRequest = (message: string) => new AppError('bad_request', message);
export const notFound = (message: string) => new AppError('not_found', message);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const unauthorized = (message: string) => new AppError('unauthorized', message);
export const rateLimited = (message: string, retryAfterSeconds: number) => new AppError('rate_limited', message, { retryAfterSeconds });
