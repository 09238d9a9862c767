import { decode } from '@msgpack/msgpack';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { gifBodySchema, MSG, MSGPACK, renderStatusParamsSchema, srtQuerySchema } from '../../contract';
import { AppError } from '../errors';
import { registerCodecs } from './codec';
import { registerErrorHandler } from './errorHandler';

async function appThatThrows(err: unknown) {
  const logged: unknown[] = [];
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => logged.push(JSON.parse(line)) } } });
  registerCodecs(app);
  registerErrorHandler(app);
  app.get('/boom', async () => {
    throw err;
  });
  await app.ready();
  return { app, logged };
}

describe('error handler', () => {
  it('maps a typed error to its status and envelope', async () => {
    const { app } = await appThatThrows(new AppError('email_exists', 'taken'));
    const r = await app.inject({ url: '/boom', headers: { accept: 'application/json' } });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ data: null, error: { code: 'email_exists', message: 'taken' } });
  });

  it('turns an unknown error into a 500 with a correlation id that is in the log, and no stack', async () => {
    const { app, logged } = await appThatThrows(new Error('secret internals at /srv/db.ts:42'));
    const r = await app.inject({ url: '/boom', headers: { accept: MSGPACK } });
    expect(r.statusCode).toBe(500);
    expect(r.headers['content-type']).toContain(MSGPACK);
    const body = decode(r.rawPayload) as { error: { code: string; message: string; correlationId: string } };
    expect(body.error.code).toBe('internal');
    expect(body.error.message).not.toContain('secret internals');
    expect(r.body).not.toContain('db.ts');
    expect(body.error.correlationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(logged.some((l) => (l as { correlationId?: string }).correlationId === body.error.correlationId)).toBe(true);
  });

  it('sets Retry-After on rate limits', async () => {
    const { app } = await appThatThrows(new AppError('rate_limited', 'slow down', { retryAfterSeconds: 42 }));
    const r = await app.inject({ url: '/boom' });
    expect(r.statusCode).toBe(429);
    expect(r.headers['retry-after']).toBe('42');
    expect(r.json().error.retryAfterSeconds).toBe(42);
  });
});

describe('validation errors of a route schema', () => {
  async function appWithSchema() {
    const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
    registerCodecs(app);
    registerErrorHandler(app);
    const seen: unknown[] = [];
    app.get('/range', { schema: { querystring: srtQuerySchema, params: Type.Object({}) } }, async (req) => {
      seen.push(req.query);
      return { ok: true };
    });
    app.post('/moments/:renderId', { schema: { params: renderStatusParamsSchema, body: gifBodySchema } }, async () => ({ ok: true }));
    await app.ready();
    return { app, seen };
  }

  it('answers 400 validation_failed naming the field, and the handler never runs', async () => {
    const { app, seen } = await appWithSchema();
    for (const [query, message] of [
      ['start=abc', 'start must be number'],
      ['start=NaN', 'start must be number'],
      ['start=Infinity', 'start must be number'],
      ['start=-1', 'start must be >= 0'],
      ['start=1&start=2', 'start must be number'],
      ['end=1e308', 'end must be <= 86400'],
      ['end=1e400', 'end must be number'],
    ]) {
      const r = await app.inject({ url: `/range?${query}`, headers: { accept: 'application/json' } });
      expect(r.statusCode, query).toBe(400);
      expect(r.json(), query).toEqual({ data: null, error: { code: 'validation_failed', message } });
    }
    expect(seen).toEqual([]);
  });

  it('gives the handler numbers, and drops keys the schema does not declare', async () => {
    const { app, seen } = await appWithSchema();
    const r = await app.inject({ url: '/range?start=1.5&end=2&other=x' });
    expect(r.statusCode).toBe(200);
    expect(seen).toEqual([{ start: 1.5, end: 2 }]);
  });

  it('names params and body fields', async () => {
    const { app } = await appWithSchema();
    const bad = await app.inject({ method: 'POST', url: '/moments/abc', payload: { start: 0, end: 1 } });
    expect(bad.json().error).toEqual({ code: 'validation_failed', message: 'renderId must match format "uuid"' });
    const missing = await app.inject({ method: 'POST', url: `/moments/${crypto.randomUUID()}`, payload: { start: 0 } });
    expect(missing.json().error).toEqual({ code: 'validation_failed', message: 'end is required' });
  });
  it("answers a request cut short by the server's shutdown 503 'try again' (no correlation id, no error logged), and 500 before it", async () => {
    const logged: Array<{ level: number }> = [];
    const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => logged.push(JSON.parse(line)) } } });
    registerCodecs(app);
    registerErrorHandler(app);
    let fail!: (e: Error) => void;
    app.get('/work', () => new Promise((_, reject) => (fail = reject)));
    app.get('/boom', async () => {
      throw new Error('ffmpeg failed (exit null)');
    });
    await app.ready();
    expect((await app.inject({ url: '/boom', headers: { accept: 'application/json' } })).statusCode).toBe(500);
    // A request in flight when the server starts to close; its tool is then killed.
    const inFlight = app.inject({ url: '/work', headers: { accept: 'application/json' } });
    await new Promise((r) => setTimeout(r, 20));
    const closed = app.close();
    await new Promise((r) => setTimeout(r, 20));
    fail(new Error('ffmpeg failed (exit null)'));
    const r = await inFlight;
    await closed;
    expect(r.statusCode).toBe(503);
    expect(r.headers['retry-after']).toBe('5');
    expect(r.json()).toEqual({ data: null, error: { code: 'unavailable', message: MSG.shuttingDown, retryAfterSeconds: 5 } });
    // the 500 before the shutdown was logged as an error; the cut-short request only as information
    expect(logged.filter((l) => l.level >= 50)).toHaveLength(1);
  });
});
