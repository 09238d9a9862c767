// Every route's params, query and body are schemas of src/contract/schemas, checked before any
// service runs (issue 20). Read from the route table, so a new route is covered without touching
// this file:
//   - each path parameter is declared, each id among them (`id`, `…Id`) as a UUID, and each query
//     schema lists its keys (any other key is dropped);
//   - hostile path and query values generated from those schemas (NaN, Infinity, negative, huge,
//     repeated keys, ids that are not UUIDs) never get a 5xx, and no service is ever called with a
//     number that is NaN or infinite (every service method is wrapped to check its arguments);
//   - the values that used to slip through (`t=abc` on thumbnails, `limit=abc` on the usage history
//     and search, `start=Infinity` on SRT and media ranges, `sort=abc`, a part number `abc`) are now
//     400 validation_failed and the service is never called.
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, JSON_TYPE, type Media, type PreviewTokenAnswer } from '../../src/contract';
import type { RouteEntry } from '../../src/server/http/types';
import { IndexRepository } from '../../src/server/modules/ingest/index.repository';
import { AccountService } from '../../src/server/modules/accounts/account.service';
import { BillingService } from '../../src/server/modules/billing/billing.service';
import { ExternalService } from '../../src/server/modules/external/external.service';
import { LibraryService } from '../../src/server/modules/libraries/library.service';
import { RenderService } from '../../src/server/modules/render/render.service';
import { SearchService } from '../../src/server/modules/search/search.service';
import { TranscriptService } from '../../src/server/modules/search/transcript.service';
import { UploadService } from '../../src/server/modules/upload/upload.service';
import { makeSolidImage } from '../fixtures/makeMedia';
import { startTestServer } from './support/harness';
import { defaultLibrary, uploadFile, verifiedUser, waitForStatus } from './support/upload';

const RUNS = Number(process.env.FUZZ_RUNS ?? 20);

type Schema = { type?: string; format?: string; properties?: Record<string, Schema>; additionalProperties?: boolean };

/** Every call a route makes into a service (or the index repository), by `Class.method`, with a note when an argument was not finite. */
const calls: string[] = [];
const badCalls: string[] = [];

/** Where in `value` a number is NaN or infinite (null: nowhere). Raw bodies (bytes, streams) are not looked into. */
function nonFinite(value: unknown, at = 'arg', seen = new Set<unknown>(), depth = 0): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${at} = ${value}`;
  if (value === null || typeof value !== 'object' || seen.has(value) || depth > 6) return null;
  if (ArrayBuffer.isView(value) || typeof (value as { pipe?: unknown }).pipe === 'function') return null;
  seen.add(value);
  for (const [k, v] of Object.entries(value)) {
    const found = nonFinite(v, `${at}.${k}`, seen, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Wraps each method of the classes' prototypes: the routes' instances call through them. */
function watchServices(classes: Array<{ name: string; prototype: object }>) {
  const restore: Array<() => void> = [];
  for (const cls of classes) {
    const proto = cls.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const original = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
      if (name === 'constructor' || typeof original !== 'function') continue;
      proto[name] = function (this: unknown, ...args: unknown[]) {
        const key = `${cls.name}.${name}`;
        calls.push(key);
        const found = nonFinite(args);
        if (found) badCalls.push(`${key}: ${found}`);
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      };
      restore.push(() => (proto[name] = original));
    }
  }
  return () => restore.forEach((r) => r());
}

let t: Awaited<ReturnType<typeof startTestServer>>;
let owner: { token: string; userId: string };
let lib: { _id: string; rootFolderId: string };
let media: Media;
let previewToken: string;
let routes: RouteEntry[];
let dir: string;
let unwatch: () => void;

beforeAll(async () => {
  t = await startTestServer({ RENDER_WAIT_MS: '0' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-schemas-'));
  owner = await verifiedUser(t, 'schemas');
  lib = await defaultLibrary(t, owner.token);
  const png = await makeSolidImage(dir, 'green', 64);
  const fin = await uploadFile(t, owner.token, lib._id, lib.rootFolderId, 'green.png', fs.readFileSync(png));
  media = await waitForStatus(t, owner.token, lib._id, fin.body.data!._id, ['completed', 'errored', 'invalid'], 120_000);
  previewToken = (await t.api<PreviewTokenAnswer>('GET', API.libraryPreviewToken(lib._id), { token: owner.token })).body.data!.previewToken;
  unwatch = watchServices([
    AccountService,
    LibraryService,
    UploadService,
    BillingService,
    SearchService,
    RenderService,
    ExternalService,
    TranscriptService,
    IndexRepository,
  ]);
  // The API, not the web app's files; destructive calls last (they may remove what later calls name).
  routes = t.server.app.routeTable
    .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && r.url !== '*' && !r.url.startsWith('/assets'))
    .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
}, 180_000);

afterAll(async () => {
  unwatch?.();
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const isIdName = (name: string) => name === 'id' || name.endsWith('Id');
const pathParams = (url: string) => [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
const props = (s: unknown) => (s as Schema | undefined)?.properties ?? {};

async function send(method: string, url: string, opts: { token?: string | null; body?: unknown; type?: string } = {}) {
  const headers: Record<string, string> = { accept: JSON_TYPE };
  if (opts.token !== null) headers.authorization = `Bearer ${opts.token ?? owner.token}`;
  const hasBody = method !== 'GET' && method !== 'DELETE';
  if (hasBody) headers['content-type'] = opts.type ?? JSON_TYPE;
  const res = await fetch(`${t.server.url}${url}`, {
    method,
    headers,
    body: hasBody ? (opts.type ? (opts.body as Uint8Array<ArrayBuffer>) : JSON.stringify(opts.body ?? {})) : undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let error: { code?: string; message?: string } | undefined;
  try {
    error = (JSON.parse(text) as { error?: typeof error }).error;
  } catch {
    /* not an envelope (a file, a playlist, a page) */
  }
  return { status: res.status, error };
}

describe('route schemas', () => {
  it('declare every path parameter, every id as a UUID, and every query key', () => {
    const problems: string[] = [];
    for (const r of routes) {
      const params = props(r.schema?.params);
      for (const name of pathParams(r.url)) {
        if (!params[name]) problems.push(`${r.method} ${r.url}: path parameter ${name} has no schema`);
        else if (isIdName(name) && params[name].format !== 'uuid') problems.push(`${r.method} ${r.url}: ${name} is not a UUID`);
      }
      const query = r.schema?.querystring as Schema | undefined;
      if (query && query.additionalProperties !== false) problems.push(`${r.method} ${r.url}: its query keeps undeclared keys`);
      for (const [name, s] of Object.entries(props(query)))
        if (isIdName(name) && s.format !== 'uuid') problems.push(`${r.method} ${r.url}: query ${name} is not a UUID`);
    }
    expect(problems).toEqual([]);
    // Not vacuous: most routes take parameters, and a good many a query.
    expect(routes.filter((r) => pathParams(r.url).length).length).toBeGreaterThan(30);
    expect(routes.filter((r) => r.schema?.querystring).length).toBeGreaterThan(15);
  });

  it('refuse the values that used to reach a service, with the contract validation error, before any service runs', async () => {
    const part = `/blobs/upload/${crypto.randomUUID()}`;
    const cases: Array<[method: string, url: string, service: string, message: string]> = [
      ['GET', `${API.mediaSrt(lib._id, media._id)}?start=abc`, 'RenderService.srt', 'start must be number'],
      ['GET', `${API.mediaSrt(lib._id, media._id)}?start=Infinity`, 'RenderService.srt', 'start must be number'],
      ['GET', `${API.mediaSrt(lib._id, media._id)}?end=1e400`, 'RenderService.srt', 'end must be number'],
      ['GET', `${API.mediaRange(lib._id)}?start=abc`, 'LibraryService.range', 'start must be integer'],
      ['GET', `${API.mediaRange(lib._id)}?start=Infinity`, 'LibraryService.range', 'start must be number'],
      ['GET', `${API.mediaRange(lib._id)}?end=-1`, 'LibraryService.range', 'end must be >= 0'],
      ['GET', `${API.mediaRange(lib._id)}?start=1&start=2`, 'LibraryService.range', 'start must be integer'],
      ['GET', `${API.mediaRange(lib._id)}?folderId=abc`, 'LibraryService.range', 'folderId must match format "uuid"'],
      [
        'GET',
        `${API.mediaRange(lib._id)}?sort=abc`,
        'LibraryService.range',
        'sort must match pattern "^(title|modified|added|duration)(#(1|-1))?$"',
      ],
      ['GET', `${API.folder(lib._id)}?direction=2`, 'LibraryService.folder', 'direction must be equal to constant'],
      ['GET', `${API.mediaThumbnail(lib._id, media._id)}?token=${previewToken}&t=abc`, 'LibraryService.ownedMedia', 't must be number'],
      ['GET', `${API.mediaThumbnail(lib._id, media._id)}?token=${previewToken}&t=-1`, 'LibraryService.ownedMedia', 't must be >= 0'],
      ['GET', `${API.transcriptJson}?libraryId=${lib._id}&mediaId=abc`, 'TranscriptService.file', 'mediaId must match format "uuid"'],
      ['GET', `${API.usageHistory}?limit=abc`, 'BillingService.usageHistory', 'limit must be integer'],
      ['GET', `${API.usageHistory}?limit=0`, 'BillingService.usageHistory', 'limit must be >= 1'],
      ['GET', `${API.usageHistory}?olderThan=yesterday`, 'BillingService.usageHistory', 'olderThan must match format "date-time"'],
      ['POST', `${API.searchVisual(lib._id)}?limit=abc`, 'SearchService.search', 'limit must be integer'],
      ['POST', `${API.searchVisual(lib._id)}?limit=-1`, 'SearchService.search', 'limit must be >= 0'],
      ['POST', `${API.searchTranscript(lib._id)}?limit=99999`, 'SearchService.search', 'limit must be <= 500'],
      ['POST', `${API.searchUnified(lib._id)}?offset=NaN`, 'SearchService.search', 'offset must be integer'],
      ['POST', `${API.searchMulti}?limit=NaN`, 'SearchService.searchMany', 'limit must be integer'],
      ['PUT', `${part}/abc?exp=1&sig=x`, 'UploadService.receiveLocalPart', 'part must be integer'],
    ];
    const wrong: string[] = [];
    for (const [method, url, service, message] of cases) {
      const before = calls.length;
      const body =
        method === 'PUT'
          ? new Uint8Array(8)
          : url.startsWith(API.searchMulti)
            ? { criteria: { text: 'x' }, libraryIds: [lib._id] }
            : { text: 'x' };
      const r = await send(method, url, { body, type: method === 'PUT' ? 'application/octet-stream' : undefined });
      const reached = calls.slice(before).filter((c) => c === service);
      if (r.status !== 400 || r.error?.code !== 'validation_failed' || r.error.message !== message || reached.length)
        wrong.push(`${method} ${url}: ${r.status} ${JSON.stringify(r.error)}${reached.length ? ` (reached ${service})` : ''}`);
    }
    expect(wrong, wrong.join('\n')).toEqual([]);

    // The same calls with good values reach their service, with numbers.
    const good: Array<[string, string, string]> = [
      ['GET', `${API.mediaRange(lib._id)}?start=0&end=10&sort=title%23-1`, 'LibraryService.range'],
      ['GET', `${API.folder(lib._id)}?sort=title&direction=-1`, 'LibraryService.folder'],
      ['GET', `${API.usageHistory}?limit=10`, 'BillingService.usageHistory'],
      ['POST', `${API.searchTranscript(lib._id)}?limit=50&threshold=0.0`, 'SearchService.search'],
      ['GET', `${API.mediaThumbnail(lib._id, media._id)}?token=${previewToken}&t=0`, 'LibraryService.ownedMedia'],
    ];
    for (const [method, url, service] of good) {
      const before = calls.length;
      const r = await send(method, url, { body: { text: 'x' } });
      expect(r.status, url).toBe(200);
      expect(calls.slice(before), url).toContain(service);
    }
    expect(badCalls).toEqual([]);
  });

  it('answer hostile params and query with no 5xx, and no service ever sees NaN or Infinity', async () => {
    const hostile = fc.constantFrom(
      'abc',
      'NaN',
      'Infinity',
      '-Infinity',
      '1e400',
      '-1',
      '-0',
      '0',
      '1.5',
      '1e308',
      '9007199254740993',
      '',
      ' ',
      '0x10',
      'null',
      'true',
      '[]',
      '00000000-0000-0000-0000-00000000000g',
      'a'.repeat(5000),
    );
    const real: Record<string, string> = {
      id: lib._id,
      libraryId: lib._id,
      folderId: lib.rootFolderId,
      mediaId: media._id,
      token: previewToken,
    };
    const value = (name: string) => (real[name] ? fc.oneof(fc.constant(real[name]), hostile, fc.uuid()) : fc.oneof(hostile, fc.uuid()));
    const failures: string[] = [];
    for (const route of routes) {
      const names = pathParams(route.url);
      const queryKeys = Object.keys(props(route.schema?.querystring));
      if (!names.length && !queryKeys.length) continue;
      const paramsArb = fc.record(Object.fromEntries(names.map((n) => [n, value(n)])) as Record<string, fc.Arbitrary<string>>);
      // Each declared key once, twice (a repeated key) or not at all.
      const queryArb = fc.tuple(
        ...queryKeys.map((k) => fc.array(value(k), { maxLength: 2 }).map((vs) => vs.map((v): [string, string] => [k, v]))),
      );
      const result = await fc.check(
        fc.asyncProperty(paramsArb, queryArb, async (params, query) => {
          const before = badCalls.length;
          const pathname = route.url.replace(/:([A-Za-z0-9_]+)/g, (_, n: string) => encodeURIComponent(params[n] ?? ''));
          const qs = new URLSearchParams(query.flat()).toString();
          const { status, error } = await send(route.method, `${pathname}${qs ? `?${qs}` : ''}`);
          const fine = (status < 500 || (status === 503 && error?.code === 'not_configured')) && badCalls.length === before;
          return fine;
        }),
        { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 20261126) },
      );
      if (result.failed)
        failures.push(`${route.method} ${route.url}: ${fc.defaultReportMessage(result)?.split('\n').slice(0, 4).join('\n')}`);
    }
    expect(failures, failures.join('\n\n')).toEqual([]);
    expect(badCalls).toEqual([]);
    expect(calls.length).toBeGreaterThan(100);
  }, 600_000);
});
