import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putFile } from '../../src/server/adapters/blobs/blobStore';
import { blobKeys } from '../../src/server/modules/storage/blobKeys';
import { API, type Media, type PreviewTokenAnswer } from '../../src/contract';
import { makeSolidImage } from '../fixtures/makeMedia';
import { removeDir, tempDir } from '../fixtures/modelsDir';
import { startTestServer } from './support/harness';
import { defaultLibrary, uploadFile, verifiedUser, waitForStatus } from './support/upload';

/**
 * The timeline thumbnail track (issue 41), read back with ffprobe from the bytes the route serves:
 * exactly the original's keyframes, each an IDR picture at its time, upright, 8-bit H.264 covering
 * 280x180, for H.264, rotated, VP9 and 10-bit sources; none for a photo; served like the source.
 */
let t: Awaited<ReturnType<typeof startTestServer>>;
let dir: string;
let owner: { token: string };
let lib: { _id: string; rootFolderId: string };
let previewToken: string;
const media: Record<string, Media> = {};
const originals: Record<string, string> = {};

const ffmpeg = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
const ffprobe = (args: string[]) => execFileSync('ffprobe', ['-v', 'error', ...args]).toString();
const testsrc = (seconds: number, size: string) => ['-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=${size}:rate=25`];
const x264 = ['-c:v', 'libx264', '-preset', 'ultrafast'];

/** Each packet's presentation time and whether it is a keyframe, in decoding order. */
function packets(file: string) {
  return ffprobe(['-select_streams', 'v:0', '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', file])
    .trim()
    .split('\n')
    .map((l) => l.split(','))
    .map(([pts, flags]) => ({ t: Number(pts), key: flags!.startsWith('K') }));
}

/** The original's keyframe times, 0 at its first frame (the media's time), in order. */
function keyframeTimes(file: string) {
  const all = packets(file);
  const start = Math.min(...all.map((p) => p.t));
  return all
    .filter((p) => p.key)
    .map((p) => p.t - start)
    .sort((a, b) => a - b);
}

function stream(file: string) {
  const out = JSON.parse(
    ffprobe([
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=codec_name,width,height,pix_fmt,profile:stream_side_data',
      '-of',
      'json',
      file,
    ]),
  ) as {
    streams: Array<{ codec_name: string; width: number; height: number; pix_fmt: string; profile: string; side_data_list?: unknown[] }>;
  };
  return out.streams[0]!;
}

const trackUrl = (m: Media, token = previewToken) => `${t.server.url}${API.mediaThumbnailTrack(lib._id, m._id)}?token=${token}`;

/** The served track, written to a file for ffprobe. */
async function servedTrack(name: string) {
  const res = await fetch(trackUrl(media[name]!));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('video/mp4');
  const file = path.join(dir, `${name}.track.mp4`);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

beforeAll(async () => {
  dir = tempDir('track');
  const file = (name: string) => (originals[name] = path.join(dir, name));
  // 16:9, a keyframe every 2 s and one forced between (a cut the encoder would make).
  ffmpeg([...testsrc(8, '640x360'), ...x264, '-pix_fmt', 'yuv420p', '-g', '50', '-force_key_frames', '3.2', file('wide.mp4')]);
  // A phone held upright: landscape pixels turned by the display matrix (ffmpeg 5.1 writes it from the rotate tag).
  ffmpeg([...testsrc(4, '640x360'), ...x264, '-pix_fmt', 'yuv420p', '-g', '25', path.join(dir, 'flat.mp4')]);
  ffmpeg(['-i', path.join(dir, 'flat.mp4'), '-c', 'copy', '-metadata:s:v:0', 'rotate=90', file('phone.mp4')]);
  ffmpeg([...testsrc(3, '320x240'), '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-g', '30', file('vp9.webm')]);
  ffmpeg([...testsrc(3, '640x360'), ...x264, '-pix_fmt', 'yuv420p10le', '-g', '30', file('deep.mp4')]);
  const photo = await makeSolidImage(dir, 'teal', 200);
  fs.copyFileSync(photo, file('photo.png'));

  t = await startTestServer();
  owner = await verifiedUser(t, 'track');
  lib = await defaultLibrary(t, owner.token);
  previewToken = (await t.api<PreviewTokenAnswer>('GET', API.libraryPreviewToken(lib._id), { token: owner.token })).body.data!.previewToken;
  await Promise.all(
    Object.entries(originals).map(async ([name, f]) => {
      const fin = await uploadFile(t, owner.token, lib._id, lib.rootFolderId, name, fs.readFileSync(f));
      media[name] = await waitForStatus(t, owner.token, lib._id, fin.body.data!._id, ['completed', 'errored', 'invalid'], 120_000);
    }),
  );
}, 180_000);

afterAll(async () => {
  await t?.close();
  if (dir) removeDir(dir);
});

describe('thumbnail track', () => {
  it("holds exactly the original's keyframes, each an IDR picture at its time, 320x180 for 16:9", async () => {
    const m = media['wide.mp4']!;
    expect(m.status).toBe('completed');
    expect(m.capabilities.thumbnailTrack).toBe(true);
    const track = await servedTrack('wide.mp4');
    const expected = keyframeTimes(originals['wide.mp4']!);
    expect(expected.length).toBeGreaterThanOrEqual(5);
    const got = packets(track);
    expect(got.every((p) => p.key)).toBe(true);
    expect(got).toHaveLength(expected.length);
    const times = got.map((p) => p.t).sort((a, b) => a - b);
    times.forEach((time, i) => expect(Math.abs(time - expected[i]!), `keyframe ${i}`).toBeLessThan(0.001));
    expect(stream(track)).toMatchObject({ codec_name: 'h264', width: 320, height: 180, pix_fmt: 'yuv420p' });
    // Every picture is an IDR: decodable alone (the browser's decoder is reset before each one it is fed).
    const frames = (
      JSON.parse(ffprobe(['-show_entries', 'frame=pict_type,key_frame', '-of', 'json', track])) as {
        frames: Array<{ pict_type: string; key_frame: number }>;
      }
    ).frames;
    expect(frames).toHaveLength(expected.length);
    expect(new Set(frames.map((f) => `${f.key_frame},${f.pict_type}`))).toEqual(new Set(['1,I']));
  });

  it('is upright for a phone video turned by its display matrix, and carries no rotation', async () => {
    expect(stream(originals['phone.mp4']!).side_data_list).toBeTruthy();
    const m = media['phone.mp4']!;
    expect(m.capabilities.thumbnailTrack).toBe(true);
    const s = stream(await servedTrack('phone.mp4'));
    expect(s).toMatchObject({ codec_name: 'h264', width: 280, height: 498 });
    expect(s.side_data_list ?? []).toEqual([]);
    expect(m.metadata.video.height).toBeGreaterThan(m.metadata.video.width);
  });

  it('is made from a VP9 WebM and from 10-bit H.264, as 8-bit 4:2:0 H.264', async () => {
    for (const [name, size] of [
      ['vp9.webm', { width: 280, height: 210 }],
      ['deep.mp4', { width: 320, height: 180 }],
    ] as const) {
      expect(media[name]!.capabilities.thumbnailTrack, name).toBe(true);
      const track = await servedTrack(name);
      expect(stream(track), name).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', ...size });
      expect(stream(track).profile, name).not.toMatch(/10/);
      expect(packets(track).length, name).toBe(keyframeTimes(originals[name]!).length);
    }
  });

  it('is not made for a photo', async () => {
    const m = media['photo.png']!;
    expect(m.status).toBe('completed');
    expect(m.capabilities.thumbnailTrack).toBe(false);
    const res = await fetch(trackUrl(m));
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('This media has no thumbnail track.');
  });

  it('is made afterwards for a video indexed before tracks existed (the backfill job), and marked when it cannot be', async () => {
    const m = media['deep.mp4']!;
    const db = t.server.database.db;
    // As a media indexed before this change: no track in its state, no track file.
    await db
      .updateTable('media')
      .set({ ingest: sql`ingest - 'track'` as never })
      .where('id', '=', m._id)
      .execute();
    await t.server.blobs.delete(blobKeys.thumbnailTrack(m._id));
    const asOld = (await t.api<Media>('GET', API.media(lib._id, m._id), { token: owner.token })).body.data!;
    expect(asOld.capabilities.thumbnailTrack).toBe(false);
    expect((await fetch(trackUrl(m))).status).toBe(404);

    // One that cannot be made (its original is gone): marked, and not tried again.
    const broken = media['wide.mp4']!;
    const { blob_key } = await db.selectFrom('media').select('blob_key').where('id', '=', broken._id).executeTakeFirstOrThrow();
    const keep = path.join(dir, 'wide.keep');
    fs.copyFileSync(await t.server.blobs.toolInput(blob_key), keep);
    await db
      .updateTable('media')
      .set({ ingest: sql`ingest - 'track'` as never })
      .where('id', '=', broken._id)
      .execute();
    await t.server.blobs.delete(blob_key);

    // Every other video already has a track: the two above are all the job finds.
    expect(await t.server.ingest.backfillThumbnailTracks()).toBe(2);
    const now = (await t.api<Media>('GET', API.media(lib._id, m._id), { token: owner.token })).body.data!;
    expect(now.capabilities.thumbnailTrack).toBe(true);
    const track = await servedTrack('deep.mp4');
    expect(packets(track).length).toBe(keyframeTimes(originals['deep.mp4']!).length);
    const state = await db.selectFrom('media').select('ingest').where('id', '=', broken._id).executeTakeFirstOrThrow();
    expect(state.ingest.track).toBeUndefined();
    expect(state.ingest.trackFailed).toBe(true);
    expect(await t.server.ingest.backfillThumbnailTracks()).toBe(0);

    // Put the original and the track back for the tests after this one.
    await putFile(t.server.blobs, blob_key, keep, 'video/mp4');
    await db
      .updateTable('media')
      .set({ ingest: sql`ingest - 'trackFailed'` as never })
      .where('id', '=', broken._id)
      .execute();
    expect(await t.server.ingest.backfillThumbnailTracks()).toBe(1);
  });

  it('is served by byte ranges, authorised like the source', async () => {
    const m = media['wide.mp4']!;
    const whole = Buffer.from(await (await fetch(trackUrl(m))).arrayBuffer());
    const head = await fetch(trackUrl(m), { headers: { range: 'bytes=0-99' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-range')).toBe(`bytes 0-99/${whole.length}`);
    const bytes = Buffer.from(await head.arrayBuffer());
    expect(bytes).toHaveLength(100);
    expect(bytes.equals(whole.subarray(0, 100))).toBe(true);
    // faststart: the index comes before the pictures, so the browser reads it with the first range
    expect(whole.indexOf('moov')).toBeLessThan(whole.indexOf('mdat'));

    const source = (token?: string, headers: Record<string, string> = {}) =>
      fetch(`${t.server.url}${API.mediaSource(lib._id, m._id)}${token ? `?token=${token}` : ''}`, { headers });
    const track = (token?: string, headers: Record<string, string> = {}) =>
      fetch(`${t.server.url}${API.mediaThumbnailTrack(lib._id, m._id)}${token ? `?token=${token}` : ''}`, { headers });
    const statuses = async (call: typeof source) => {
      const other = await verifiedUser(t, 'track-other');
      const otherLib = await defaultLibrary(t, other.token);
      const otherPreview = (await t.api<PreviewTokenAnswer>('GET', API.libraryPreviewToken(otherLib._id), { token: other.token })).body
        .data!.previewToken;
      return [
        (await call()).status,
        (await call(undefined, { authorization: `Bearer ${other.token}` })).status,
        (await call(otherPreview)).status,
        (await call(undefined, { authorization: `Bearer ${owner.token}`, range: 'bytes=0-9' })).status,
      ];
    };
    const [fromTrack, fromSource] = [await statuses(track), await statuses(source)];
    expect(fromTrack).toEqual(fromSource);
    expect(fromTrack).toEqual([401, 404, 403, 206]);
  });
});
