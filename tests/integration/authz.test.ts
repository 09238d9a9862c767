// The authorization matrix: every route the server registers (its route table) has a row here
// saying whose request it serves, and each row is called as seven people: the owner of the
// resources it names, another verified user, an unverified user, nobody, an expired token, a
// tampered token, and support staff impersonating the owner. A route without a row fails the test.
//
// Kinds:   public  no token needed: all seven get the same answer, whatever token they send
//          self    the caller's own account: any signed-in user, 401 without a valid token; some
//                  actions wait for a verified email (403 for the unverified user)
//          owned   the owner's library or media: 2xx for the owner and for support acting as them
//                  (spec: 'FULL CONTROL'), 404 for everyone else (another user cannot even learn
//                  that it exists), 401 without a token
//          signed  served on a signature in the URL (upload parts, blob links, thumbnails for <img>):
//                  a session token alone opens nothing (401/403/404)
//          admin   the support CLI's bridge: hidden (404) or refused (401/403) to every session token
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, JSON_TYPE, partCount, type Media } from '../../src/contract';
import { TokenSigner } from '../../src/server/adapters/security/tokens';
import { makeCounterVideo } from '../fixtures/counterVideo';
import { makeSolidImage } from '../fixtures/makeMedia';
import { JWT_SECRET, startTestServer } from './support/harness';
import { defaultLibrary, fingerprintOf, startUpload, uploadFile, verifiedUser, waitForStatus } from './support/upload';

type Kind = 'public' | 'self' | 'owned' | 'signed' | 'admin';
type Who = 'owner' | 'other' | 'unverified' | 'none' | 'expired' | 'tampered' | 'impersonation';
const WHO: Who[] = ['none', 'expired', 'tampered', 'other', 'unverified', 'owner', 'impersonation'];

interface Ctx {
  lib: { _id: string; rootFolderId: string };
  media: Media;
  /** Deleted by the owner and by support acting as them: one each. */
  spareMedia: Record<'owner' | 'impersonation', Media>;
  spareLibraryId: Record<'owner' | 'impersonation', string>;
  /** A folder the rename row renames; and, deleted by the owner and by support, one each. */
  folderId: string;
  spareFolderId: Record<'owner' | 'impersonation', string>;
  renderId: string;
  /** An upload the owner started and has not finished. */
  pending: { mediaId: string; opaqueData: string };
  ownerEmail: string;
  /** A transcript segment of `media` (the counter video says nothing: written straight into the database). */
  segmentId: string;
}
interface Row {
  kind: Kind;
  req: (c: Ctx, who: Who) => { path?: string; query?: Record<string, string>; body?: unknown };
  /** What the owner (and support acting as the owner) get when it is not 2xx, e.g. 503 for a feature not configured here. */
  owner?: number;
  /** What support acting as the owner gets when it differs from the owner (e.g. 403: no token refresh). */
  impersonation?: number;
  /** What the unverified user gets when a verified email is needed first (403). */
  unverified?: number;
  /** What another user (verified or not) gets instead of 404, when they cannot learn anything from it. */
  others?: number;
}

const uuid0 = '00000000-0000-4000-8000-000000000000';
/** Whose spare library or media a destructive row deletes. */
const spareOf = (who: Who) => (who === 'impersonation' ? 'impersonation' : 'owner');

/** One row per route, keyed "METHOD /pattern" exactly as registered. */
const ROWS: Record<string, Row> = {
  'GET /health': { kind: 'public', req: () => ({}) },
  'POST /auth/email/login': { kind: 'public', req: () => ({ body: { email: 'nobody@example.com', password: 'wrong-password-1' } }) },
  'POST /auth/email/register': {
    kind: 'public',
    req: () => ({ body: { email: `m${Date.now()}${Math.random()}@example.com`.replace('0.', ''), password: 'matrix-pass-1' } }),
  },
  'POST /auth/logout': { kind: 'public', req: () => ({ body: {} }) },
  // a new address each time: requests for one address are rate-limited whoever asks
  'POST /auth/password/reset/request': { kind: 'public', req: () => ({ body: { email: `nobody-${crypto.randomUUID()}@example.com` } }) },
  'POST /auth/password/reset': { kind: 'public', req: () => ({ body: { token: 'x'.repeat(40), password: 'matrix-pass-2' } }) },
  'POST /auth/password/reset/check': { kind: 'public', req: () => ({ body: { token: 'x'.repeat(40) } }) },
  'POST /auth/email/verify': { kind: 'public', req: () => ({ body: { token: 'x'.repeat(40) } }) },
  'POST /auth/email/verify/resend': { kind: 'public', req: () => ({ body: { email: 'nobody@example.com' } }) },
  'POST /feedback': { kind: 'public', req: () => ({ body: { comments: 'matrix', error: '' } }) },
  'POST /auth/token/refresh': { kind: 'self', req: () => ({ body: {} }), impersonation: 403 },
  'GET /user/me': { kind: 'self', req: () => ({}) },
  'POST /user/me/settings': { kind: 'self', req: () => ({ body: { enableSounds: true } }) },
  'GET /user/me/trims': { kind: 'self', req: () => ({}) },
  'POST /user/me/trims': { kind: 'self', req: () => ({ body: { edits: [] } }) },
  'POST /user/intercom': { kind: 'self', req: () => ({ body: {} }), owner: 503 },
  'GET /library': { kind: 'self', req: () => ({}) },
  'POST /library': { kind: 'self', req: () => ({ body: { name: 'Matrix library' } }), unverified: 403 },
  'POST /search/visual': { kind: 'owned', req: (c) => ({ body: { criteria: { text: 'blue' }, libraryIds: [c.lib._id] } }) },
  'POST /library/media/external/peek': { kind: 'self', req: () => ({ body: { url: 'http://example.com/v.mp4' } }), owner: 400 },
  'POST /library/media/external/unwind': { kind: 'self', req: () => ({ body: { url: 'http://example.com/list' } }), owner: 400 },
  'GET /billing/info': { kind: 'self', req: () => ({}) },
  'GET /billing/credits/usage/history': { kind: 'self', req: () => ({}) },
  'GET /billing/subscription/available': { kind: 'public', req: () => ({}) },
  'GET /billing/one-time/available': { kind: 'public', req: () => ({}) },
  'POST /billing/one-time/purchase': { kind: 'self', req: () => ({ body: { quantity: 1 } }) },
  'POST /billing/subscription/purchase': { kind: 'self', req: () => ({ body: { productId: 'no-such-product' } }), owner: 404 },
  'POST /billing/subscription/change': { kind: 'self', req: () => ({ body: { productId: 'no-such-product' } }), owner: 404 },
  'GET /billing/portal': { kind: 'self', req: () => ({}) },
  'GET /billing/invoice/:id/url': { kind: 'owned', req: () => ({ path: `/billing/invoice/${uuid0}/url` }), owner: 404 },
  'GET /billing/local/portal': { kind: 'signed', req: () => ({}) },
  'GET /billing/local/invoice/:id': { kind: 'signed', req: () => ({ path: `/billing/local/invoice/${uuid0}` }) },
  'POST /billing/local/portal/cancel': { kind: 'signed', req: () => ({ body: {} }) },
  'GET /library/:id': { kind: 'owned', req: (c) => ({ path: API.library(c.lib._id) }) },
  'PATCH /library/:id': { kind: 'owned', req: (c) => ({ path: API.library(c.lib._id), body: { name: 'Renamed by matrix' } }) },
  'DELETE /library/:id': { kind: 'owned', req: (c, who) => ({ path: API.library(c.spareLibraryId[spareOf(who)]) }) },
  'GET /library/:id/preview': { kind: 'owned', req: (c) => ({ path: `/library/${c.lib._id}/preview` }) },
  'GET /library/:libraryId/folder': { kind: 'owned', req: (c) => ({ path: `/library/${c.lib._id}/folder` }) },
  'GET /library/:libraryId/folder/:folderId': {
    kind: 'owned',
    req: (c) => ({ path: `/library/${c.lib._id}/folder/${c.lib.rootFolderId}` }),
  },
  'POST /library/:libraryId/folder': {
    kind: 'owned',
    req: (c) => ({ path: API.folderCreate(c.lib._id), body: { name: `Matrix ${crypto.randomUUID()}` } }),
    unverified: 403,
  },
  'PATCH /library/:libraryId/folder/:folderId': {
    kind: 'owned',
    req: (c) => ({ path: API.folder(c.lib._id, c.folderId), body: { name: 'Matrix folder' } }),
  },
  // A folder of their own each, deleted with recursive as the app sends it once the user confirms.
  'DELETE /library/:libraryId/folder/:folderId': {
    kind: 'owned',
    req: (c, who) => ({ path: API.folder(c.lib._id, c.spareFolderId[spareOf(who)]), query: { recursive: 'true' } }),
  },
  'GET /library/:libraryId/media/range': {
    kind: 'owned',
    req: (c) => ({ path: `/library/${c.lib._id}/media/range`, query: { start: '0', end: '10' } }),
  },
  'GET /library/:libraryId/media/:mediaId': { kind: 'owned', req: (c) => ({ path: `/library/${c.lib._id}/media/${c.media._id}` }) },
  'PATCH /library/:libraryId/media/:mediaId': {
    kind: 'owned',
    req: (c) => ({ path: `/library/${c.lib._id}/media/${c.media._id}`, body: { name: 'counter' } }),
  },
  'DELETE /library/:libraryId/media/:mediaId': {
    kind: 'owned',
    req: (c, who) => ({ path: `/library/${c.lib._id}/media/${c.spareMedia[spareOf(who)]._id}` }),
  },
  'POST /library/:libraryId/media/delete/bulk': {
    kind: 'owned',
    req: (c) => ({ path: `/library/${c.lib._id}/media/delete/bulk`, body: { mediaIds: [uuid0] } }),
  },
  'POST /library/:libraryId/media/delete/errored': {
    kind: 'owned',
    req: (c) => ({ path: `/library/${c.lib._id}/media/delete/errored`, body: {} }),
  },
  'POST /library/:libraryId/media/:mediaId/retry': {
    kind: 'owned',
    req: (c) => ({ path: `/library/${c.lib._id}/media/${c.media._id}/retry`, body: {} }),
  },
  'POST /library/:libraryId/media/retry/failed': {
    kind: 'owned',
    req: (c) => ({ path: `/library/${c.lib._id}/media/retry/failed`, body: {} }),
  },
  // An upload the owner started (before 'uploads/clear' below ends it): finishing it without its parts
  // is the owner's 400; another user holding its sealed upload data is told it is not theirs (403).
  'POST /library/:id/media/:mediaId/upload/finish': {
    kind: 'owned',
    req: (c) => ({ path: API.uploadFinish(c.lib._id, c.pending.mediaId), body: { opaqueData: c.pending.opaqueData, parts: [] } }),
    owner: 400,
    others: 403,
  },
  'POST /library/:libraryId/media/uploads/clear': {
    kind: 'owned',
    req: (c) => ({ path: `/library/${c.lib._id}/media/uploads/clear`, body: {} }),
  },
  'GET /library/:libraryId/media/:mediaId/file/original': {
    kind: 'owned',
    req: (c) => ({ path: API.mediaOriginal(c.lib._id, c.media._id) }),
  },
  'POST /library/:id/folder/:folderId/media/upload': {
    kind: 'owned',
    req: (c) => {
      const bytes = crypto.randomBytes(1000);
      return {
        path: API.uploadStart(c.lib._id, c.lib.rootFolderId),
        body: {
          filename: 'matrix.mp4',
          size: bytes.length,
          parts: partCount(bytes.length),
          uniqueId: fingerprintOf(bytes),
          deduplicationPolicy: { onConflict: 'error' },
        },
      };
    },
    unverified: 403,
  },
  'GET /library/:libraryId/media/:mediaId/media/thumbnail.webp': {
    kind: 'signed',
    req: (c) => ({ path: `/library/${c.lib._id}/media/${c.media._id}/media/thumbnail.webp` }),
  },
  'GET /library/:libraryId/media/:mediaId/media/picture.webp': {
    kind: 'signed',
    req: (c) => ({ path: `/library/${c.lib._id}/media/${c.media._id}/media/picture.webp` }),
  },
  'POST /library/:id/search/visual': { kind: 'owned', req: (c) => ({ path: API.searchVisual(c.lib._id), body: { text: 'blue' } }) },
  'POST /library/:id/search/transcript': {
    kind: 'owned',
    req: (c) => ({ path: API.searchTranscript(c.lib._id), body: { text: 'hello' } }),
  },
  'POST /library/:id/search/unified': { kind: 'owned', req: (c) => ({ path: API.searchUnified(c.lib._id), body: { text: 'blue' } }) },
  'POST /rendering/compilation/v2': {
    kind: 'owned',
    req: (c) => ({
      body: {
        clips: [
          { libraryId: c.lib._id, mediaId: c.media._id, start: 0, end: 1 },
          { libraryId: c.lib._id, mediaId: c.media._id, start: 2, end: 3 },
        ],
      },
    }),
  },
  'POST /library/:libraryId/media/:mediaId/gif/v2': {
    kind: 'owned',
    req: (c) => ({ path: API.renderGif(c.lib._id, c.media._id), body: { start: 0, end: 1 } }),
  },
  'GET /rendering/:renderId': { kind: 'owned', req: (c) => ({ path: API.renderStatus(c.renderId) }) },
  'POST /rendering/compilation/subtitles': {
    kind: 'owned',
    req: (c) => ({
      path: API.renderSubtitles,
      body: { clips: [{ libraryId: c.lib._id, mediaId: c.media._id, start: 0, end: 3 }], format: 'srt' },
    }),
  },
  'POST /rendering/compilation/export': {
    kind: 'owned',
    req: (c) => ({
      path: API.renderExport,
      body: { clips: [{ libraryId: c.lib._id, mediaId: c.media._id, start: 0, end: 1 }], format: 'edl' },
    }),
  },
  'GET /library/:libraryId/media/:mediaId/framing': {
    kind: 'owned',
    req: (c) => ({ path: API.mediaFraming(c.lib._id, c.media._id), query: { aspect: '9:16', start: '0', end: '2' } }),
  },
  'GET /library/:libraryId/media/:mediaId/transcript.srt': {
    kind: 'owned',
    req: (c) => ({ path: `/library/${c.lib._id}/media/${c.media._id}/transcript.srt` }),
  },
  'POST /library/:id/folder/:folderId/media/external': {
    kind: 'owned',
    req: (c) => ({ path: `/library/${c.lib._id}/folder/${c.lib.rootFolderId}/media/external`, body: { url: 'http://example.com/v.mp4' } }),
    owner: 400,
    unverified: 403,
  },
  'POST /library/:id/folder/:folderId/media/external/bulk': {
    kind: 'owned',
    req: (c) => ({
      path: `/library/${c.lib._id}/folder/${c.lib.rootFolderId}/media/external/bulk`,
      body: { items: [{ url: 'http://example.com/v.mp4', name: 'v' }] },
    }),
    unverified: 403,
  },
  'GET /library/:libraryId/media/:mediaId/preview': {
    kind: 'owned',
    req: (c) => ({ path: `/library/${c.lib._id}/media/${c.media._id}/preview` }),
  },
  'GET /media/preview/hls/playlist.m3u8': {
    kind: 'owned',
    req: (c) => ({ path: API.previewPlaylist, query: { libraryId: c.lib._id, mediaId: c.media._id } }),
  },
  'GET /library/:libraryId/media/:mediaId/preview/:segment': {
    kind: 'owned',
    req: (c) => ({ path: `/library/${c.lib._id}/media/${c.media._id}/preview/seg_00000.ts` }),
  },
  'GET /library/:libraryId/media/:mediaId/source.mp4': {
    kind: 'owned',
    req: (c) => ({ path: `/library/${c.lib._id}/media/${c.media._id}/source.mp4` }),
  },
  'GET /library/:libraryId/media/:mediaId/thumbnails/track.mp4': {
    kind: 'owned',
    req: (c) => ({ path: API.mediaThumbnailTrack(c.lib._id, c.media._id) }),
  },
  'GET /library/:libraryId/media/:mediaId/thumbnails/strip.webp': {
    kind: 'owned',
    req: (c) => ({ path: `/library/${c.lib._id}/media/${c.media._id}/thumbnails/strip.webp` }),
  },
  'PATCH /library/:libraryId/media/:mediaId/transcript/segments/:segmentId': {
    kind: 'owned',
    req: (c, who) => ({ path: API.transcriptSegment(c.lib._id, c.media._id, c.segmentId), body: { text: `Corrected by ${who}` } }),
  },
  'POST /library/:libraryId/media/:mediaId/transcript/segments/:segmentId/restore': {
    kind: 'owned',
    req: (c) => ({ path: API.transcriptSegmentRestore(c.lib._id, c.media._id, c.segmentId), body: {} }),
  },
  'GET /library/:libraryId/media/:mediaId/transcript/corrections': {
    kind: 'owned',
    req: (c) => ({ path: API.transcriptCorrections(c.lib._id, c.media._id) }),
  },
  'GET /data/transcript.json': {
    kind: 'owned',
    req: (c) => ({ path: API.transcriptJson, query: { libraryId: c.lib._id, mediaId: c.media._id } }),
  },
  'GET /data/shot_descriptions.json': {
    kind: 'owned',
    req: (c) => ({ path: API.shotDescriptionsJson, query: { libraryId: c.lib._id, mediaId: c.media._id } }),
  },
  'GET /blobs/file/*': { kind: 'signed', req: (c) => ({ path: `/blobs/file/media/${c.media._id}/original.mp4` }) },
  'PUT /blobs/upload/:uploadId/:part': { kind: 'signed', req: () => ({ path: `/blobs/upload/${uuid0}/1`, body: { x: 1 } }) },
  'POST /admin/impersonate': { kind: 'admin', req: (c) => ({ body: { email: c.ownerEmail, by: 'support@example.com', minutes: 5 } }) },
  // Last: the owner's own change ends every older session, support's included (tokens carry the version).
  'POST /auth/password/change': {
    kind: 'self',
    req: () => ({ body: { oldPassword: 'upload-password-1', newPassword: 'matrix-pass-3' } }),
    unverified: 403,
    impersonation: 401,
  },
};

let t: Awaited<ReturnType<typeof startTestServer>>;
let ctx: Ctx;
const tokens = {} as Record<Who, string | null>;
let dir: string;

beforeAll(async () => {
  t = await startTestServer({ RENDER_WAIT_MS: '0' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-authz-'));
  const owner = await verifiedUser(t, 'owner');
  const other = await verifiedUser(t, 'other');
  const reg = await t.api<{ _id: string }>('POST', API.register, {
    body: { email: `unverified${Date.now()}@example.com`, password: 'matrix-pass-1' },
  });
  const lib = await defaultLibrary(t, owner.token);
  const video = path.join(dir, 'counter.mp4');
  makeCounterVideo(video);
  const png = await makeSolidImage(dir, 'blue', 64);
  const [media, spareOwner, spareSupport] = await Promise.all(
    [
      ['counter.mp4', video],
      ['blue.png', png],
      ['green.png', await makeSolidImage(dir, 'green', 64)],
    ].map(async ([name, file]) => {
      const fin = await uploadFile(t, owner.token, lib._id, lib.rootFolderId, name!, fs.readFileSync(file!));
      return waitForStatus(t, owner.token, lib._id, fin.body.data!._id, ['completed', 'errored', 'invalid'], 180_000);
    }),
  );
  expect([media!.status, spareOwner!.status, spareSupport!.status]).toEqual(['completed', 'completed', 'completed']);
  const spare = async () =>
    (await t.api<{ _id: string }>('POST', API.libraries, { token: owner.token, body: { name: 'Spare' } })).body.data!._id;
  const render = await t.api<{ renderId: string }>('POST', API.renderGif(lib._id, media!._id), {
    token: owner.token,
    body: { start: 1, end: 2 },
  });
  const segment = await t.server.database.db
    .insertInto('transcript_segments')
    .values({ media_id: media!._id, library_id: lib._id, start: 1, end: 2, text: 'what the recogniser heard', words: '[]' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const folder = async (name: string) =>
    (await t.api<{ _id: string }>('POST', API.folderCreate(lib._id), { token: owner.token, body: { name } })).body.data!._id;
  const started = await startUpload(t, owner.token, lib._id, lib.rootFolderId, 'pending.mp4', crypto.randomBytes(2000));
  expect(started.status).toBe(201);
  ctx = {
    lib,
    media: media!,
    spareMedia: { owner: spareOwner!, impersonation: spareSupport! },
    spareLibraryId: { owner: await spare(), impersonation: await spare() },
    folderId: await folder('Renamed'),
    spareFolderId: { owner: await folder('Spare 1'), impersonation: await folder('Spare 2') },
    renderId: render.body.data!.renderId,
    pending: { mediaId: started.body.data!.media._id, opaqueData: started.body.data!.opaqueData },
    ownerEmail: owner.email,
    segmentId: segment.id,
  };
  const signer = new TokenSigner(JWT_SECRET);
  const [header, payload, signature] = owner.token.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { sub: string; ver: number };
  tokens.owner = owner.token;
  tokens.other = other.token;
  tokens.unverified = reg.body.token ?? null;
  tokens.none = null;
  tokens.expired = await signer.sign({ sub: claims.sub, email: owner.email, ver: claims.ver }, -60);
  // Another user's id in the owner's signed token: the signature no longer matches.
  const forged = Buffer.from(JSON.stringify({ ...claims, sub: other.userId })).toString('base64url');
  tokens.tampered = `${header}.${forged}.${signature}`;
  tokens.impersonation = (await t.server.accounts.impersonate(owner.email, 'support@example.com', 30)).token;
  expect(tokens.unverified, 'the unverified user has a session').toBeTruthy();
}, 300_000);

afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function call(key: string, row: Row, who: Who) {
  const [method, pattern] = key.split(' ') as [string, string];
  const r = row.req(ctx, who);
  const url = new URL(`${t.server.url}${r.path ?? pattern}`);
  for (const [k, v] of Object.entries(r.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = { accept: JSON_TYPE };
  if (tokens[who]) headers.authorization = `Bearer ${tokens[who]}`;
  if (r.body !== undefined) headers['content-type'] = JSON_TYPE;
  const res = await fetch(url, { method, headers, body: r.body === undefined ? undefined : JSON.stringify(r.body), redirect: 'manual' });
  await res.arrayBuffer();
  return res.status;
}

const ok2xx = (s: number) => s >= 200 && s < 400;

/** Whether `status` is what `who` should get from a route of this row. */
function allowed(row: Row, who: Who, status: number): boolean {
  const signedIn = who === 'owner' || who === 'other' || who === 'unverified' || who === 'impersonation';
  switch (row.kind) {
    case 'public':
      // and the same for all seven (checked by the caller)
      return status < 500;
    case 'admin':
    case 'signed':
      return [401, 403, 404].includes(status);
    case 'self':
      if (!signedIn) return status === 401;
      if (who === 'unverified' && row.unverified) return status === row.unverified;
      if (who === 'impersonation' && row.impersonation) return status === row.impersonation;
      return row.owner ? status === row.owner : ok2xx(status);
    case 'owned':
      if (!signedIn) return status === 401;
      if (who === 'unverified' && row.unverified) return status === row.unverified;
      if (who === 'other' || who === 'unverified') return status === (row.others ?? 404);
      if (who === 'impersonation' && row.impersonation) return status === row.impersonation;
      return row.owner ? status === row.owner : ok2xx(status);
  }
}

describe('authorization matrix', () => {
  it('has a row for every registered route, and no row for a route that is gone', () => {
    const registered = t.server.app.routeTable
      .filter((r) => r.method !== 'HEAD' && r.url !== '*' && !r.url.startsWith('/assets'))
      .map((r) => `${r.method} ${r.url}`);
    expect(
      registered.filter((k) => !ROWS[k]),
      'routes without a row',
    ).toEqual([]);
    expect(
      Object.keys(ROWS).filter((k) => !registered.includes(k)),
      'rows without a route',
    ).toEqual([]);
  });

  it('answers each of the seven callers of every route as its row says', async () => {
    const wrong: string[] = [];
    for (const [key, row] of Object.entries(ROWS)) {
      const answers: string[] = [];
      for (const who of WHO) {
        const status = await call(key, row, who);
        answers.push(`${who} ${status}`);
        if (!allowed(row, who, status)) wrong.push(`${key} as ${who}: ${status} (${row.kind})`);
      }
      if (row.kind === 'public' && new Set(answers.map((a) => a.split(' ')[1])).size > 1)
        wrong.push(`${key} answers by token although public: ${answers.join(', ')}`);
    }
    if (wrong.length && process.env.AUTHZ_REPORT) fs.writeFileSync(process.env.AUTHZ_REPORT, wrong.join('\n'));
    expect(wrong).toEqual([]);
  }, 300_000);
});
