import { gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { JSON_TYPE, MSG, MSGPACK } from '../../contract';
import { isExactType, registerCodecs } from './codec';
import { registerErrorHandler } from './errorHandler';

describe('isExactType', () => {
  it('accepts the type alone, in any case, or with a UTF-8 charset', () => {
    for (const h of [
      'application/json',
      'APPLICATION/JSON',
      'application/json; charset=utf-8',
      'application/json;charset="UTF-8"',
      'application/json;',
    ])
      expect(isExactType(h, JSON_TYPE), h).toBe(true);
    expect(isExactType('application/msgpack', MSGPACK)).toBe(true);
  });

  it('refuses another type, a longer one, and any other parameter', () => {
    for (const h of [
      undefined,
      '',
      'application/json-foo',
      'application/jsonx',
      'application/json+x',
      'foo/bar',
      'application/json; charset=latin1',
      'application/json;foo',
      'application/json; boundary=x',
      'application/msgpack',
    ])
      expect(isExactType(h, JSON_TYPE), String(h)).toBe(false);
  });
});

describe('codecs', () => {
  async function app() {
    const a = Fastify();
    registerCodecs(a);
    registerErrorHandler(a);
    a.post('/echo', async (req) => req.body);
    a.get('/ping', async () => 'pong');
    await a.ready();
    return a;
  }
  const post = (a: Awaited<ReturnType<typeof app>>, headers: Record<string, string>, payload: string | Buffer = '{"a":1}') =>
    a.inject({ method: 'POST', url: '/echo', headers: { accept: JSON_TYPE, ...headers }, payload });

  it('answers 415 for a content type that is not exactly JSON or msgpack', async () => {
    const a = await app();
    for (const type of [
      'application/json-foo',
      'foo/bar',
      'application/jsonx',
      'application/json; charset=latin1',
      'application/json;foo',
    ]) {
      const r = await post(a, { 'content-type': type });
      expect(r.statusCode, type).toBe(415);
      expect(r.json().error, type).toEqual({ code: 'unsupported_media_type', message: MSG.unsupportedContentType });
    }
    expect((await post(a, { 'content-type': 'application/json; charset=utf-8' })).json()).toEqual({ a: 1 });
  });

  it('answers 415 for a body in any content encoding but identity, and leaves requests without a body alone', async () => {
    const a = await app();
    for (const encoding of ['gzip', 'br', 'deflate', 'identity, gzip', 'x-anything']) {
      const r = await post(a, { 'content-type': JSON_TYPE, 'content-encoding': encoding }, gzipSync('{"a":1}'));
      expect(r.statusCode, encoding).toBe(415);
      expect(r.json().error, encoding).toEqual({ code: 'unsupported_media_type', message: MSG.unsupportedContentEncoding });
    }
    // JSON that merely claims to be compressed is refused too: nothing is decoded.
    expect((await post(a, { 'content-type': JSON_TYPE, 'content-encoding': 'gzip' })).statusCode).toBe(415);
    expect((await post(a, { 'content-type': JSON_TYPE, 'content-encoding': 'Identity' })).json()).toEqual({ a: 1 });
    expect((await a.inject({ url: '/ping', headers: { 'content-encoding': 'gzip' } })).statusCode).toBe(200);
  });
});
