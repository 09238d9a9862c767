// Property-based fuzzing of every route the server registers (read from its route table, so a new
// route is fuzzed without touching this file): path parameters of every shape, hostile query
// strings, bodies of random JSON and msgpack, malformed bytes, wrong content types, deep nesting,
// control characters and NUL bytes, bodies over the limit, with and without a valid token. The
// promise: no 5xx, ever, and the server is still up afterwards. fast-check shrinks a failure to
// the smallest request that still fails and prints it. The one 5xx allowed is the contract's
// 503 'not_configured' for a feature this server has no settings for.
import { encode } from '@msgpack/msgpack';
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, JSON_TYPE, MSGPACK, type Media } from '../../src/contract';
import type { RouteEntry } from '../../src/server/app';
import { makeSolidImage } from '../fixtures/makeMedia';
import { startTestServer } from './support/harness';
import { defaultLibrary, uploadFile, verifiedUser, waitForStatus } from './support/upload';

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
  owner = await verifiedUser(t, 'fuzz');
  lib = await defaultLibrary(t, owner.token);
  const png = await makeSolidImage(dir, 'blue', 64);
  const fin = await uploadFile(t, owner.token, lib._id, lib.rootFolderId, 'blue.png', fs.readFileSync(png));
  media = await waitForStatus(t, owner.token, lib._id, fin.body.data!._id, ['completed', 'errored', 'invalid'], 120_000);
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
const anyString = fc.oneof(fc.string({ unit: 'binary', maxLength: 64 }), nasty, fc.uuid(), fc.integer().map(String));

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
];
const fieldValue = fc.oneof(
  anyString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.array(fc.record({ libraryId: anyString, mediaId: anyString, start: fc.double(), end: fc.double() }), { maxLength: 3 }),
);
/** An object of the field names calls really use, so bodies get past "not an object" into the checks behind it. */
const shapedBody = fc.dictionary(fc.constantFrom(...FIELDS), fieldValue, { maxKeys: 6 });
const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

type Body = { type: string | null; bytes: Buffer | null };
const bodyArb: fc.Arbitrary<Body> = fc.oneof(
  { weight: 4, arbitrary: shapedBody.map((v) => ({ type: JSON_TYPE, bytes: Buffer.from(JSON.stringify(v)) })) },
  { weight: 3, arbitrary: shapedBody.map((v) => ({ type: MSGPACK, bytes: Buffer.from(encode(v)) })) },
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

const tokenArb = fc.constantFrom<'owner' | 'none' | 'garbage'>('owner', 'none', 'garbage');

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
        fc.asyncProperty(paramsArb, queryArb, bodyArb, tokenArb, async (params, query, body, token) => {
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
