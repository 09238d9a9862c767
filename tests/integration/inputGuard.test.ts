// Every string of every call of the contract, with a control character in it (issue 36). Read from
// the server's route table, so a new route is covered without touching this file: for each route,
// a request of the right shape is derived from its schemas (the owner's real library, folder and
// media ids where an id goes), then each string position of its path parameters, query and body in
// turn gets a NUL, U+0001, U+001F or DEL (and a tab or line break where the field is not free
// text; a lone surrogate in JSON), the body both as JSON and as msgpack; every body also gets a key
// with a NUL and every query an undeclared key with one. Each must be a 400 'validation_failed'
// whose message names that field and that character, never a 5xx (~1,650 calls, a few seconds).
// The money calls also take exactly their schema: no boolean, text or array read as a quantity, no
// content type but JSON and msgpack, no compressed body, and no credit moves.
import { encode } from '@msgpack/msgpack';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  API_PREFIXES,
  JSON_TYPE,
  MSG,
  MSGPACK,
  MULTILINE_KEYWORD,
  type BillingInfo,
  type ErrorCode,
  type Media,
} from '../../src/contract';
import type { RouteEntry } from '../../src/server/http/types';
import { startTestServer } from './support/harness';
import { ownerWithPhoto, waitForStatus } from './support/upload';

type Schema = {
  type?: string;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  [MULTILINE_KEYWORD]?: boolean;
};

let t: Awaited<ReturnType<typeof startTestServer>>;
let owner: { token: string; userId: string };
let lib: { _id: string; rootFolderId: string };
let media: Media;
let routes: RouteEntry[];
let dir: string;

beforeAll(async () => {
  t = await startTestServer({ RENDER_WAIT_MS: '0' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-guard-'));
  ({ owner, lib, media } = await ownerWithPhoto(t, 'guard', dir, { colour: 'red', size: 32, indexed: false }));
  routes = t.server.app.routeTable.filter(
    (r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && API_PREFIXES.some((p) => r.url.startsWith(p)),
  );
}, 180_000);

afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The owner's real ids by the name they go under; other ids are random. */
const realId = (name: string) =>
  ({ id: lib._id, libraryId: lib._id, folderId: lib.rootFolderId, parentId: lib.rootFolderId, mediaId: media._id })[name] ??
  crypto.randomUUID();

/** A value of `schema`'s shape, for the field called `name`. */
function sample(schema: Schema | undefined, name: string): unknown {
  if (!schema) return 'x';
  if (schema.anyOf?.length) return sample(schema.anyOf[0], name);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, sample(s, k)]));
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => sample(schema.items, name));
    case 'integer':
    case 'number':
      return Math.min(Math.max(schema.minimum ?? 1, 1), schema.maximum ?? Infinity);
    case 'boolean':
      return false;
    default:
      if (schema.format === 'uuid') return realId(name);
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.pattern) return ['1', 'title', 'seg_0.ts', 'x'].find((v) => new RegExp(schema.pattern!).test(v)) ?? 'x';
      return 'x';
  }
}

/** Every string of a sampled value: its path from the part's root, and whether its schema marks it free text. */
function stringPositions(value: unknown, schema: Schema | undefined, at: string[] = []): Array<{ at: string[]; text: boolean }> {
  if (typeof value === 'string') return [{ at, text: schema?.[MULTILINE_KEYWORD] === true }];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPositions(v, schema?.items, [...at, String(i)]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => stringPositions(v, schema?.properties?.[k], [...at, k]));
  return [];
}

const withString = (value: unknown, at: string[], s: string): unknown => {
  const copy = structuredClone(value) as Record<string, unknown>;
  let node = copy;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[at.at(-1)!] = s;
  return copy;
};

const BAD = ['\u0000', '\u0001', '\u001f', '\u007f'];
/** Allowed in free text only. */
const LINES = ['\t', '\n'];
const codePoint = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
const hasBody = (method: string) => method === 'POST' || method === 'PUT' || method === 'PATCH';
/** Routes whose body is raw bytes, not JSON or msgpack (the local store's part uploads). */
const rawBody = (url: string) => url.startsWith('/blobs/upload/');

interface Call {
  route: string;
  method: string;
  url: string;
  body?: unknown;
  format?: 'json' | 'msgpack';
  headers?: Record<string, string>;
  raw?: Buffer | string;
}

async function send(call: Call) {
  const headers: Record<string, string> = { accept: JSON_TYPE, authorization: `Bearer ${owner.token}`, ...call.headers };
  let body: Buffer | string | undefined = call.raw;
  if (body === undefined && call.body !== undefined) {
    headers['content-type'] ??= call.format === 'msgpack' ? MSGPACK : JSON_TYPE;
    body = call.format === 'msgpack' ? Buffer.from(encode(call.body)) : JSON.stringify(call.body);
  }
  const res = await fetch(`${t.server.url}${call.url}`, {
    method: call.method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : new Uint8Array(body),
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let error: { code?: ErrorCode; message?: string } | undefined;
  try {
    error = (JSON.parse(text) as { error?: typeof error }).error;
  } catch {
    /* not an envelope */
  }
  return { status: res.status, error };
}

/** Sends the calls a few at a time; returns each one's answer in order. */
async function sendAll(calls: Call[], concurrency = 6) {
  const out: Array<Awaited<ReturnType<typeof send>>> = new Array(calls.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < calls.length; i = next++) out[i] = await send(calls[i]!);
    }),
  );
  return out;
}

describe('control characters in every string of every call', () => {
  it('are refused with a 400 naming the field and the character, JSON and msgpack alike, never a 5xx', async () => {
    const calls: Array<Call & { expected: string }> = [];
    const positions = { params: 0, querystring: 0, body: 0 };
    for (const route of routes) {
      const paramsSchema = route.schema?.params as Schema | undefined;
      const querySchema = route.schema?.querystring as Schema | undefined;
      const bodySchema = route.schema?.body as Schema | undefined;
      const names = [...route.url.matchAll(/:([A-Za-z0-9_]+)|\*$/g)].map((m) => m[1] ?? '*');
      const params = Object.fromEntries(names.map((n) => [n, String(sample(paramsSchema?.properties?.[n], n))]));
      const query = (querySchema ? sample(querySchema, '') : {}) as Record<string, unknown>;
      const body = hasBody(route.method) && !rawBody(route.url) ? (bodySchema ? sample(bodySchema, '') : {}) : undefined;
      const raw = hasBody(route.method) && rawBody(route.url) ? Buffer.alloc(8) : undefined;
      const urlOf = (p: Record<string, string>, q: Record<string, unknown>) => {
        const pathname = route.url.replace(/:([A-Za-z0-9_]+)|\*$/g, (_, n?: string) => encodeURIComponent(p[n ?? '*']!));
        const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();
        return `${pathname}${qs ? `?${qs}` : ''}`;
      };
      const base = {
        route: `${route.method} ${route.url}`,
        method: route.method,
        raw,
        headers: raw ? { 'content-type': 'application/octet-stream' } : undefined,
      };
      const strict = [...BAD, ...LINES];

      for (const name of names)
        for (const c of strict) {
          positions.params++;
          calls.push({
            ...base,
            url: urlOf({ ...params, [name]: `${params[name]}${c}` }, query),
            body,
            expected: MSG.controlCharacter(name, codePoint(c)),
          });
        }
      for (const key of Object.keys(query))
        for (const c of strict) {
          positions.querystring++;
          calls.push({
            ...base,
            url: urlOf(params, { ...query, [key]: `${String(query[key])}${c}` }),
            body,
            expected: MSG.controlCharacter(key, codePoint(c)),
          });
        }
      // A key no schema declares (the query schema would drop it) is still a string of the call.
      calls.push({ ...base, url: urlOf(params, { ...query, extra: 'a\u0000' }), body, expected: MSG.controlCharacter('extra', 'U+0000') });
      if (body === undefined) continue;
      const url = urlOf(params, query);
      for (const format of ['json', 'msgpack'] as const) {
        for (const { at, text } of stringPositions(body, bodySchema)) {
          const field = at.join('.');
          for (const c of text ? BAD : strict) {
            positions.body++;
            const expected = text ? MSG.controlCharacterInText(field, codePoint(c)) : MSG.controlCharacter(field, codePoint(c));
            calls.push({
              ...base,
              url,
              format,
              body: withString(body, at, `${String(at.reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], body))}${c}`),
              expected,
            });
          }
          if (format === 'json')
            calls.push({ ...base, url, format, body: withString(body, at, 'a\ud800b'), expected: MSG.invalidUnicode(field, 'U+D800') });
        }
        // A key of the body, whatever the route declares.
        calls.push({
          ...base,
          url,
          format,
          body: { ...(body as object), 'k\u0000': 1 },
          expected: MSG.controlCharacter('body key "k\\u0000"', 'U+0000'),
        });
      }
    }
    // The settings object's keys are the user's to choose.
    for (const format of ['json', 'msgpack'] as const)
      calls.push({
        route: `POST ${API.meSettings}`,
        method: 'POST',
        url: API.meSettings,
        format,
        body: { 'libraryViewMode\u0000': 'grid' },
        expected: MSG.controlCharacter('body key "libraryViewMode\\u0000"', 'U+0000'),
      });

    const answers = await sendAll(calls);
    const wrong = calls.flatMap((call, i) => {
      const a = answers[i]!;
      if (a.status === 400 && a.error?.code === 'validation_failed' && a.error.message === call.expected) return [];
      return [
        `${call.route} ${call.format ?? ''} ${call.url} ${JSON.stringify(call.body)?.slice(0, 120)}: ${a.status} ${JSON.stringify(a.error)} (wanted ${call.expected})`,
      ];
    });
    expect(wrong.slice(0, 20), `${wrong.length} of ${calls.length} calls:\n${wrong.slice(0, 20).join('\n')}`).toEqual([]);
    // Not vacuous: every part of a request is reached, on most of the routes.
    expect(routes.length).toBeGreaterThan(40);
    expect(positions.params).toBeGreaterThan(300);
    expect(positions.querystring).toBeGreaterThan(50);
    expect(positions.body).toBeGreaterThan(300);
    const health = await fetch(`${t.server.url}${API.health}`);
    expect(health.status).toBe(200);
  }, 120_000);

  it('still takes tabs and line breaks in free text, and printable text everywhere', async () => {
    const feedback = await t.api('POST', API.feedback, {
      token: owner.token,
      body: { comments: 'It broke when\n\tI clicked', error: 'TypeError: x is undefined\n    at y (app.js:1:2)' },
    });
    expect(feedback.status).toBe(201);
    for (const format of ['json', 'msgpack'] as const) {
      const search = await t.api('POST', API.searchTranscript(lib._id), { token: owner.token, format, body: { text: 'two\nlines' } });
      expect(search.status, format).toBe(200);
    }
    const named = await t.api<{ name: string }>('PATCH', API.library(lib._id), { token: owner.token, body: { name: 'Café 😀 日本語' } });
    expect(named.body.data?.name).toBe('Café 😀 日本語');
  });
});

describe('money calls', () => {
  const credits = async () => {
    const info = (await t.api<BillingInfo>('GET', API.billingInfo, { token: owner.token })).body.data!;
    return { left: info.creditsLeft, notes: info.creditNotes.length };
  };

  it('take exactly their schema: no coercion, no other content type, no compressed body, and no credit moves', async () => {
    // The photo's indexing charges when it ends: it must have ended before the balance is read (on
    // a loaded machine its 14 credits once landed in the middle of this test).
    await waitForStatus(t, owner.token, lib._id, media._id, ['completed', 'errored', 'invalid'], 120_000);
    const before = await credits();
    const purchase = { route: 'purchase', method: 'POST', url: API.oneTimePurchase };
    const cases: Array<Call & { status: number; code: ErrorCode; message: string }> = [];
    const mustBeInteger = { status: 400, code: 'validation_failed' as const, message: 'quantity must be integer' };
    for (const format of ['json', 'msgpack'] as const)
      for (const quantity of [true, '3', [2], '1', 1.5, null]) cases.push({ ...purchase, format, body: { quantity }, ...mustBeInteger });
    for (const url of [API.subscriptionPurchase, API.subscriptionChange])
      cases.push({
        route: url,
        method: 'POST',
        url,
        body: { productId: 123 },
        status: 400,
        code: 'validation_failed',
        message: 'productId must be string',
      });
    const json = JSON.stringify({ quantity: 1 });
    for (const type of [
      'application/json-foo',
      'foo/bar',
      'application/jsonx',
      'application/json; charset=latin1',
      'application/json;foo',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/msgpack+json',
    ])
      cases.push({
        ...purchase,
        headers: { 'content-type': type },
        raw: json,
        status: 415,
        code: 'unsupported_media_type',
        message: MSG.unsupportedContentType,
      });
    for (const [encoding, raw] of [
      ['gzip', json],
      ['gzip', gzipSync(json)],
      ['br', json],
      ['deflate', json],
      ['identity, gzip', json],
    ] as const)
      cases.push({
        ...purchase,
        headers: { 'content-type': JSON_TYPE, 'content-encoding': encoding },
        raw,
        status: 415,
        code: 'unsupported_media_type',
        message: MSG.unsupportedContentEncoding,
      });
    const answers = await sendAll(cases, 1);
    const wrong = cases.flatMap((c, i) => {
      const a = answers[i]!;
      return a.status === c.status && a.error?.code === c.code && a.error.message === c.message
        ? []
        : [`${c.url} ${JSON.stringify(c.headers)} ${JSON.stringify(c.body ?? String(c.raw))}: ${a.status} ${JSON.stringify(a.error)}`];
    });
    expect(wrong, wrong.join('\n')).toEqual([]);
    expect(await credits()).toEqual(before);

    // The same call, as the app sends it, does buy: the check above could have failed.
    for (const format of ['json', 'msgpack'] as const) {
      const headers = format === 'json' ? { 'content-type': 'application/json; charset=utf-8' } : undefined;
      expect((await send({ ...purchase, format, body: { quantity: 1 }, headers })).status, format).toBe(200);
    }
    const after = await credits();
    expect(after.left).toBeGreaterThan(before.left);
    expect(after.notes).toBe(before.notes + 2);
  });
});
