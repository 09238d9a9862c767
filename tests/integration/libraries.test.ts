import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  DEFAULT_LIBRARY_NAME,
  MSG,
  MSG_LIB,
  type BulkDeleteAnswer,
  type FolderResponse,
  type Library,
  type Media,
  type PreviewTokenAnswer,
  type RetryAnswer,
  type User,
} from '../../src/contract';
import { startTestServer, uniqueEmail, WITH_DEMO } from './support/harness';
import { defaultLibrary, makeVideo, randomFile, startUpload, uploadFile, verifiedUser, waitForStatus } from './support/upload';

let t: Awaited<ReturnType<typeof startTestServer>>;
let a: { token: string; userId: string };
let b: { token: string; userId: string };
beforeAll(async () => {
  t = await startTestServer(WITH_DEMO);
  a = await verifiedUser(t, 'alice');
  b = await verifiedUser(t, 'bob');
});
afterAll(async () => {
  await t?.close();
});

const libs = async (token: string) => (await t.api<Library[]>('GET', API.libraries, { token })).body.data!;

describe('libraries', () => {
  it('gives every account a default library and a read-only demo library whose samples get processed', async () => {
    const list = await libs(a.token);
    const def = list.find((l) => l.isDefault)!;
    const demo = list.find((l) => l.isDemo)!;
    expect(def).toMatchObject({ isReadOnly: false, system: { default: true, demo: false, readonly: false }, settings: { v1: {} } });
    expect(demo).toMatchObject({ isReadOnly: true, system: { default: false, demo: true, readonly: true } });
    expect(demo.stats.count).toBe(2);
    expect(demo.latestMediaIds).toHaveLength(2);
    // Right after sign-up the samples are still indexed: no poster yet, so no cover.
    expect(demo.coverMediaId).toBeNull();
    for (const id of demo.latestMediaIds) await waitForStatus(t, a.token, demo._id, id, ['completed']);
    const after = (await t.api<Library>('GET', API.library(demo._id), { token: a.token })).body.data!;
    expect(after.stats.breakdown.completed.count).toBe(2);
    expect(after.stats.mediaDuration).toBeGreaterThan(20);
    // both samples are narrated: search defaults to seen and said together there (issue 37)
    expect(after.stats.withSpeech).toBe(2);
    expect(after.data).toEqual({ _id: demo._id, name: demo.name, stats: { count: 2 } });
  });

  it('creates libraries with a trimmed name or the default, only for verified users', async () => {
    const r = await t.api<Library>('POST', API.libraries, { token: a.token, body: { name: '  Holidays  ', settings: { v1: {} } } });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      name: 'Holidays',
      isDefault: false,
      isDemo: false,
      stats: { count: 0, mediaSize: 0, mediaDuration: 0 },
    });
    const d = await t.api<Library>('POST', API.libraries, { token: a.token, body: { name: '   ', settings: { v1: {} } } });
    expect(d.body.data!.name).toBe(DEFAULT_LIBRARY_NAME);
    const reg = await t.api<User>('POST', API.register, { body: { email: uniqueEmail('unverified'), password: 'unverified-1' } });
    const u = await t.api('POST', API.libraries, { token: reg.body.token!, body: { name: 'x', settings: { v1: {} } } });
    expect(u.status).toBe(403);
    expect(u.body.error).toEqual({ code: 'email_not_verified', message: MSG.verifyToAdd });
    const up = await startUpload(
      t,
      reg.body.token!,
      (await libs(reg.body.token!)).find((l) => l.isDefault)!._id,
      (await libs(reg.body.token!)).find((l) => l.isDefault)!.rootFolderId,
      'a.mp4',
      randomFile(100),
    );
    expect(up.status).toBe(403);
  });

  it('enforces default, demo and read-only rules on the server', async () => {
    const list = await libs(a.token);
    const def = list.find((l) => l.isDefault)!;
    const demo = list.find((l) => l.isDemo)!;
    expect((await t.api('DELETE', API.library(def._id), { token: a.token })).status).toBe(403);
    expect((await t.api('DELETE', API.library(demo._id), { token: a.token })).body.error!.message).toBe(MSG_LIB.cannotDeleteLibrary);
    expect((await t.api('PATCH', API.library(demo._id), { token: a.token, body: { name: 'Mine now' } })).status).toBe(403);
    const demoMedia = demo.latestMediaIds[0]!;
    expect((await t.api('PATCH', API.media(demo._id, demoMedia), { token: a.token, body: { name: 'x' } })).status).toBe(403);
    expect((await t.api('DELETE', API.media(demo._id, demoMedia), { token: a.token })).status).toBe(403);
    expect((await t.api('POST', API.mediaBulkDelete(demo._id), { token: a.token, body: { mediaIds: [demoMedia] } })).status).toBe(403);
    expect((await startUpload(t, a.token, demo._id, demo.rootFolderId, 'x.mp4', randomFile(100))).status).toBe(403);
    const renamed = await t.api<Library>('PATCH', API.library(def._id), { token: a.token, body: { name: ' Everything ' } });
    expect(renamed.body.data!.name).toBe('Everything');
    expect((await t.api('PATCH', API.library(def._id), { token: a.token, body: { name: '  ' } })).status).toBe(400);
  });

  it('keeps stats, listings and latest media right through uploads, renames and deletes', async () => {
    const lib = (await t.api<Library>('POST', API.libraries, { token: a.token, body: { name: 'Stats', settings: { v1: {} } } })).body.data!;
    const v1 = await uploadFile(t, a.token, lib._id, lib.rootFolderId, 'one.mp4', makeVideo(2));
    const v2 = await uploadFile(t, a.token, lib._id, lib.rootFolderId, 'two.mp4', makeVideo(3, '160x90'));
    await waitForStatus(t, a.token, lib._id, v1.body.data!._id, ['completed']);
    await waitForStatus(t, a.token, lib._id, v2.body.data!._id, ['completed']);
    let got = (await t.api<Library>('GET', API.library(lib._id), { token: a.token })).body.data!;
    expect(got.stats.count).toBe(2);
    expect(got.stats.breakdown.completed.count).toBe(2);
    expect(got.stats.mediaDuration).toBeCloseTo(5, 0);
    expect(got.latestMediaIds).toEqual([v2.body.data!._id, v1.body.data!._id]);
    // The cover is the latest with a poster, and that poster is there (the app asks for no other).
    expect(got.coverMediaId).toBe(v2.body.data!._id);
    const preview = (await t.api<PreviewTokenAnswer>('GET', API.libraryPreviewToken(lib._id), { token: a.token })).body.data!.previewToken;
    expect((await fetch(`${t.server.url}${API.mediaThumbnail(lib._id, got.coverMediaId!)}?token=${preview}`)).status).toBe(200);
    const folder = (await t.api<FolderResponse>('GET', `${API.folder(lib._id, lib.rootFolderId)}?sort=duration%231`, { token: a.token }))
      .body.data!;
    expect(folder.folder.parentId).toBeNull();
    expect(folder.subFolders).toEqual([]);
    expect(folder.files.map((f) => f.metadata.filename)).toEqual(['one.mp4', 'two.mp4']);
    const byTitleDesc = (await t.api<FolderResponse>('GET', `${API.folder(lib._id)}?sort=title%23-1`, { token: a.token })).body.data!;
    expect(byTitleDesc.files.map((f) => f.metadata.name)).toEqual(['two', 'one']);
    const range = (await t.api<Media[]>('GET', `${API.mediaRange(lib._id)}?sort=duration%231&start=1&end=2`, { token: a.token })).body
      .data!;
    expect(range.map((m) => m.metadata.filename)).toEqual(['two.mp4']);

    const renamed = await t.api<Media>('PATCH', API.media(lib._id, v1.body.data!._id), { token: a.token, body: { name: 'First clip' } });
    expect(renamed.body.data!.metadata.name).toBe('First clip');
    const retry = await t.api<RetryAnswer>('POST', API.mediaRetry(lib._id, v1.body.data!._id), { token: a.token });
    expect(retry.body.data!.error).toBe(MSG_LIB.notRetryable);

    const size = got.stats.mediaSize;
    const bulk = await t.api<BulkDeleteAnswer>('POST', API.mediaBulkDelete(lib._id), {
      token: a.token,
      body: { mediaIds: [v1.body.data!._id, v2.body.data!._id, '00000000-0000-0000-0000-000000000000'] },
    });
    expect(bulk.body.data!.deleted).toBe(2);
    expect(bulk.body.data!.freedBytes).toBe(size);
    expect(bulk.body.data!.failed).toEqual([{ mediaId: '00000000-0000-0000-0000-000000000000', message: MSG_LIB.mediaNotFound }]);
    got = (await t.api<Library>('GET', API.library(lib._id), { token: a.token })).body.data!;
    expect(got.stats).toEqual({
      count: 0,
      mediaSize: 0,
      mediaDuration: 0,
      breakdown: { completed: { count: 0 }, photos: { count: 0 } },
      withSpeech: 0,
    });
    expect(got.latestMediaIds).toEqual([]);
    expect(got.coverMediaId).toBeNull();
    expect((await t.api('DELETE', API.library(lib._id), { token: a.token })).status).toBe(200);
    expect((await t.api('GET', API.library(lib._id), { token: a.token })).status).toBe(404);
  });

  it("keeps one user's libraries, folders, media, files, thumbnails and uploads away from another", async () => {
    const lib = (await defaultLibrary(t, a.token)) as { _id: string; rootFolderId: string };
    const fin = await uploadFile(t, a.token, lib._id, lib.rootFolderId, 'private.mp4', makeVideo(1));
    const m = await waitForStatus(t, a.token, lib._id, fin.body.data!._id, ['completed']);
    const bt = b.token;
    for (const [method, path] of [
      ['GET', API.library(lib._id)],
      ['PATCH', API.library(lib._id)],
      ['DELETE', API.library(lib._id)],
      ['GET', API.libraryPreviewToken(lib._id)],
      ['GET', API.folder(lib._id)],
      ['GET', API.folder(lib._id, lib.rootFolderId)],
      ['GET', API.media(lib._id, m._id)],
      ['PATCH', API.media(lib._id, m._id)],
      ['DELETE', API.media(lib._id, m._id)],
      ['POST', API.mediaRetry(lib._id, m._id)],
      ['GET', API.mediaOriginal(lib._id, m._id)],
      ['GET', API.mediaRange(lib._id)],
    ] as const) {
      const r = await t.api(method, path, { token: bt, body: method === 'PATCH' ? { name: 'stolen' } : undefined });
      expect([403, 404], `${method} ${path}`).toContain(r.status);
      expect(JSON.stringify(r.body)).not.toContain('private');
    }
    const bulk = await t.api('POST', API.mediaBulkDelete(lib._id), { token: bt, body: { mediaIds: [m._id] } });
    expect(bulk.status).toBe(404);
    const up = await startUpload(t, bt, lib._id, lib.rootFolderId, 'intruder.mp4', randomFile(100));
    expect(up.status).toBe(404);
    // bob's own library with alice's folder id
    const bLib = await defaultLibrary(t, bt);
    expect((await startUpload(t, bt, bLib._id, lib.rootFolderId, 'intruder.mp4', randomFile(100))).status).toBe(404);
    // bob's preview token does not open alice's thumbnails
    const bp = (await t.api<PreviewTokenAnswer>('GET', API.libraryPreviewToken(bLib._id), { token: bt })).body.data!.previewToken;
    expect((await fetch(`${t.server.url}${API.mediaThumbnail(lib._id, m._id)}?token=${bp}`)).status).toBe(403);
    expect((await fetch(`${t.server.url}${API.mediaThumbnail(bLib._id, m._id)}?token=${bp}`)).status).toBe(404);
    // alice's upload data cannot be finished by bob
    const start = (await startUpload(t, a.token, lib._id, lib.rootFolderId, 'half.mp4', randomFile(300))).body.data!;
    expect(
      (await t.api('POST', API.uploadFinish(lib._id, start.media._id), { token: bt, body: { opaqueData: start.opaqueData } })).status,
    ).toBe(403);
    expect(
      (await t.api('POST', API.uploadFinish(bLib._id, start.media._id), { token: bt, body: { opaqueData: start.opaqueData } })).status,
    ).toBe(403);
    // the listing shows nothing of alice's to bob
    const bobs = await libs(bt);
    expect(bobs.every((l) => l._id !== lib._id)).toBe(true);
  });
});
