import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, MSG_LIB, UNSUPPORTED_FILE_TYPE, UPLOAD_CHUNK_SIZE, type Media, type PreviewTokenAnswer } from '../../src/contract';
import { LocalBlobStore } from '../../src/server/adapters/blobs/localBlobStore';
import { DEFAULT_CATALOG } from '../../src/server/modules/billing/catalog';
import { byterangesBoundary, MultipartRangeParser, type RangePart } from '../../src/workers/thumbnails/multipartRanges';
import { startTestServer } from './support/harness';
import {
  defaultLibrary,
  fingerprintOf,
  makeVideo,
  putParts,
  randomFile,
  startUpload,
  uploadFile,
  verifiedUser,
  waitForStatus,
} from './support/upload';
import { startS3 } from './support/s3';

const sha = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');

describe.each(['local', 's3'] as const)('upload protocol on the %s blob store', (store) => {
  let t: Awaited<ReturnType<typeof startTestServer>>;
  let s3: Awaited<ReturnType<typeof startS3>> | null = null;
  let token: string;
  let lib: { _id: string; rootFolderId: string };

  beforeAll(async () => {
    s3 = store === 's3' ? await startS3() : null;
    t = await startTestServer(s3?.env ?? {});
    ({ token } = await verifiedUser(t, `up-${store}`));
    lib = await defaultLibrary(t, token);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('carries a 100 MiB file in 5 parts and keeps it byte-identical', async () => {
    const bytes = randomFile(5 * UPLOAD_CHUNK_SIZE);
    const start = await startUpload(t, token, lib._id, lib.rootFolderId, 'big.mp4', bytes);
    expect(start.status).toBe(201);
    expect(start.body.data!.partUrls).toHaveLength(5);
    expect(start.body.data!.media).toMatchObject({ status: 'uploading', isUploading: true, uniqueId: fingerprintOf(bytes) });
    const parts = await putParts(start.body.data!.partUrls, bytes);
    const fin = await t.api<Media>('POST', API.uploadFinish(lib._id, start.body.data!.media._id), {
      token,
      body: { opaqueData: start.body.data!.opaqueData, parts },
    });
    expect(fin.status).toBe(200);
    expect(fin.body.data!.status).toBe('queued');
    const { url } = (await t.api<{ url: string }>('GET', `${API.mediaOriginal(lib._id, fin.body.data!._id)}?filename=copy.mp4`, { token }))
      .body.data!;
    const dl = await fetch(url);
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-disposition')).toContain('copy.mp4');
    const got = Buffer.from(await dl.arrayBuffer());
    expect(got.length).toBe(bytes.length);
    expect(sha(got)).toBe(sha(bytes));
    // random bytes are not media (ffprobe now and then sees an audio stream in them): processing says so instead of failing silently
    const done = await waitForStatus(t, token, lib._id, fin.body.data!._id, ['invalid', 'errored', 'completed']);
    expect(done.status).toBe('invalid');
    expect(done.error!.message).toMatch(/not a video or image|no picture we can read/);
  });

  it('ingests a real video: duration, size, frame count and a thumbnail', async () => {
    const video = makeVideo(2);
    const fin = await uploadFile(t, token, lib._id, lib.rootFolderId, 'clip.mp4', video);
    expect(fin.status).toBe(200);
    const m = await waitForStatus(t, token, lib._id, fin.body.data!._id, ['completed', 'errored', 'invalid']);
    expect(m.status).toBe('completed');
    expect(m.metadata.video).toMatchObject({ width: 320, height: 180, frameCount: 50 });
    expect(m.metadata.video.duration).toBeCloseTo(2, 1);
    expect(m.metadata.video.frameRate).toBe(25);
    expect(m.capabilities).toEqual({ preview: true, source: true, thumbnailTrack: true });
    const { previewToken } = (await t.api<PreviewTokenAnswer>('GET', API.libraryPreviewToken(lib._id), { token })).body.data!;
    const thumb = await fetch(`${t.server.url}${API.mediaThumbnail(lib._id, m._id)}?token=${previewToken}&t=1`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const img = Buffer.from(await thumb.arrayBuffer());
    expect(img.subarray(8, 12).toString()).toBe('WEBP');
    // Six cards asking for the same still at once: one ffmpeg run, one file, the same picture for all;
    // a time past the end is the last frame's still (not one more file per millisecond asked for).
    const blobs = t.server.blobs;
    const put = blobs.put.bind(blobs);
    const made: string[] = [];
    blobs.put = (key, ...rest) => (made.push(key), put(key, ...rest));
    try {
      const still = (at: number) => fetch(`${t.server.url}${API.mediaThumbnail(lib._id, m._id)}?token=${previewToken}&t=${at}`);
      const six = await Promise.all(Array.from({ length: 6 }, () => still(1.5)));
      const bodies = await Promise.all(six.map(async (r) => [r.status, Buffer.from(await r.arrayBuffer()).toString('base64')]));
      expect(new Set(bodies.map((b) => b.join()))).toHaveLength(1);
      expect(bodies[0]![0]).toBe(200);
      for (const at of [1.95, 3600, 86_400]) expect((await still(at)).status).toBe(200);
      expect(made.map((k) => k.split('/').pop())).toEqual(['1500.webp', '1950.webp']);
    } finally {
      blobs.put = put;
    }
    // the browser's thumbnail worker reads the MP4 by byte ranges, never whole
    const source = `${t.server.url}${API.mediaSource(lib._id, m._id)}?token=${previewToken}`;
    const head = await fetch(source, { headers: { range: 'bytes=0-99' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-range')).toBe(`bytes 0-99/${video.length}`);
    expect(Buffer.from(await head.arrayBuffer()).equals(video.subarray(0, 100))).toBe(true);
    const tail = await fetch(source, { headers: { range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(video.subarray(video.length - 10))).toBe(true);
    expect((await fetch(source, { headers: { range: `bytes=${video.length}-` } })).status).toBe(416);
    // several ranges in one request (a view's keyframes): multipart/byteranges, read back by the worker's parser
    const multi = await fetch(source, { headers: { range: 'bytes=0-9,200-299,-5' } });
    expect(multi.status).toBe(206);
    const boundary = byterangesBoundary(multi.headers.get('content-type'));
    expect(boundary).toBeTruthy();
    const parts: RangePart[] = [];
    const parser = new MultipartRangeParser(boundary!, (p) => parts.push(p));
    parser.push(new Uint8Array(await multi.arrayBuffer()));
    parser.end();
    expect(parts.map((p) => [p.start, p.bytes.length, p.size])).toEqual([
      [0, 10, video.length],
      [200, 100, video.length],
      [video.length - 5, 5, video.length],
    ]);
    for (const p of parts) expect(Buffer.from(p.bytes).equals(video.subarray(p.start, p.start + p.bytes.length))).toBe(true);
    expect((await fetch(`${t.server.url}${API.mediaSource(lib._id, m._id)}`)).status).toBe(401);
    // A signed download (renders, originals) answers ranges the same way.
    const { blob_key } = await t.server.database.db
      .selectFrom('media')
      .select('blob_key')
      .where('id', '=', m._id)
      .executeTakeFirstOrThrow();
    const signed = await t.server.blobs.downloadUrl(blob_key, { expiresInSeconds: 60 });
    const url = signed.startsWith('http') ? signed : `${t.server.url}${signed}`;
    const first = await fetch(url, { headers: { range: 'bytes=0-99' } });
    expect([first.status, first.headers.get('content-range')]).toEqual([206, `bytes 0-99/${video.length}`]);
    expect(Buffer.from(await first.arrayBuffer()).equals(video.subarray(0, 100))).toBe(true);
    expect((await fetch(url, { headers: { range: `bytes=${video.length}-` } })).status).toBe(416);
    const both = await fetch(url, { headers: { range: 'bytes=0-9,-5' } });
    // (An S3-compatible store answers several ranges its own way.)
    if (t.server.config.blobStore === 'local')
      expect([both.status, !!byterangesBoundary(both.headers.get('content-type'))]).toEqual([206, true]);
    const whole = await fetch(url);
    expect([whole.status, whole.headers.get('accept-ranges'), Number(whole.headers.get('content-length'))]).toEqual([
      200,
      'bytes',
      video.length,
    ]);
  });

  it('refuses bad start requests clearly', async () => {
    const bytes = randomFile(1000);
    const text = await startUpload(t, token, lib._id, lib.rootFolderId, 'notes.txt', bytes);
    expect(text.status).toBe(415);
    expect(text.body.error!.message).toBe(UNSUPPORTED_FILE_TYPE);
    const badParts = await t.api('POST', API.uploadStart(lib._id, lib.rootFolderId), {
      token,
      body: { filename: 'a.mp4', size: 1000, parts: 3, uniqueId: fingerprintOf(bytes), deduplicationPolicy: { onConflict: 'error' } },
    });
    expect(badParts.status).toBe(400);
    expect(badParts.body.error!.message).toMatch(/parts must be 1/);
    const badId = await startUpload(t, token, lib._id, lib.rootFolderId, 'a.mp4', bytes, 'whatever');
    expect(badId.status).toBe(400);
    const zero = await t.api('POST', API.uploadStart(lib._id, lib.rootFolderId), {
      token,
      body: { filename: 'a.mp4', size: 0, parts: 1, uniqueId: 'fp1-0-x', deduplicationPolicy: { onConflict: 'error' } },
    });
    expect(zero.status).toBe(400);
    const noAuth = await t.api('POST', API.uploadStart(lib._id, lib.rootFolderId), {
      body: { filename: 'a.mp4', size: 1000, parts: 1, uniqueId: fingerprintOf(bytes), deduplicationPolicy: { onConflict: 'error' } },
    });
    expect(noAuth.status).toBe(401);
  });

  it('keeps an incomplete upload open, then finishes it once the missing part arrives', async () => {
    const bytes = randomFile(2 * UPLOAD_CHUNK_SIZE + 1234);
    const start = (await startUpload(t, token, lib._id, lib.rootFolderId, 'partial.webm', bytes)).body.data!;
    const first = await putParts(start.partUrls, bytes, [1, 3]);
    const early = await t.api('POST', API.uploadFinish(lib._id, start.media._id), {
      token,
      body: { opaqueData: start.opaqueData, parts: first },
    });
    expect(early.status).toBe(400);
    expect(early.body.error!.message).toBe('The upload is missing part 2.');
    expect((await t.api<Media>('GET', API.media(lib._id, start.media._id), { token })).body.data!.status).toBe('uploading');
    const rest = await putParts(start.partUrls, bytes, [2]);
    const fin = await t.api<Media>('POST', API.uploadFinish(lib._id, start.media._id), {
      token,
      body: { opaqueData: start.opaqueData, parts: [...first, ...rest] },
    });
    expect(fin.status).toBe(200);
    const again = await t.api('POST', API.uploadFinish(lib._id, start.media._id), {
      token,
      body: { opaqueData: start.opaqueData, parts: [...first, ...rest] },
    });
    expect(again.status).toBe(404);
  });

  it("refuses a tampered opaqueData and another file's upload data", async () => {
    const bytes = randomFile(5000);
    const start = (await startUpload(t, token, lib._id, lib.rootFolderId, 'x.mov', bytes)).body.data!;
    const [body, mac] = start.opaqueData.split('.');
    const forged = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), m: '00000000-0000-0000-0000-000000000000' })).toString('base64url')}.${mac}`;
    const r = await t.api('POST', API.uploadFinish(lib._id, start.media._id), { token, body: { opaqueData: forged } });
    expect(r.status).toBe(403);
  });

  it('deduplicates by fingerprint in a folder, and lets an abandoned (empty) upload be replaced', async () => {
    const bytes = randomFile(7000);
    const first = await uploadFile(t, token, lib._id, lib.rootFolderId, 'dup.mp4', bytes);
    expect(first.status).toBe(200);
    const dup = await startUpload(t, token, lib._id, lib.rootFolderId, 'renamed-copy.mp4', bytes);
    expect(dup.status).toBe(409);
    expect(dup.body.error!.message).toBe(MSG_LIB.duplicateInFolder);

    const other = randomFile(9000);
    const abandoned = (await startUpload(t, token, lib._id, lib.rootFolderId, 'later.mp4', other)).body.data!;
    const inProgress = await startUpload(t, token, lib._id, lib.rootFolderId, 'later.mp4', other);
    expect(inProgress.status).toBe(409);
    const cleared = await t.api<{ cleared: string[] }>('POST', API.uploadsClear(lib._id), {
      token,
      body: { mediaIds: [abandoned.media._id] },
    });
    expect(cleared.body.data!.cleared).toEqual([abandoned.media._id]);
    expect((await t.api('GET', API.media(lib._id, abandoned.media._id), { token })).status).toBe(404);
    const files = (await t.api<{ files: Media[] }>('GET', API.folder(lib._id), { token })).body.data!.files;
    expect(files.some((f) => f._id === abandoned.media._id)).toBe(false);
    const retry = await uploadFile(t, token, lib._id, lib.rootFolderId, 'later.mp4', other);
    expect(retry.status).toBe(200);
    const row = await t.server.database.db.selectFrom('media').select('id').where('id', '=', abandoned.media._id).executeTakeFirst();
    expect(row).toBeUndefined();
  });
});

describe('local part URLs', () => {
  let t: Awaited<ReturnType<typeof startTestServer>>;
  let token: string;
  let lib: { _id: string; rootFolderId: string };
  beforeAll(async () => {
    t = await startTestServer();
    ({ token } = await verifiedUser(t, 'parts'));
    lib = await defaultLibrary(t, token);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a part of the wrong size, a tampered signature, an expired URL and an unknown upload', async () => {
    const bytes = randomFile(UPLOAD_CHUNK_SIZE + 10);
    const start = (await startUpload(t, token, lib._id, lib.rootFolderId, 'sizes.mp4', bytes)).body.data!;
    const short = await fetch(start.partUrls[0]!, { method: 'PUT', body: bytes.subarray(0, 1000) });
    expect(short.status).toBe(400);
    expect((await short.json()).error.message).toMatch(/must be exactly 20971520 bytes; 1000 were received/);
    const long = await fetch(start.partUrls[1]!, { method: 'PUT', body: bytes.subarray(0, 5000) });
    expect(long.status).toBe(400);
    const tampered = start.partUrls[0]!.replace(/sig=([^&]+)/, (_m, s: string) => `sig=${s.slice(0, -2)}AA`);
    expect((await fetch(tampered, { method: 'PUT', body: bytes.subarray(0, UPLOAD_CHUNK_SIZE) })).status).toBe(403);
    const wrongPart = start.partUrls[0]!.replace('/1?', '/2?');
    expect((await fetch(wrongPart, { method: 'PUT', body: bytes.subarray(0, 10) })).status).toBe(403);
    const store = t.server.blobs as LocalBlobStore;
    const uploadId = /upload\/([^/]+)\//.exec(start.partUrls[0]!)![1]!;
    const expired = await store.partUrl({ uploadId, key: 'k', storeUploadId: null }, 1, new Date(Date.now() - 1000));
    expect((await fetch(expired, { method: 'PUT', body: bytes.subarray(0, UPLOAD_CHUNK_SIZE) })).status).toBe(403);
    const unknown = await store.partUrl(
      { uploadId: '11111111-1111-1111-1111-111111111111', key: 'k', storeUploadId: null },
      1,
      new Date(Date.now() + 60_000),
    );
    expect((await fetch(unknown, { method: 'PUT', body: bytes.subarray(0, 10) })).status).toBe(404);
    // nothing half-done: the failed parts are not counted
    const fin = await t.api('POST', API.uploadFinish(lib._id, start.media._id), { token, body: { opaqueData: start.opaqueData } });
    expect(fin.status).toBe(400);
    expect(fin.body.error!.message).toBe('The upload is missing parts 1, 2.');
  });

  it('refuses uploads beyond the storage limit', async () => {
    // a catalogue whose Free Trial allows 1.8 s of media
    const catalog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-')), 'products.json');
    fs.writeFileSync(
      catalog,
      JSON.stringify({
        ...DEFAULT_CATALOG,
        freeTrial: { ...DEFAULT_CATALOG.freeTrial, quota: { ...DEFAULT_CATALOG.freeTrial.quota, storageHours: 0.0005 } },
      }),
    );
    const small = await startTestServer({ BILLING_PRODUCTS_FILE: catalog });
    try {
      const { token: tk } = await verifiedUser(small, 'quota');
      const l = await defaultLibrary(small, tk);
      const fin = await uploadFile(small, tk, l._id, l.rootFolderId, 'long.mp4', makeVideo(3));
      expect(fin.status).toBe(403);
      expect(fin.body.error!.message).toBe(MSG_LIB.storageLimit(0.0005));
      const files = (await small.api<{ files: Media[] }>('GET', API.folder(l._id), { token: tk })).body.data!.files;
      expect(files).toHaveLength(0);
    } finally {
      await small.close();
    }
  });
});
