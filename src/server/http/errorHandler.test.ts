import { decode } from '@msgpack/msgpack';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { MSGPACK } from '../../contract';
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
