import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { JSON_TYPE, multiline, oneTimePurchaseBodySchema, Uuid } from '../../contract';
import { registerCodecs } from './codec';
import { registerErrorHandler } from './errorHandler';
import { registerValidatorCompiler } from './validatorCompiler';

async function app() {
  const a = Fastify().withTypeProvider<TypeBoxTypeProvider>();
  registerValidatorCompiler(a);
  registerCodecs(a);
  registerErrorHandler(a);
  const schema = {
    params: Type.Object({ n: Type.Integer() }),
    querystring: Type.Object({ limit: Type.Optional(Type.Integer()), all: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    body: Type.Object(
      { quantity: Type.Integer({ minimum: 1 }), note: Type.Optional(Type.String({ ...multiline })), id: Type.Optional(Uuid) },
      { additionalProperties: false },
    ),
  };
  a.post('/buy/:n', { schema }, async (req) => ({ params: req.params, query: req.query, body: req.body }));
  a.post('/top-up', { schema: { body: oneTimePurchaseBodySchema } }, async (req) => req.body);
  await a.ready();
  return a;
}

const post = (a: Awaited<ReturnType<typeof app>>, url: string, body: unknown) =>
  a.inject({ method: 'POST', url, headers: { 'content-type': JSON_TYPE, accept: JSON_TYPE }, payload: JSON.stringify(body) });

describe('validator compiler', () => {
  it('takes a body only as its schema types it: no boolean, text or array becomes a number', async () => {
    const a = await app();
    for (const quantity of [true, '3', [2], '1e1', null, 1.5]) {
      const r = await post(a, '/top-up', { quantity });
      expect(r.statusCode, JSON.stringify(quantity)).toBe(400);
      expect(r.json().error, JSON.stringify(quantity)).toEqual({ code: 'validation_failed', message: 'quantity must be integer' });
    }
    expect((await post(a, '/top-up', { quantity: 3 })).json()).toEqual({ quantity: 3 });
  });

  it("keeps Fastify's other options for bodies: extra keys dropped, formats checked, the contract's keyword known", async () => {
    const a = await app();
    const r = await post(a, '/buy/1', { quantity: 2, extra: 'dropped', note: 'a\nb' });
    expect(r.statusCode).toBe(200);
    expect(r.json().body).toEqual({ quantity: 2, note: 'a\nb' });
    const bad = await post(a, '/buy/1', { quantity: 2, id: 'abc' });
    expect(bad.json().error.message).toBe('id must match format "uuid"');
  });

  it('still reads path parameters and query strings, which are text on the wire, as their types', async () => {
    const a = await app();
    const r = await post(a, '/buy/7?limit=3&all=true', { quantity: 1 });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ params: { n: 7 }, query: { limit: 3, all: true } });
    expect((await post(a, '/buy/7?limit=abc', { quantity: 1 })).json().error.message).toBe('limit must be integer');
  });
});
