import { decode, encode } from '@msgpack/msgpack';
import {
  ERROR_STATUS,
  JSON_TYPE,
  MSG,
  MSGPACK,
  TOKEN_INVALIDATING_CODES,
  type ApiErrorBody,
  type Envelope,
  type ErrorCode,
} from '../../contract';
import { ApiError } from './ApiError';

/** Where the session token lives; the app backs this with local storage and the session store. */
export interface TokenStore {
  get(): string | null;
  set(token: string | null): void;
}

/** 'required' fails locally without a token; 'optional' sends it when there is one. */
export type AuthMode = 'required' | 'optional' | 'none';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  auth?: AuthMode;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  /** Lets the request outlive the page (a last save on pagehide); small bodies only. */
  keepalive?: boolean;
  /**
   * The answer is a file (an attachment, not an envelope): resolved as a `FileAnswer`. Errors still
   * come as envelopes.
   */
  file?: boolean;
}

/** A file answered by the API (`RequestOptions.file`): its bytes and the name its Content-Disposition gives. */
export interface FileAnswer {
  blob: Blob;
  filename: string | null;
}

/** The file name of a Content-Disposition header (RFC 6266: filename* in UTF-8 first, else filename). */
export function dispositionFilename(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      // a malformed one: fall back to the plain name
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  return plain ? (plain[2] ?? plain[1]!).trim() : null;
}

export interface ApiClientOptions {
  tokens: TokenStore;
  /** Origin of the API; '' is the page's own origin. */
  baseUrl?: string;
  format?: 'msgpack' | 'json';
  fetch?: typeof fetch;
  /** Called after a 401 or a token-invalidating code, once the token is dropped. */
  onTokenInvalidated?: (error: ApiError) => void;
}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
}

const KNOWN_CODES = new Set(Object.keys(ERROR_STATUS));

/** The code to use when an answer carries none we know: derived from the HTTP status. */
function codeForStatus(status: number): ErrorCode {
  const match = (Object.entries(ERROR_STATUS) as [ErrorCode, number][]).find(([, s]) => s === status);
  return match ? match[0] : 'internal';
}

function mediaType(header: string | null): string | null {
  if (!header) return null;
  return header.split(';')[0]!.trim().toLowerCase() || null;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const { tokens, baseUrl = '', format = 'msgpack', onTokenInvalidated } = options;
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const contentType = format === 'msgpack' ? MSGPACK : JSON_TYPE;

  async function readEnvelope(res: Response): Promise<Envelope> {
    const type = mediaType(res.headers.get('content-type'));
    if (type === MSGPACK) return decode(new Uint8Array(await res.arrayBuffer())) as Envelope;
    if (type === JSON_TYPE) return (await res.json()) as Envelope;
    // Anything else (an HTML error page from a proxy, an empty body) is not an answer we can trust.
    throw new ApiError(
      'unsupported_media_type',
      type ? `Unsupported response content type: ${type}` : 'Missing response content type',
      res.status,
    );
  }

  async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    const { method = opts.body === undefined ? 'GET' : 'POST', body, auth = 'optional', query, signal, keepalive, file } = opts;
    const token = auth === 'none' ? null : tokens.get();
    if (auth === 'required' && !token) throw new ApiError('unauthorized', MSG.unauthorized, 401);

    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) search.set(k, String(v));
    const qs = search.toString();

    const headers: Record<string, string> = { Accept: contentType };
    if (token) headers.Authorization = `Bearer ${token}`;
    let payload: BodyInit | undefined;
    if (body !== undefined) {
      headers['Content-Type'] = contentType;
      payload = format === 'msgpack' ? (encode(body) as Uint8Array<ArrayBuffer>) : JSON.stringify(body);
    }

    const res = await doFetch(`${baseUrl}${path}${qs ? `?${qs}` : ''}`, {
      method,
      headers,
      body: payload,
      credentials: 'include',
      signal,
      ...(keepalive ? { keepalive } : {}),
    });
    const answered = mediaType(res.headers.get('content-type'));
    if (file && res.ok && answered !== MSGPACK && answered !== JSON_TYPE) {
      return { blob: await res.blob(), filename: dispositionFilename(res.headers.get('content-disposition')) } satisfies FileAnswer as T;
    }
    const envelope = await readEnvelope(res);
    if (typeof envelope.token === 'string' && envelope.token) tokens.set(envelope.token);

    const failure: ApiErrorBody | undefined = envelope.error ?? undefined;
    if (!res.ok || failure) {
      const code: ErrorCode = failure && KNOWN_CODES.has(failure.code) ? failure.code : codeForStatus(res.status);
      const error = new ApiError(code, failure?.message || res.statusText || code, res.status, failure?.retryAfterSeconds);
      // Only a request that carried a token can have been refused because of it.
      if (token && (res.status === 401 || TOKEN_INVALIDATING_CODES.includes(code))) {
        if (tokens.get() === token) tokens.set(null);
        onTokenInvalidated?.(error);
      }
      throw error;
    }
    return envelope.data as T;
  }

  return { request };
}
