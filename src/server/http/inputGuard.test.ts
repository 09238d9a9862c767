import { encode } from '@msgpack/msgpack';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { feedbackBodySchema, JSON_TYPE, MSG, MSGPACK, multiline, multiSearchBodySchema, settingsBodySchema } from '../../contract';
import { registerCodecs } from './codec';
import { registerErrorHandler } from './errorHandler';
import { checkString, findControlCharacter, registerInputGuard } from './inputGuard';
import { registerValidatorCompiler } from './validatorCompiler';

describe('checkString', () => {
  it('refuses every C0 control character and DEL, naming the field and the character', () => {
    for (let c = 0; c < 0x20; c++) {
      const s = `a${String.fromCharCode(c)}b`;
      const hex = c.toString(16).toUpperCase().padStart(4, '0');
      expect(checkString(s, 'name', false)).toBe(MSG.controlCharacter('name', `U+${hex}`));
    }
    expect(checkString('a\u007fb', 'name', false)).toBe(MSG.controlCharacter('name', 'U+007F'));
  });

  it('lets free text hold tabs and line breaks, and nothing else below U+0020', () => {
    expect(checkString('one\ttwo\r\nthree\n', 'text', true)).toBeNull();
    expect(checkString('one\u0000', 'text', true)).toBe(MSG.controlCharacterInText('text', 'U+0000'));
    expect(checkString('one\u000b', 'text', true)).toBe(MSG.controlCharacterInText('text', 'U+000B'));
    expect(checkString('one\u007f', 'text', true)).toBe(MSG.controlCharacterInText('text', 'U+007F'));
  });

  it('refuses a lone surrogate and accepts a pair, C1 controls and every other printable text', () => {
    expect(checkString('a\ud800', 'name', false)).toBe(MSG.invalidUnicode('name', 'U+D800'));
    expect(checkString('\udc00a', 'name', true)).toBe(MSG.invalidUnicode('name', 'U+DC00'));
    expect(checkString('\udc00\ud800', 'name', false)).toBe(MSG.invalidUnicode('name', 'U+DC00'));
    for (const ok of ['', 'plain', 'Café 😀 日本語', '\u0080\u009f', '\u00a0\u2028', ' !~'])
      expect(checkString(ok, 'name', false)).toBeNull();
  });
});

describe('findControlCharacter', () => {
  const body = Type.Object({
    name: Type.String(),
    notes: Type.String({ ...multiline }),
    items: Type.Array(Type.Object({ name: Type.String(), text: Type.Optional(Type.String({ ...multiline })) })),
    either: Type.Optional(Type.Union([Type.Number(), Type.String({ ...multiline })])),
  });

  it('finds nothing in clean values, whatever their shape', () => {
    expect(
      findControlCharacter('body', { name: 'a', notes: 'x\ny', items: [{ name: 'b', text: 'c\td' }], n: 1, z: null }, body),
    ).toBeNull();
    expect(findControlCharacter('body', undefined, body)).toBeNull();
    expect(findControlCharacter('body', Buffer.from([0, 1, 2]))).toBeNull();
    expect(findControlCharacter('querystring', { a: ['1', '2'] })).toBeNull();
  });

  it('names the nested field, array index included', () => {
    expect(findControlCharacter('body', { name: 'a', items: [{ name: 'ok' }, { name: 'b\u0001' }] }, body)).toBe(
      MSG.controlCharacter('items.1.name', 'U+0001'),
    );
    expect(findControlCharacter('querystring', { a: ['1', '2\u001f'] })).toBe(MSG.controlCharacter('a.1', 'U+001F'));
    expect(findControlCharacter('params', { id: '\u0000' })).toBe(MSG.controlCharacter('id', 'U+0000'));
  });

  it('allows tabs and line breaks only where the schema marks the string as free text', () => {
    expect(findControlCharacter('body', { notes: 'a\nb' }, body)).toBeNull();
    expect(findControlCharacter('body', { items: [{ text: 'a\nb' }] }, body)).toBeNull();
    expect(findControlCharacter('body', { either: 'a\nb' }, body)).toBeNull();
    expect(findControlCharacter('body', { name: 'a\nb' }, body)).toBe(MSG.controlCharacter('name', 'U+000A'));
    expect(findControlCharacter('body', { items: [{ name: 'a\tb' }] }, body)).toBe(MSG.controlCharacter('items.0.name', 'U+0009'));
    // A key the schema does not declare, and any value without a schema, is held to the strict rule.
    expect(findControlCharacter('body', { other: 'a\nb' }, body)).toBe(MSG.controlCharacter('other', 'U+000A'));
    expect(findControlCharacter('body', { notes: 'a\nb' })).toBe(MSG.controlCharacter('notes', 'U+000A'));
    // The contract's own free text.
    expect(findControlCharacter('body', { comments: 'line 1\nline 2', error: 'Error: x\n    at y' }, feedbackBodySchema)).toBeNull();
    expect(findControlCharacter('body', { criteria: { text: 'a\nb' }, libraryIds: [] }, multiSearchBodySchema)).toBeNull();
  });

  it('refuses a control character in a key at any depth, escaped in the message', () => {
    expect(findControlCharacter('body', { 'a\u0000b': true }, settingsBodySchema)).toBe(
      MSG.controlCharacter('body key "a\\u0000b"', 'U+0000'),
    );
    expect(findControlCharacter('body', { settings: { ['x'.repeat(50) + '\n']: 1 } })).toBe(
      MSG.controlCharacter(`settings key "${'x'.repeat(40)}…"`, 'U+000A'),
    );
    expect(findControlCharacter('querystring', { 'k\u007f': '1' })).toBe(MSG.controlCharacter('querystring key "k\\u007f"', 'U+007F'));
  });

  it('names the first offending value in the request order', () => {
    expect(findControlCharacter('body', { a: 'x\u0001', b: 'y\u0002' })).toBe(MSG.controlCharacter('a', 'U+0001'));
    expect(findControlCharacter('body', ['ok', ['x\u0003'], 'y\u0002'])).toBe(MSG.controlCharacter('1.0', 'U+0003'));
  });

  it('walks very deep values without recursion', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(findControlCharacter('body', deep)).toMatch(/must not contain control characters \(found U\+0000\)/);
  });
});

describe('the guard on a route', () => {
  async function app() {
    const a = Fastify();
    registerValidatorCompiler(a);
    registerCodecs(a);
    registerErrorHandler(a);
    registerInputGuard(a);
    const schema = {
      params: Type.Object({ id: Type.String() }),
      querystring: Type.Object({ q: Type.Optional(Type.String()) }, { additionalProperties: false }),
      body: Type.Object({ name: Type.String(), text: Type.Optional(Type.String({ ...multiline })) }),
    };
    a.post('/library/:id', { schema }, async () => ({ ok: true }));
    // Not a call of the API: the web app's pages are left alone.
    a.get('/page/:id', async () => 'page');
    await a.ready();
    return a;
  }
  const send = async (a: Awaited<ReturnType<typeof app>>, url: string, body: unknown, type: 'json' | 'msgpack' = 'json') =>
    a.inject({
      method: 'POST',
      url,
      headers: { 'content-type': type === 'json' ? JSON_TYPE : MSGPACK, accept: JSON_TYPE },
      payload: type === 'json' ? JSON.stringify(body) : Buffer.from(encode(body)),
    });

  it('answers 400 validation_failed naming the field, for JSON and msgpack alike, before the schema runs', async () => {
    const a = await app();
    for (const type of ['json', 'msgpack'] as const) {
      const r = await send(a, '/library/1', { name: 'a\u0000' }, type);
      expect(r.statusCode, type).toBe(400);
      expect(r.json(), type).toEqual({ data: null, error: { code: 'validation_failed', message: MSG.controlCharacter('name', 'U+0000') } });
      expect((await send(a, '/library/1', { name: 'ok', text: 'a\nb' }, type)).statusCode, type).toBe(200);
      expect((await send(a, '/library/1', { name: 'ok', ['k\u0001']: 1 }, type)).json().error.message, type).toContain(
        'body key "k\\u0001"',
      );
    }
    expect((await send(a, '/library/%00', { name: 'ok' })).json().error.message).toBe(MSG.controlCharacter('id', 'U+0000'));
    expect((await send(a, '/library/1?q=%1F', { name: 'ok' })).json().error.message).toBe(MSG.controlCharacter('q', 'U+001F'));
    // A key the query schema drops is refused all the same: every string of a call is checked.
    expect((await send(a, '/library/1?x%7F=1', { name: 'ok' })).statusCode).toBe(400);
    expect((await a.inject({ url: '/page/%00' })).statusCode).toBe(200);
  });
});
