/** The answer every API call returns. A present `token` replaces the stored one. */
export interface Envelope<T = unknown> {
  data: T | null;
  token?: string;
  error?: ApiErrorBody;
}

export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  /** Correlation id for 500s, to quote to support. */
  correlationId?: string;
  /** On rate_limited: seconds until the call is accepted again. */
  retryAfterSeconds?: number;
}

export const MSGPACK = 'application/msgpack';
export const JSON_TYPE = 'application/json';

/** Stable error codes and the HTTP status each maps to. */
export const ERROR_STATUS = {
  bad_request: 400,
  validation_failed: 400,
  unauthorized: 401,
  token_invalid: 401,
  token_expired: 401,
  payment_required: 402,
  forbidden: 403,
  email_not_verified: 403,
  impersonation_refresh_forbidden: 403,
  not_found: 404,
  conflict: 409,
  email_exists: 409,
  code_invalid: 400,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  not_configured: 503,
  /** The server is stopping: a request it was still answering could not finish (try again). */
  unavailable: 503,
  render_failed: 500,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Codes after which the client drops its session. */
export const TOKEN_INVALIDATING_CODES: readonly ErrorCode[] = ['unauthorized', 'token_invalid', 'token_expired'];
