// Property-based fuzzing of every route the server registers (read from its route table, so a new
// route is fuzzed without touching this file): path parameters of every shape, hostile query
// strings, bodies of random JSON and msgpack (mostly the route's own fields, of their types),
// malformed bytes, wrong content types, deep nesting, control characters and NUL bytes in values
// and keys (without the input guard this finds the 500s of a NUL in a name), bodies over the limit,
// with and without a valid token. The promise: no 5xx, ever, and the server is still up afterwards. fast-check shrinks a failure to
// the smallest request that still fails and prints it. The one 5xx allowed is the contract's
// 503 'not_configured' for a feature this server has no settings for.
import { encode } from '@msgpack/msgpack';
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, JSON_TYPE, MSGPACK, type Media } from '../../src/contract';
import type { RouteEntry } from '../../src/server/http/types';
import { startTestServer } from './support/harness';
import { ownerWithPhoto } from './support/upload';

const RUNS = Number(process.env.FUZZ_RUNS ?? 30);

let t: Awaited<ReturnType<typeof startTestServer>>;
let owner: { token: string; userId: string };
let lib: { _id: string; rootFolderId: string };
let media: Media;
let routes: RouteEntry[];
let dir: string;

beforeAll(async () => {
  t = await startTestServer({ RENDER_WAIT_MS: '0' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-fuzz-'));
  ({ owner, lib, media } = await ownerWithPhoto(t, 'fuzz', dir, { colour: 'blue', size: 64, indexed: true }));
  // The API, not the web app's files; destructive calls last (they may end the session they use).
  routes = t.server.app.routeTable
    .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && r.url !== '*' && !r.url.startsWith('/assets'))
    .sort(
      (a, b) =>
        Number(a.method === 'DELETE') - Number(b.method === 'DELETE') || Number(/account/.test(a.url)) - Number(/account/.test(b.url)),
    );
}, 180_000);

afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Percent-encodes every byte of the string's UTF-8 (lone surrogates become U+FFFD, as a browser sends them). */
const encodeSegment = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

const nasty = fc.constantFrom(
  '',
  ' ',
  '..',
  '%',
  '\u0000',
  // Every kind of character the input guard refuses (issue 36), alone and inside text, and what it lets through in free text.
  'a\u0000b',
  '\u0001',
  '\u001f',
  '\u007f',
  '\ud800',
  'x\udc00y',
  '\t',
  'line\nbreak\r\n',
  'null',
  'undefined',
  'NaN',
  '-1',
  '0',
  '1e308',
  'Infinity',
  '[]',
  '{}',
  "' or 1=1 --",
  'a'.repeat(5000),
);
/** Text with one character the input guard refuses (a C0 control, DEL or a lone surrogate) somewhere in it. */
const controlString = fc
  .tuple(
    fc.string({ maxLength: 8 }),
    // NUL most often: it is the one PostgreSQL refuses in text and jsonb.
    fc.oneof(
      { weight: 3, arbitrary: fc.constant('\u0000') },
      { weight: 2, arbitrary: fc.integer({ min: 1, max: 0x1f }).map((c) => String.fromCharCode(c)) },
      { weight: 1, arbitrary: fc.constantFrom('\u007f', '\ud800', '\udfff') },
    ),
    fc.string({ maxLength: 8 }),
  )
  .map(([a, c, b]) => `${a}${c}${b}`);
const anyString = fc.oneof(fc.string({ unit: 'binary', maxLength: 64 }), nasty, fc.uuid(), fc.integer().map(String), {
  weight: 2,
  arbitrary: controlString,
});

/** A value for path parameter `name`: often one of the owner's real ids (deeper code runs), else anything. */
function paramArb(name: string) {
  const real: Record<string, string[]> = {
    id: [lib._id],
    libraryId: [lib._id],
    mediaId: [media._id],
    folderId: [lib.rootFolderId],
  };
  const known = real[name] ?? [];
  return known.length ? fc.oneof(fc.constantFrom(...known), anyString) : anyString;
}

const QUERY_KEYS = [
  'start',
  'end',
  'filename',
  'libraryId',
  'mediaId',
  'folderId',
  'text',
  'page',
  'limit',
  'q',
  'type',
  'search',
  'libs',
  'token',
  'format',
  'tab',
  'momentId',
  'at',
  'width',
];
const queryArb = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 8 })), anyString), { maxLength: 6 });

const FIELDS = [
  'clips',
  'start',
  'end',
  'height',
  'filename',
  'watermark',
  'url',
  'items',
  'name',
  'email',
  'password',
  'text',
  'libraryIds',
  'settings',
  'parts',
  'opaqueData',
  'size',
  'token',
  'plan',
  'amount',
  'mediaIds',
  'folderId',
  'libraryId',
  'mediaId',
  'image',
  'currentPassword',
  'newPassword',
  'oldPassword',
  'comments',
  'error',
  'criteria',
  'quantity',
  'productId',
  'uniqueId',
  'by',
  'minutes',
  'libraryViewMode',
];
/** Keys with control characters in them: settings keys are the user's to choose, and any body's keys reach the guard. */
const CONTROL_KEYS = ['k\u0000', 'libraryViewMode\u0000', '\u0001', 'name\u007f', '\ud800', 'a\nb'];
const fieldValue = fc.oneof(
  { weight: 4, arbitrary: anyString },
  fc.dictionary(fc.constantFrom('text', 'name', 'url', 'email'), anyString, { maxKeys: 2 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.array(fc.record({ libraryId: anyString, mediaId: anyString, start: fc.double(), end: fc.double() }), { maxLength: 3 }),
);
type FieldSchema = { type?: string; properties?: Record<string, FieldSchema>; items?: FieldSchema };
/** A value for a field of this schema: mostly of its type (strings hostile), else anything. */
function valueFor(schema: FieldSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const ofType: Record<string, () => fc.Arbitrary<unknown>> = {
    string: () => anyString,
    integer: () => fc.integer({ min: 0, max: 100 }),
    number: () => fc.double({ min: 0, max: 100, noNaN: true }),
    boolean: () => fc.boolean(),
    array: () => fc.array(valueFor(schema?.items, depth + 1), { maxLength: 3 }),
    object: () =>
      Object.keys(schema?.properties ?? {}).length
        ? fc.record(Object.fromEntries(Object.entries(schema!.properties!).map(([k, s]) => [k, valueFor(s, depth + 1)])))
        : fc.dictionary(fc.constantFrom(...CONTROL_KEYS, ...FIELDS), anyString, { maxKeys: 3 }),
  };
  const typed = depth < 3 ? ofType[schema?.type ?? '']?.() : undefined;
  return typed ? fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: fieldValue }) : fieldValue;
}

/**
 * An object of the field names calls really use: the route's own (from its body schema), each there
 * or not and mostly of its type, and a few others, so bodies get past "not an object" and the
 * schema into the checks behind them.
 */
const shapedBody = (schema: FieldSchema | undefined) =>
  fc
    .tuple(
      fc.record(Object.fromEntries(Object.entries(schema?.properties ?? {}).map(([k, s]) => [k, valueFor(s)])), { requiredKeys: [] }),
      fc.dictionary(
        fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...FIELDS) }, { weight: 1, arbitrary: fc.constantFrom(...CONTROL_KEYS) }),
        fc.oneof(
          { weight: 5, arbitrary: fieldValue },
          { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...CONTROL_KEYS), anyString, { maxKeys: 2 }) },
        ),
        { maxKeys: schema?.properties ? 1 : 6 },
      ),
    )
    .map(([own, others]) => ({ ...others, ...own }));
const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

type Body = { type: string | null; bytes: Buffer | null };
const bodyArb = (route: RouteEntry): fc.Arbitrary<Body> => {
  const schema = route.schema?.body as FieldSchema | undefined;
  return fc.oneof(
    { weight: 4, arbitrary: shapedBody(schema).map((v) => ({ type: JSON_TYPE, bytes: Buffer.from(JSON.stringify(v)) })) },
    { weight: 3, arbitrary: shapedBody(schema).map((v) => ({ type: MSGPACK, bytes: Buffer.from(encode(v)) })) },
    {
      weight: 2,
      arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => ({ type: JSON_TYPE, bytes: Buffer.from(JSON.stringify(v) ?? 'null') })),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }).map((b) => ({ type: MSGPACK, bytes: Buffer.from(b) })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }).map((b) => ({ type: JSON_TYPE, bytes: Buffer.from(b) })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Body>(
        { type: JSON_TYPE, bytes: Buffer.from(deep(5000)) },
        { type: MSGPACK, bytes: Buffer.from(encode(JSON.parse(deep(90)) as unknown)) },
        { type: JSON_TYPE, bytes: Buffer.from(JSON.stringify({ name: 'x'.repeat(1100 * 1024) })) },
        { type: 'text/plain', bytes: Buffer.from('hello') },
        { type: 'application/x-www-form-urlencoded', bytes: Buffer.from('a=1&b=2') },
        { type: null, bytes: Buffer.from('{"a":1}') },
        { type: `${JSON_TYPE}; charset=latin1`, bytes: Buffer.from('{"name":"\u0000\u0001\u001f"}') },
        { type: null, bytes: null },
      ),
    },
  );
};

// Mostly the owner's: a request without a valid token stops at authentication, before most checks.
const tokenArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant('owner' as const) },
  { weight: 1, arbitrary: fc.constantFrom('none' as const, 'garbage' as const) },
);

async function send(route: RouteEntry, params: Record<string, string>, query: Array<[string, string]>, body: Body, token: string) {
  const pathname = route.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeSegment(params[name] ?? ''));
  const qs = query.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join('&');
  const headers: Record<string, string> = { accept: JSON_TYPE };
  if (token === 'owner') headers.authorization = `Bearer ${owner.token}`;
  if (token === 'garbage') headers.authorization = 'Bearer e30.e30.AAAA';
  const withBody = route.method !== 'GET' && route.method !== 'DELETE' && body.bytes !== null;
  if (withBody && body.type) headers['content-type'] = body.type;
  const res = await fetch(`${t.server.url}${pathname}${qs ? `?${qs}` : ''}`, {
    method: route.method,
    headers,
    body: withBody ? new Uint8Array(body.bytes!) : undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let code = '';
  if (res.status >= 500) code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? '';
  return { status: res.status, code };
}

describe('every route under hostile input', () => {
  it('has routes to fuzz', () => {
    expect(routes.length).toBeGreaterThan(40);
  });

  it('never answers 5xx, and the server stays up', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const names = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
      const paramsArb = fc.record(Object.fromEntries(names.map((n) => [n, paramArb(n)])) as Record<string, fc.Arbitrary<string>>);
      const result = await fc.check(
        fc.asyncProperty(paramsArb, queryArb, bodyArb(route), tokenArb, async (params, query, body, token) => {
          const { status, code } = await send(route, params, query, body, token);
          // The one 5xx on purpose: a feature this server has no settings for (support chat without INTERCOM_SECRET).
          return status < 500 || (status === 503 && code === 'not_configured');
        }),
        { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 20261125) },
      );
      if (result.failed)
        failures.push(`${route.method} ${route.url}: ${fc.defaultReportMessage(result)?.split('\n').slice(0, 6).join('\n')}`);
    }
    if (failures.length && process.env.FUZZ_REPORT) fs.writeFileSync(process.env.FUZZ_REPORT, failures.join('\n\n'));
    expect(failures, failures.join('\n\n')).toEqual([]);
    const health = await fetch(`${t.server.url}${API.health}`);
    expect(health.status).toBe(200);
  }, 600_000);
});
