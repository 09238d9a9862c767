import { decode, encode } from '@msgpack/msgpack';
import { describe, expect, it, vi } from 'vitest';
import { MSG, type Envelope } from '../../contract';
import { ApiError } from './ApiError';
import { createApiClient, dispositionFilename, type FileAnswer, type TokenStore } from './client';

function memoryTokens(initial: string | null = null): TokenStore & { value: string | null } {
  const store = {
    value: initial,
    get: () => store.value,
    set: (t: string | null) => {
      store.value = t;
    },
  };
  return store;
}

const msgpackResponse = (envelope: Envelope, status = 200, type = 'application/msgpack') =>
  new Response(encode(envelope) as Uint8Array<ArrayBuffer>, { status, headers: { 'content-type': type } });

function setup(opts: {
  token?: string | null;
  respond: (req: { url: string; init: RequestInit }) => Response;
  format?: 'json' | 'msgpack';
}) {
  const tokens = memoryTokens(opts.token ?? null);
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const req = { url: String(url), init: init ?? {} };
    calls.push(req);
    return opts.respond(req);
  });
  const onTokenInvalidated = vi.fn();
  const client = createApiClient({ tokens, fetch, baseUrl: 'http://api.test', format: opts.format, onTokenInvalidated });
  return { client, tokens, calls, onTokenInvalidated };
}

describe('api client', () => {
  it('sends msgpack with credentials and decodes the envelope data', async () => {
    const { client, calls } = setup({ respond: () => msgpackResponse({ data: { ok: true } }) });
    const data = await client.request<{ ok: boolean }>('/auth/email/login', { method: 'POST', body: { email: 'a@b.co' }, auth: 'none' });
    expect(data).toEqual({ ok: true });
    const { url, init } = calls[0]!;
    expect(url).toBe('http://api.test/auth/email/login');
    expect(init.credentials).toBe('include');
    const headers = init.headers as Record<string, string>;
    expect(headers['Content-Type']).toBe('application/msgpack');
    expect(headers.Accept).toBe('application/msgpack');
    expect(decode(init.body as Uint8Array)).toEqual({ email: 'a@b.co' });
  });

  it('falls back to JSON when configured', async () => {
    const { client, calls } = setup({
      format: 'json',
      respond: () => new Response(JSON.stringify({ data: [1, 2] }), { headers: { 'content-type': 'application/json; charset=utf-8' } }),
    });
    expect(await client.request('/x', { method: 'POST', body: { a: 1 } })).toEqual([1, 2]);
    expect(calls[0]!.init.body).toBe('{"a":1}');
    expect((calls[0]!.init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('adds a query string and skips undefined values', async () => {
    const { client, calls } = setup({ respond: () => msgpackResponse({ data: null }) });
    await client.request('/billing/credits/usage/history', { query: { limit: 10, olderThan: undefined } });
    expect(calls[0]!.url).toBe('http://api.test/billing/credits/usage/history?limit=10');
    expect(calls[0]!.init.method).toBe('GET');
  });

  it('stores a token that comes with an answer, replacing the old one', async () => {
    const { client, tokens } = setup({ token: 'old', respond: () => msgpackResponse({ data: {}, token: 'new' }) });
    await client.request('/user/me', { auth: 'required' });
    expect(tokens.value).toBe('new');
  });

  it('sends the bearer token when there is one', async () => {
    const { client, calls } = setup({ token: 'tok', respond: () => msgpackResponse({ data: {} }) });
    await client.request('/user/me', { auth: 'required' });
    expect((calls[0]!.init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
  });

  it("fails locally with 'unauthorized' (401) when a call needs a token and there is none", async () => {
    const { client, calls } = setup({ respond: () => msgpackResponse({ data: {} }) });
    const error = await client.request('/user/me', { auth: 'required' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'unauthorized', message: MSG.unauthorized, status: 401 });
    expect(calls).toHaveLength(0);
  });

  it('raises a typed error with code, message, status and retry time', async () => {
    const { client } = setup({
      respond: () =>
        msgpackResponse(
          { data: null, error: { code: 'rate_limited', message: 'You have exceeded the request limit', retryAfterSeconds: 42 } },
          429,
        ),
    });
    const error = await client.request('/auth/password/reset/request', { body: { email: 'a@b.co' } }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'rate_limited',
      message: 'You have exceeded the request limit',
      status: 429,
      retryAfterSeconds: 42,
    });
  });

  it('drops the token and reports it on a 401 of an authenticated call', async () => {
    const { client, tokens, onTokenInvalidated } = setup({
      token: 'tok',
      respond: () => msgpackResponse({ data: null, error: { code: 'token_expired', message: 'expired' } }, 401),
    });
    await expect(client.request('/user/me', { auth: 'required' })).rejects.toMatchObject({ code: 'token_expired', status: 401 });
    expect(tokens.value).toBeNull();
    expect(onTokenInvalidated).toHaveBeenCalledOnce();
  });

  it('drops the token on an invalidating code even with another status', async () => {
    const { client, tokens } = setup({
      token: 'tok',
      respond: () => msgpackResponse({ data: null, error: { code: 'token_invalid', message: 'bad' } }, 400),
    });
    await expect(client.request('/user/me')).rejects.toMatchObject({ code: 'token_invalid' });
    expect(tokens.value).toBeNull();
  });

  it('keeps the token on other errors, and on a 401 of a call sent without one', async () => {
    const forbidden = setup({
      token: 'tok',
      respond: () => msgpackResponse({ data: null, error: { code: 'forbidden', message: 'no' } }, 403),
    });
    await expect(forbidden.client.request('/x')).rejects.toMatchObject({ code: 'forbidden', status: 403 });
    expect(forbidden.tokens.value).toBe('tok');

    const login = setup({
      respond: () => msgpackResponse({ data: null, error: { code: 'unauthorized', message: 'Incorrect email or password.' } }, 401),
    });
    await expect(login.client.request('/auth/email/login', { body: {}, auth: 'none' })).rejects.toMatchObject({
      message: 'Incorrect email or password.',
    });
    expect(login.onTokenInvalidated).not.toHaveBeenCalled();
  });

  it('raises an error for a missing or unsupported response content type', async () => {
    const html = setup({ respond: () => new Response('<html>gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }) });
    await expect(html.client.request('/x')).rejects.toMatchObject({ code: 'unsupported_media_type', status: 502 });

    const none = setup({ respond: () => new Response(null, { status: 200 }) });
    await expect(none.client.request('/x')).rejects.toMatchObject({
      code: 'unsupported_media_type',
      message: 'Missing response content type',
    });
  });

  it('derives a code from the status when the error body has none we know', async () => {
    const { client } = setup({ respond: () => msgpackResponse({ data: null }, 409) });
    await expect(client.request('/x')).rejects.toMatchObject({ code: 'conflict', status: 409 });
  });

  it('answers a file call with its bytes and name, and its refusal as an error', async () => {
    const srt = '1\n00:00:00,000 --> 00:00:01,000\nHello\n';
    const ok = setup({
      token: 't',
      respond: () =>
        new Response(srt, {
          headers: {
            'content-type': 'application/x-subrip',
            'content-disposition': `attachment; filename="a.srt"; filename*=UTF-8''caf%C3%A9.srt`,
          },
        }),
    });
    const file = await ok.client.request<FileAnswer>('/rendering/compilation/subtitles', { method: 'POST', body: {}, file: true });
    expect(await file.blob.text()).toBe(srt);
    expect(file.filename).toBe('café.srt');
    const refused = setup({
      token: 't',
      respond: () => msgpackResponse({ data: null, error: { code: 'not_found', message: 'Media not found.' } }, 404),
    });
    await expect(refused.client.request('/x', { method: 'POST', body: {}, file: true })).rejects.toMatchObject({
      code: 'not_found',
      status: 404,
    });
    expect(dispositionFilename('attachment; filename="x y.mlt"')).toBe('x y.mlt');
    expect(dispositionFilename(null)).toBeNull();
  });
});
