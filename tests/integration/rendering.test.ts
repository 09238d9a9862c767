import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canAfford,
  API,
  MSG_RENDER,
  RENDER_QUEUE_CONCURRENCY,
  RENDER_QUEUE_STARTS_PER_SECOND,
  watermarkRemovalCost,
  type CompilationBody,
  type Media,
  type RenderAnswer,
} from '../../src/contract';
import { RenderRepository } from '../../src/server/modules/render/render.repository';
import { COUNTER_FPS, makeCounterVideo, readCounters } from '../fixtures/counterVideo';
import { makeSolidImage } from '../fixtures/makeMedia';
import { startTestServer } from './support/harness';
import { startS3 } from './support/s3';
import { defaultLibrary, startUpload, uploadFile, verifiedUser, waitForStatus } from './support/upload';

let t: Awaited<ReturnType<typeof startTestServer>>;
let dir: string;
let owner: { token: string; userId: string };
let stranger: { token: string; userId: string };
let lib: { _id: string; rootFolderId: string };
/** Counter video with a 440 Hz tone, and the same picture without any audio track. */
let withAudio: Media;
let silent: Media;
let image: Media;

const FRAME = 1 / COUNTER_FPS;

async function upload(token: string, name: string, file: string) {
  const fin = await uploadFile(t, token, lib._id, lib.rootFolderId, name, fs.readFileSync(file));
  if (fin.status !== 200) throw new Error(`upload ${name}: ${fin.status} ${fin.body.error?.message}`);
  return waitForStatus(t, token, lib._id, fin.body.data!._id, ['completed', 'errored', 'invalid'], 240_000);
}

/** Posts a render and, like the web app, polls the status route after a 202 until it is done. */
async function render(path: string, body: unknown, token = owner.token) {
  const first = await t.api<RenderAnswer>('POST', path, { token, body });
  if (first.status !== 200 && first.status !== 202) return { first, final: first };
  let final = first;
  for (let i = 0; !final.body.data?.url && final.body.data?.status !== 'failed' && i < 600; i++) {
    await new Promise((r) => setTimeout(r, 200));
    final = await t.api<RenderAnswer>('GET', API.renderStatus(first.body.data!.renderId), { token });
    if (final.status !== 200) break;
  }
  return { first, final };
}

async function download(url: string, ext: string) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const file = path.join(dir, `out-${Math.random().toString(36).slice(2)}.${ext}`);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return { file, disposition: res.headers.get('content-disposition') ?? '' };
}

const probe = (file: string) =>
  JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file]).toString()) as {
    streams: Array<Record<string, string | number>>;
    format: { duration: string };
  };

/** Mean absolute difference of the bottom-right corner (where the mark sits) of the last frame of two renders. */
function cornerDifference(a: string, b: string) {
  const corner = (f: string) =>
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-sseof',
      '-0.2',
      '-i',
      f,
      '-vf',
      'crop=iw/3:ih/6:iw*2/3:ih*5/6,format=gray',
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-',
    ]);
  const x = corner(a);
  const y = corner(b);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i]! - y[i]!);
  return sum / x.length;
}

const balance = () => t.server.ledger.balance(owner.userId);

beforeAll(async () => {
  t = await startTestServer({ SIGNUP_BONUS_CREDITS: '0', RENDER_WAIT_MS: '0' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-render-'));
  owner = await verifiedUser(t, 'render');
  stranger = await verifiedUser(t, 'stranger');
  lib = await defaultLibrary(t, owner.token);
  const silentFile = path.join(dir, 'silent.mp4');
  makeCounterVideo(silentFile);
  const toneFile = path.join(dir, 'tone.mp4');
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-i', silentFile, '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=12'],
    ...['-map', '0:v', '-map', '1:a', '-c:v', 'copy', '-c:a', 'aac', '-ac', '1', '-shortest', toneFile],
  ]);
  const png = await makeSolidImage(dir, 'red', 160);
  [withAudio, silent, image] = await Promise.all([
    upload(owner.token, 'tone.mp4', toneFile),
    upload(owner.token, 'silent.mp4', silentFile),
    upload(owner.token, 'red.png', png),
  ]);
  expect([withAudio.status, silent.status, image.status]).toEqual(['completed', 'completed', 'completed']);
}, 400_000);
afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const clip = (m: Media, start: number, end: number) => ({ libraryId: lib._id, mediaId: m._id, start, end });

describe('compilation', () => {
  it('cuts each clip frame-accurately onto one 720p canvas with 48 kHz stereo audio (silence where a clip has none)', async () => {
    const clips = [clip(withAudio, 2, 4), clip(silent, 7.4, 8.2), clip(withAudio, 0.52, 1)];
    const { first, final } = await render(API.renderCompilation, { clips, height: 720, filename: 'my/clip"1', watermark: true });
    expect(first.status).toBe(202);
    expect(first.body.data).toMatchObject({ status: expect.stringMatching(/queued|rendering/), credits: 0 });
    expect(final.status).toBe(200);
    const out = await download(final.body.data!.url!, 'mp4');
    expect(out.disposition).toMatch(/^attachment; filename="my_clip_1\.mp4"/);

    const info = probe(out.file);
    const video = info.streams.find((s) => s.codec_type === 'video')!;
    const audio = info.streams.find((s) => s.codec_type === 'audio')!;
    expect(video).toMatchObject({ codec_name: 'h264', height: 720, width: 1280, pix_fmt: 'yuv420p' });
    expect(audio).toMatchObject({ codec_name: 'aac', sample_rate: '48000', channels: 2 });
    const total = 2 + 0.8 + 0.48;
    expect(Math.abs(Number(info.format.duration) - total)).toBeLessThanOrEqual(FRAME + 0.03);
    // +faststart: the moov box comes before the media data.
    const head = fs.readFileSync(out.file).subarray(0, 4096).toString('latin1');
    expect(head.indexOf('moov')).toBeGreaterThan(-1);

    const frames = readCounters(out.file);
    const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);
    expect(frames).toEqual([...range(50, 100), ...range(185, 205), ...range(13, 25)]);
    // the tone is there in the first clip, silence in the second
    const level = (ss: number) =>
      spawnSync('ffmpeg', [
        '-v',
        'info',
        '-ss',
        String(ss),
        '-t',
        '0.5',
        '-i',
        out.file,
        '-af',
        'volumedetect',
        '-f',
        'null',
        '-',
      ]).stderr.toString();
    const meanDb = (s: string) => Number(/mean_volume: (-?[\d.]+|-inf) dB/.exec(s)?.[1] ?? -Infinity);
    expect(meanDb(level(0.5))).toBeGreaterThan(-30);
    const quiet = level(2.2);
    expect(/mean_volume: -inf/.test(quiet) || meanDb(quiet) < -80).toBe(true);
  }, 120_000);

  it('burns the watermark in by default and leaves it out when paid for, charging ceil(s/60*250) once across retries', async () => {
    await t.server.ledger.grant(owner.userId, { amount: 1000, origin: 'adjustment', key: 'render-test', reason: 'test', expiresAt: null });
    const before = await balance();
    const marked = await render(API.renderCompilation, { clips: [clip(silent, 4, 8)] });
    expect(marked.final.body.data!.credits).toBe(0);
    const body: CompilationBody = { clips: [clip(silent, 4, 8)], watermark: false, filename: 'clean' };
    // the same request sent three times at once (a retry racing the original) renders and charges once
    const runs = await Promise.all([1, 2, 3].map(() => render(API.renderCompilation, body)));
    const ids = new Set(runs.map((r) => r.final.body.data!.renderId));
    expect(ids.size).toBe(1);
    const cost = watermarkRemovalCost(4);
    expect(cost).toBe(17);
    expect(runs[0]!.final.body.data!.credits).toBe(cost);
    expect(await balance()).toBe(before - cost);
    // repeated later: the output is reused (200 at once), nothing more is charged
    const again = await t.api<RenderAnswer>('POST', API.renderCompilation, { token: owner.token, body });
    expect(again.status).toBe(200);
    expect(again.body.data!.renderId).toBe([...ids][0]);
    expect(await balance()).toBe(before - cost);

    const a = await download(marked.final.body.data!.url!, 'mp4');
    const b = await download(runs[0]!.final.body.data!.url!, 'mp4');
    expect(b.disposition).toMatch(/filename="clean\.mp4"/);
    expect(cornerDifference(a.file, b.file)).toBeGreaterThan(8);
    // elsewhere the two renders are the same picture
    expect(readCounters(a.file)).toEqual(readCounters(b.file));
  }, 120_000);

  it('refuses a watermark-free render the balance cannot pay (past the purchase tolerance, like ingest), before rendering, with the figures', async () => {
    const have = await balance();
    // 4,980 below zero: a 34-credit render would take it past the spec's tolerance (-5,000).
    await t.server.ledger.charge(owner.userId, { amount: have + 4_980, key: 'drain-for-render-test', reason: 'test' });
    expect(canAfford(-4_980, 34)).toBe(false);
    expect(canAfford(-4_980, 20)).toBe(true);
    const r = await t.api<RenderAnswer>('POST', API.renderCompilation, {
      token: owner.token,
      body: { clips: [clip(withAudio, 0, 8)], watermark: false },
    });
    expect(r.status).toBe(402);
    expect(r.body.error).toMatchObject({
      code: 'payment_required',
      message: MSG_RENDER.insufficientCredits(34, -4_980),
      cost: 34,
      balance: 0,
    });
    expect(r.body.error!.message).toBe('Downloading without watermarks would cost 34 credits and you have no credits left.');
    expect(await balance()).toBe(-4_980);
    await t.server.ledger.grant(owner.userId, {
      amount: 6000,
      origin: 'adjustment',
      key: 'render-refill',
      reason: 'test',
      expiresAt: null,
    });
  });

  it('answers an ffmpeg failure as a failed render with its reason (no 5xx) and charges nothing; the same request later succeeds and is charged once', async () => {
    const key = `derived/${silent._id}/hls/playlist.m3u8`;
    const blobs = t.server.blobs;
    const original = fs.readFileSync(await blobs.toolInput(key));
    await blobs.put(key, Buffer.from('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nseg_99999.ts\n#EXT-X-ENDLIST\n'));
    const before = await balance();
    const body = { clips: [clip(silent, 1, 3)], watermark: false };
    const failed = await render(API.renderCompilation, body);
    expect(failed.final.status).toBe(200);
    expect(failed.final.body.data).toMatchObject({ status: 'failed', error: MSG_RENDER.failedReason });
    expect(failed.final.body.data!.url).toBeUndefined();
    expect(await balance()).toBe(before);
    await blobs.put(key, original);
    const ok = await render(API.renderCompilation, body);
    expect(ok.final.status).toBe(200);
    // The same request is a new attempt of the same render, not the failure again.
    expect(ok.final.body.data).toMatchObject({ renderId: failed.final.body.data!.renderId, status: 'completed' });
    expect(await balance()).toBe(before - watermarkRemovalCost(2));
  }, 120_000);

  it('rejects bad requests with a clear 4xx and renders nothing', async () => {
    const post = (body: unknown, token = owner.token) => t.api('POST', API.renderCompilation, { token, body });
    const cases: Array<[unknown, number, string | RegExp]> = [
      [{ clips: [clip(withAudio, 3, 3)] }, 400, MSG_RENDER.startBeforeEnd],
      [{ clips: [clip(withAudio, 5, 13)] }, 400, /outside the media/],
      [{ clips: [clip(withAudio, 0, 2), clip(image, 0, 1)] }, 400, MSG_RENDER.mergeImages],
      [{ clips: Array.from({ length: 51 }, () => clip(withAudio, 0, 1)) }, 400, /clips/],
      [{ clips: [clip(withAudio, 0, 2)], height: 500 }, 400, /height/],
      [{ clips: [] }, 400, /clips/],
      [{ clips: [{ ...clip(withAudio, 0, 2), mediaId: '00000000-0000-4000-8000-000000000000' }] }, 404, /not found/i],
    ];
    for (const [body, status, message] of cases) {
      const r = await post(body);
      expect(r.status, JSON.stringify(r.body.error)).toBe(status);
      if (typeof message === 'string') expect(r.body.error!.message).toBe(message);
      else expect(r.body.error!.message).toMatch(message);
    }
    // another user's media is not found, as are their renders
    const theirs = await post({ clips: [clip(withAudio, 0, 2)] }, stranger.token);
    expect(theirs.status).toBe(404);
    const gif = await t.api('POST', API.renderGif(lib._id, withAudio._id), { token: stranger.token, body: { start: 0, end: 1 } });
    expect(gif.status).toBe(404);
    // media still uploading is not ready
    const bytes = fs.readFileSync(path.join(dir, 'silent.mp4'));
    const pending = await startUpload(t, owner.token, lib._id, lib.rootFolderId, 'pending.mp4', Buffer.concat([bytes, Buffer.from('x')]));
    const notReady = await post({ clips: [{ libraryId: lib._id, mediaId: pending.body.data!.media._id, start: 0, end: 1 }] });
    expect(notReady.status).toBe(409);
    expect(notReady.body.error!.message).toBe(MSG_RENDER.mediaNotReady);
  });
});

describe('gif', () => {
  it('renders at most 15 fps and 480 px wide, the expected frames, watermarked by default', async () => {
    const { final } = await render(API.renderGif(lib._id, withAudio._id), { start: 1, end: 3, filename: 'loop' });
    expect(final.status).toBe(200);
    const out = await download(final.body.data!.url!, 'gif');
    expect(out.disposition).toMatch(/^attachment; filename="loop\.gif"/);
    const s = probe(out.file).streams[0]!;
    expect(s).toMatchObject({ codec_name: 'gif', width: 480, height: 270 });
    const frames = readCounters(out.file);
    expect(frames).toHaveLength(30);
    expect(frames[0]).toBe(25);
    expect(Math.abs(frames.at(-1)! - 74)).toBeLessThanOrEqual(1);
  }, 60_000);

  it('leaves the mark out of a GIF when paid for, charging ceil(s/60*250) once', async () => {
    await t.server.ledger.grant(owner.userId, { amount: 100, origin: 'adjustment', key: 'gif-test', reason: 'test', expiresAt: null });
    const marked = await render(API.renderGif(lib._id, withAudio._id), { start: 1, end: 3, filename: 'loop' });
    const before = await balance();
    const body = { start: 1, end: 3, filename: 'clean-loop', watermark: false };
    const clean = await render(API.renderGif(lib._id, withAudio._id), body);
    expect(clean.final.body.data!.credits).toBe(watermarkRemovalCost(2));
    const again = await t.api<RenderAnswer>('POST', API.renderGif(lib._id, withAudio._id), { token: owner.token, body });
    expect(again.body.data!.renderId).toBe(clean.final.body.data!.renderId);
    expect(await balance()).toBe(before - watermarkRemovalCost(2));
    const a = await download(marked.final.body.data!.url!, 'gif');
    const b = await download(clean.final.body.data!.url!, 'gif');
    expect(cornerDifference(a.file, b.file)).toBeGreaterThan(8);
  }, 60_000);

  it('refuses an image', async () => {
    const r = await t.api('POST', API.renderGif(lib._id, image._id), { token: owner.token, body: { start: 0, end: 1 } });
    expect(r.status).toBe(400);
    expect(r.body.error!.message).toBe(MSG_RENDER.imageGif);
  });
});

describe('srt', () => {
  beforeAll(async () => {
    const db = t.server.database.db;
    await db.deleteFrom('transcript_segments').where('media_id', '=', withAudio._id).execute();
    await db
      .insertInto('transcript_segments')
      .values(
        [
          [0.5, 2.25, 'hello there'],
          [2.5, 3.0, '   '],
          [3.1, 5.5, 'general kenobi'],
          [6.0, 7.0, 'you are a bold one'],
        ].map(([start, end, text]) => ({
          media_id: withAudio._id,
          library_id: lib._id,
          start: start as number,
          end: end as number,
          text: text as string,
          words: '[]',
        })),
      )
      .execute();
  });

  const srt = async (query: string, token = owner.token) => {
    const res = await fetch(`${t.server.url}${API.mediaSrt(lib._id, withAudio._id)}${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: res.status, text: await res.text(), disposition: res.headers.get('content-disposition') ?? '' };
  };

  it("exports a whole media's transcript, skipping segments without text", async () => {
    const r = await srt('?filename=talk');
    expect(r.status).toBe(200);
    expect(r.disposition).toMatch(/^attachment; filename="talk\.srt"/);
    expect(r.text).toBe(
      '1\n00:00:00,500 --> 00:00:02,250\nhello there\n\n2\n00:00:03,100 --> 00:00:05,500\ngeneral kenobi\n\n3\n00:00:06,000 --> 00:00:07,000\nyou are a bold one\n',
    );
  });

  it("exports a moment's transcript relative to its start", async () => {
    const r = await srt('?start=2&end=6.5');
    expect(r.text).toBe(
      '1\n00:00:00,000 --> 00:00:00,250\nhello there\n\n2\n00:00:01,100 --> 00:00:03,500\ngeneral kenobi\n\n3\n00:00:04,000 --> 00:00:04,500\nyou are a bold one\n',
    );
    expect((await srt('?start=2&end=6.5', stranger.token)).status).toBe(404);
  });
});

describe('render queue gate', () => {
  it('lets 2 renders start a second and 16 run at once, counted in the database (so across processes)', async () => {
    const repo = new RenderRepository(t.server.database.db);
    await new Promise((r) => setTimeout(r, 1100)); // earlier renders' starts leave the 1 s window
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const gate = { concurrency: RENDER_QUEUE_CONCURRENCY, perSecond: RENDER_QUEUE_STARTS_PER_SECOND, leaseSeconds: 60 };
    expect(await repo.tryAcquireSlot(ids[0]!, gate)).toBe(true);
    expect(await repo.tryAcquireSlot(ids[1]!, gate)).toBe(true);
    expect(await repo.tryAcquireSlot(ids[2]!, gate)).toBe(false);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await repo.tryAcquireSlot(ids[2]!, gate)).toBe(true);

    const unthrottled = { ...gate, perSecond: 1000 };
    for (let i = 3; i < 16; i++) expect(await repo.tryAcquireSlot(ids[i]!, unthrottled)).toBe(true);
    expect(await repo.tryAcquireSlot(ids[16]!, unthrottled)).toBe(false);
    await repo.releaseSlot(ids[0]!);
    expect(await repo.tryAcquireSlot(ids[16]!, unthrottled)).toBe(true);
    // 16 slots held, as if by renders whose process was killed (their leases still running): the
    // retry of one of them takes its own slot again at once, another render still waits.
    expect(await repo.tryAcquireSlot(ids[5]!, unthrottled)).toBe(true);
    expect(await repo.tryAcquireSlot(ids[17]!, unthrottled)).toBe(false);
    for (const id of ids) await repo.releaseSlot(id);
  });
});

describe('expiry', () => {
  it('removes outputs past their expiry: the blob, the render, and its link', async () => {
    const { final } = await render(API.renderGif(lib._id, silent._id), { start: 5, end: 6 });
    const id = final.body.data!.renderId;
    const row = await t.server.database.db.selectFrom('renders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(await t.server.blobs.exists(row.blob_key!)).toBe(true);
    expect(await t.server.renders.expire()).toBe(0);
    await t.server.database.db
      .updateTable('renders')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    expect(await t.server.renders.expire()).toBe(1);
    expect(await t.server.blobs.exists(row.blob_key!)).toBe(false);
    expect((await t.api('GET', API.renderStatus(id), { token: owner.token })).status).toBe(404);
    expect((await fetch(final.body.data!.url!)).status).toBe(404);
  }, 60_000);
});

describe('on the S3 blob store', () => {
  it("renders from the media's rendition through signed segment URLs, frame-accurately, and serves the output signed", async () => {
    const s3 = await startS3();
    const t2 = await startTestServer({ ...s3.env, RENDER_WAIT_MS: '0' });
    try {
      const user = await verifiedUser(t2, 's3render');
      const library = await defaultLibrary(t2, user.token);
      const file = path.join(dir, 's3-counter.mp4');
      makeCounterVideo(file);
      const fin = await uploadFile(t2, user.token, library._id, library.rootFolderId, 'counter.mp4', fs.readFileSync(file));
      // The refusal's reason, should the S3 emulator's multipart assembly fail (seen once under load).
      expect(fin.status, fin.body.error?.message).toBe(200);
      const media = await waitForStatus(t2, user.token, library._id, fin.body.data!._id, ['completed', 'errored', 'invalid'], 240_000);
      expect(media.status).toBe('completed');
      // Without its original, only the rendition can be read: the render must not need it.
      const original = `media/${user.userId}/${media._id}/original.mp4`;
      expect(await t2.server.blobs.exists(original)).toBe(true);
      await t2.server.blobs.delete(original);
      const clips = [
        { libraryId: library._id, mediaId: media._id, start: 3, end: 3.8 },
        { libraryId: library._id, mediaId: media._id, start: 1, end: 1.4 },
      ];
      let answer = await t2.api<RenderAnswer>('POST', API.renderCompilation, { token: user.token, body: { clips } });
      for (let i = 0; !answer.body.data?.url && answer.status < 300 && i < 600; i++) {
        await new Promise((r) => setTimeout(r, 200));
        answer = await t2.api<RenderAnswer>('GET', API.renderStatus(answer.body.data!.renderId), { token: user.token });
      }
      expect(answer.body.data?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/clipseek\/renders\//);
      const out = await download(answer.body.data!.url!, 'mp4');
      const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);
      expect(readCounters(out.file)).toEqual([...range(75, 95), ...range(25, 35)]);
    } finally {
      await t2.close();
      await s3.close();
    }
  }, 300_000);
});
