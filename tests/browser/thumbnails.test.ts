import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG_MOMENT, TIMELINE } from '../../src/contract';
import type { Browser } from '../e2e/harness';
import { openPage, servePages, type PageServer } from './harness';
import type { CreateOptions, GetRequest, GetResult, ThumbnailsDriver } from './pages/thumbnails/index';

/**
 * The thumbnail worker in real Chromium: frames decoded by WebCodecs from media read by byte ranges,
 * checked against the frame number each frame of the generated media shows.
 */

const FPS = 25;
const SECONDS = 20;
const FRAMES = FPS * SECONDS;
const GOP = 50;

let dir: string;
let server: PageServer;
let browser: Browser;
const media: Record<string, string> = {};

/**
 * 320x180 H.264 at 25 fps, a keyframe every 50 frames exactly, B-frames on (x264's default), and
 * each frame's number drawn as 10 binary stripes over the top third (bit 0 left, white = 1) above a
 * moving test pattern.
 */
function makeMedia(file: string, codecArgs: string[], movflags: string[] = []) {
  const bits = Array.from(
    { length: 10 },
    (_, i) => `drawbox=x=${i * 32}:y=0:w=32:h=60:color=white:t=fill:enable='gte(mod(floor(n/${2 ** i}),2),1)'`,
  );
  execFileSync('/usr/bin/ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=s=320x180:r=${FPS}:d=${SECONDS}`],
    ...['-vf', ['drawbox=x=0:y=0:w=320:h=60:color=black:t=fill', ...bits].join(',')],
    ...codecArgs,
    ...['-pix_fmt', 'yuv420p', ...movflags, file],
  ]);
}

const X264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-g', String(GOP), '-keyint_min', String(GOP), '-sc_threshold', '0'];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-thumbs-'));
  const moovAtEnd = path.join(dir, 'moov-at-end.mp4');
  const faststart = path.join(dir, 'faststart.mp4');
  const mpeg4 = path.join(dir, 'mpeg4.mp4');
  const webp = path.join(dir, 'server.webp');
  makeMedia(moovAtEnd, X264);
  makeMedia(faststart, X264, ['-movflags', '+faststart']);
  makeMedia(mpeg4, ['-c:v', 'mpeg4', '-q:v', '5']);
  // A thumbnail track as the server makes one (thumbnailTrack in src/server/adapters/media/ffmpeg.ts):
  // the original's keyframes only, each an IDR picture at its own time, smaller.
  const track = path.join(dir, 'track.mp4');
  execFileSync('/usr/bin/ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-skip_frame', 'nokey', '-i', moovAtEnd, '-an'],
    ...['-vf', 'setpts=PTS-STARTPTS,scale=320:180', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-g', '1', '-bf', '0'],
    ...['-fps_mode', 'passthrough', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', track],
  ]);
  // A track of every frame (500 pictures, ~1.5 MB: what a track of ~10 minutes weighs), each with its frame number.
  const trackAll = path.join(dir, 'track-all.mp4');
  makeMedia(trackAll, ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-g', '1', '-bf', '0'], ['-movflags', '+faststart']);
  media['/media/track-all.mp4'] = trackAll;
  // Plain orange (208, 64, 16) encoded with each of the two common YUV matrices, tagged as such.
  for (const [name, matrix, tag] of [
    ['bt709', 'bt709', 'bt709'],
    ['bt601', 'bt601', 'smpte170m'],
  ]) {
    execFileSync('/usr/bin/ffmpeg', [
      ...['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=0xd04010:s=320x180:r=${FPS}:d=1`],
      ...['-vf', `scale=out_color_matrix=${matrix}:out_range=tv`, ...X264, '-pix_fmt', 'yuv420p'],
      ...['-colorspace', tag!, '-color_primaries', tag === 'bt709' ? 'bt709' : 'smpte170m', '-color_trc', tag!],
      path.join(dir, `orange-${name}.mp4`),
    ]);
    media[`/media/orange-${name}.mp4`] = path.join(dir, `orange-${name}.mp4`);
  }
  // The server's fallback picture: plain magenta, 280 wide like the real one.
  execFileSync('/usr/bin/ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=magenta:s=280x158', '-frames:v', '1', webp]);
  Object.assign(media, {
    '/media/moov-at-end.mp4': moovAtEnd,
    '/media/faststart.mp4': faststart,
    '/media/ranges.mp4': moovAtEnd,
    '/media/abort.mp4': moovAtEnd,
    '/media/destroy.mp4': moovAtEnd,
    '/media/one-by-one.mp4': moovAtEnd,
    '/media/mpeg4.mp4': mpeg4,
    '/media/track-original.mp4': moovAtEnd,
    '/media/track-mpeg4.mp4': mpeg4,
    '/media/track.mp4': track,
    '/library/l1/media/m1/media/thumbnail.webp': webp,
  });
  server = await servePages(media);
  browser = await openPage(server, 'thumbnails/index.html');
  await browser.page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
});

afterAll(async () => {
  const { offHost, pageErrors } = browser ?? { offHost: [], pageErrors: [] };
  await browser?.close();
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  expect(offHost, 'requests to hosts other than 127.0.0.1').toEqual([]);
  // Chromium logs the two server thumbnails that fail on purpose (404); nothing else may go wrong.
  const notFound = 'console: Failed to load resource: the server responded with a status of 404 (Not Found)';
  expect(pageErrors.filter((e) => e === notFound)).toHaveLength(2);
  expect(
    pageErrors.filter((e) => e !== notFound),
    'errors in the page',
  ).toEqual([]);
});

/** Runs `fn(window.thumbs, arg)` in the page (the function travels as source, the argument as JSON). */
const drive = <T>(fn: (thumbs: ThumbnailsDriver, arg: never) => T | Promise<T>, arg?: unknown): Promise<T> =>
  browser.page.evaluate(`(${fn.toString()})(window.thumbs, ${JSON.stringify(arg ?? null)})`) as Promise<T>;

const create = (o: Partial<CreateOptions> & { sourceUrl: string | null }) =>
  drive((t, o: CreateOptions) => t.create(o), {
    thumbnailPath: '/library/l1/media/m1/media/thumbnail.webp',
    duration: SECONDS,
    frameRate: FPS,
    ...o,
  });
const getMany = (id: number, requests: GetRequest[]) => drive((t, a: [number, GetRequest[]]) => t.getMany(a[0], a[1]), [id, requests]);
const stats = (id: number) => drive((t, a: number) => t.stats(a), id);

/** Frame k shown from k/25 s; asking in the middle of its interval. */
const mid = (k: number) => (k + 0.5) / FPS;
const TILE = { width: 160, height: 90 }; // 16:9 like the media: cover crops nothing and all 10 stripes show
const frames = (results: GetResult[]) => results.map((r) => (r.ok ? r.frame : `${r.name}: ${r.message}`));

describe.each(['/media/moov-at-end.mp4', '/media/faststart.mp4'])('thumbnails of %s', (url) => {
  let id: number;
  beforeAll(async () => {
    id = await create({ sourceUrl: url });
  });

  it('exact precision returns exactly the frame shown at each time, keyframes or not, in one batch', async () => {
    const wanted = [0, 1, 7, 49, 50, 51, 99, 137, 251, 333, 498, 499];
    const results = await getMany(
      id,
      wanted.map((k) => ({ time: mid(k), precision: 'exact', ...TILE })),
    );
    expect(frames(results)).toEqual(wanted);
    expect(results.every((r) => r.ok && r.width === 160 && r.height === 90)).toBe(true);
    const s = await stats(id);
    expect(s.mode).toBe('worker');
    expect(s.source).toMatchObject({
      codec: expect.stringMatching(/^avc1\./),
      width: 320,
      height: 180,
      sampleCount: FRAMES,
      syncSampleCount: FRAMES / GOP,
    });
    expect(s.source!.frameRate).toBeCloseTo(FPS, 5);
    // Each GOP is decoded once, from its keyframe up to the last frame wanted in it (in decode
    // order, so a B-frame may pull in the P-frame after it): not 12 GOP decodes, not whole GOPs.
    const lastWanted = new Map<number, number>();
    for (const k of wanted) lastWanted.set(Math.floor(k / GOP) * GOP, k);
    const needed = [...lastWanted].reduce((n, [start, last]) => n + last - start + 1, 0);
    expect(s.chunksDecoded).toBeGreaterThanOrEqual(needed);
    expect(s.chunksDecoded).toBeLessThanOrEqual(needed + 3 * lastWanted.size);
  });

  it('exact precision at a frame boundary and in separate ticks', async () => {
    const a = await getMany(id, [{ time: 2, precision: 'exact', ...TILE }]); // 2.000 s is frame 50 exactly
    const b = await getMany(id, [{ time: 3.04, precision: 'exact', ...TILE }]); // frame 76
    const c = await getMany(id, [{ time: mid(24), precision: 'exact', ...TILE }]);
    expect(frames([...a, ...b, ...c])).toEqual([50, 76, 24]);
  });

  it('keyframe precision returns the sync frame at or before the time, decoding one chunk each', async () => {
    const before = await stats(id);
    const asked = [10, 49, 101, 149, 260, 420, 451];
    const results = await getMany(
      id,
      asked.map((k) => ({ time: mid(k), precision: 'keyframe', ...TILE })),
    );
    expect(frames(results)).toEqual(asked.map((k) => Math.floor(k / GOP) * GOP));
    const after = await stats(id);
    // Requests sharing a keyframe share its decode.
    expect(after.chunksDecoded - before.chunksDecoded).toBe(new Set(asked.map((k) => Math.floor(k / GOP))).size);
    // Another time in an already decoded GOP is the same picture: a cache hit, no worker call.
    const [same] = await getMany(id, [{ time: mid(130), precision: 'keyframe', ...TILE }]);
    expect(same).toMatchObject({ ok: true, frame: 100 });
    const last = await stats(id);
    expect(last.cacheHits - after.cacheHits).toBe(1);
    expect(last.workerRequests).toBe(after.workerRequests);
  });

  it('hands out the cached bitmap for a repeated request', async () => {
    const before = await stats(id);
    const [again] = await getMany(id, [{ time: mid(137), precision: 'exact', ...TILE }]);
    expect(again).toMatchObject({ ok: true, frame: 137 });
    const after = await stats(id);
    expect(after.cacheHits - before.cacheHits).toBe(1);
    expect(after.workerRequests).toBe(before.workerRequests);
  });
});

describe('queue jobs', () => {
  it('requests made one tick after another while a job waits for its slot ride along with it', async () => {
    const id = await create({ sourceUrl: '/media/one-by-one.mp4' });
    await drive((t, a: number) => t.prepare(a), id);
    // Ten tiles in ten ticks, as a scroll brings them in: the first starts a job at once, the other
    // nine are all asked for long before the queue's 50 ms gap lets a second job start.
    const asked = Array.from({ length: 10 }, (_, i) => i * GOP + 3);
    const results = await drive(
      (t, a: [number, GetRequest[]]) => t.getOneByOne(a[0], a[1]),
      [id, asked.map((k) => ({ time: mid(k), precision: 'keyframe' as const, ...TILE }))],
    );
    expect(frames(results)).toEqual(asked.map((k) => k - 3));
    const s = await stats(id);
    expect(s.workerRequests).toBe(10);
    expect(s.batches).toBe(2);
    // The second job waited for the spec's gap after the first one's start, measured from its oldest request.
    expect(s.queueWaitMs).toBeGreaterThanOrEqual(TIMELINE.thumbnailGapMs - 10);
    expect(s.callMs).toBeGreaterThanOrEqual(s.workerBatchMs);
    // The open's parts, timed in the worker, add up to no more than it took as seen from the page.
    const o = s.source!.openMs;
    expect(o.boxes + o.index + o.supported + o.warmUp).toBeLessThanOrEqual(o.total + 0.5);
    expect(o.total).toBeLessThanOrEqual(s.openMs);
  });
});

describe('reading the media', () => {
  it('reads only byte ranges, and a few keyframe thumbnails read a small part of the file', async () => {
    const id = await create({ sourceUrl: '/media/ranges.mp4' });
    const results = await getMany(
      id,
      [mid(10), mid(260), mid(460)].map((time) => ({ time, precision: 'keyframe' as const, width: 140, height: 90 })),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    const size = fs.statSync(media['/media/ranges.mp4']!).size;
    const reads = server.requests.filter((r) => r.path === '/media/ranges.mp4');
    expect(reads.length).toBeGreaterThan(2);
    expect(reads.filter((r) => !r.range)).toEqual([]);
    const bytes = reads.reduce((n, r) => n + r.bytes, 0);
    expect(bytes).toBeLessThan(size / 5);
    const s = await stats(id);
    expect(s.bytesRead).toBe(bytes);
    // No request anywhere in this file answered a whole media file.
    expect(server.requests.filter((r) => r.path.startsWith('/media/') && !r.range)).toEqual([]);
  });
});

describe('colour', () => {
  it.each(['bt709', 'bt601'])('a %s-tagged picture keeps its colour in the tile (scaled from its YUV planes)', async (name) => {
    const id = await create({ sourceUrl: `/media/orange-${name}.mp4`, duration: 1 });
    const [r] = await getMany(id, [{ time: 0.5, precision: 'keyframe', width: 140, height: 90 }]);
    expect(r).toMatchObject({ ok: true, width: 140, height: 90 });
    if (!r!.ok) return;
    const [red, green, blue] = r!.rgb;
    expect(Math.abs(red - 208), `red ${red}`).toBeLessThanOrEqual(8);
    expect(Math.abs(green - 64), `green ${green}`).toBeLessThanOrEqual(8);
    expect(Math.abs(blue - 16), `blue ${blue}`).toBeLessThanOrEqual(8);
    expect((await stats(id)).mode).toBe('worker');
  });
});

describe("the server's thumbnail track (issue 41)", () => {
  const served = (p: string) => server.requests.filter((r) => r.path === p);

  it('gives keyframe tiles from the track without reading the original, and exact ones from the original', async () => {
    const id = await create({ sourceUrl: '/media/track-original.mp4', trackUrl: '/media/track.mp4' });
    expect(await drive((t, a: number) => t.prepare(a), id)).toMatchObject({ mode: 'worker' });
    const keyframes = await getMany(
      id,
      [mid(3), mid(130), mid(260), mid(499)].map((time) => ({ time, precision: 'keyframe' as const, ...TILE })),
    );
    expect(frames(keyframes)).toEqual([0, 100, 250, 450]);
    let s = await stats(id);
    expect(s.keyframesFrom).toBe('track');
    expect(s.track?.syncSampleCount).toBe(FRAMES / GOP);
    expect(s.track?.sampleCount).toBe(FRAMES / GOP);
    expect(s.chunksDecoded).toBe(4); // one picture each: no GOP to decode through
    expect(s.source).toBeNull();
    expect(served('/media/track-original.mp4')).toHaveLength(0);

    // Frame-exact tiles need the original: it is opened now, and only for them.
    const exact = await getMany(id, [{ time: mid(137), precision: 'exact', ...TILE }]);
    expect(frames(exact)).toEqual([137]);
    s = await stats(id);
    expect(s.source?.sampleCount).toBe(FRAMES);
    expect(served('/media/track-original.mp4').length).toBeGreaterThan(0);
    expect(await drive((t, a: number) => t.fallbacks(a), id)).toEqual([]);
    await drive((t, a: number) => t.destroy(a), id);
  });

  it('reads a small track whole in one request as it opens, so its tiles wait for no request', async () => {
    const originalReads = served('/media/track-original.mp4').length;
    const id = await create({ sourceUrl: '/media/track-original.mp4', trackUrl: '/media/track-all.mp4' });
    expect(await drive((t, a: number) => t.prepare(a), id)).toMatchObject({ mode: 'worker' });
    const size = fs.statSync(media['/media/track-all.mp4']!).size;
    const atOpen = served('/media/track-all.mp4');
    expect(atOpen.reduce((n, r) => n + r.bytes, 0)).toBeGreaterThan(size * 0.95);
    expect(atOpen).toHaveLength(1); // its first request asks for as much as a small track holds: index and pictures
    const tiles = await getMany(
      id,
      [mid(3), mid(130), mid(260), mid(377), mid(499)].map((time) => ({ time, precision: 'keyframe' as const, ...TILE })),
    );
    expect(frames(tiles)).toEqual([3, 130, 260, 377, 499]);
    expect(served('/media/track-all.mp4')).toHaveLength(atOpen.length);
    expect(served('/media/track-original.mp4')).toHaveLength(originalReads);
    await drive((t, a: number) => t.destroy(a), id);
  });

  it('a media the browser cannot decode gets keyframe tiles from its track and exact ones from the server', async () => {
    const id = await create({ sourceUrl: '/media/track-mpeg4.mp4', trackUrl: '/media/track.mp4' });
    const [k, e] = await getMany(id, [
      { time: mid(260), precision: 'keyframe', ...TILE },
      { time: mid(262), precision: 'exact', width: 140, height: 90 },
    ]);
    expect(frames([k!])).toEqual([250]);
    expect(e).toMatchObject({ ok: true, width: 140, height: 90 });
    if (e!.ok) expect(e!.rgb[1]).toBeLessThan(60); // the server's magenta
    const s = await stats(id);
    expect(s.keyframesFrom).toBe('track');
    expect(s.serverThumbnails).toBe(1);
    expect(await drive((t, a: number) => t.fallbacks(a), id)).toEqual([expect.stringContaining('mp4v')]);
    await drive((t, a: number) => t.destroy(a), id);
  });
});

describe('falling back to server thumbnails', () => {
  it('an MPEG-4 Part 2 source is not decodable: the picture comes from the server thumbnail URL', async () => {
    const id = await create({ sourceUrl: '/media/mpeg4.mp4' });
    const [r] = await getMany(id, [{ time: 7.3, precision: 'exact', width: 140, height: 90 }]);
    expect(r).toMatchObject({ ok: true, width: 140, height: 90 });
    if (!r!.ok) return;
    const [red, green, blue] = r!.rgb;
    expect(red).toBeGreaterThan(200);
    expect(green).toBeLessThan(60);
    expect(blue).toBeGreaterThan(200);
    const fallbacks = await drive((t, a: number) => t.fallbacks(a), id);
    expect(fallbacks).toEqual([expect.stringContaining('mp4v')]);
    const urls = await drive((t) => t.fetchedUrls());
    expect(urls).toContain('/library/l1/media/m1/media/thumbnail.webp?token=preview-token&t=7.300');
    expect((await stats(id)).mode).toBe('server');
  });

  it("fails with 'Failed to generate thumbnail' when the server thumbnail fails too", async () => {
    const undecodable = await create({ sourceUrl: '/media/mpeg4.mp4', thumbnailPath: '/library/l1/media/gone/media/thumbnail.webp' });
    const noSource = await create({ sourceUrl: null, thumbnailPath: '/library/l1/media/gone/media/thumbnail.webp' });
    const [a] = await getMany(undecodable, [{ time: 1, precision: 'keyframe', width: 140, height: 90 }]);
    const [b] = await getMany(noSource, [{ time: 1, precision: 'keyframe', width: 140, height: 90 }]);
    for (const r of [a, b]) expect(r).toMatchObject({ ok: false, name: 'ThumbnailError', message: MSG_MOMENT.thumbnailFailed });
    expect(await drive((t, a: number) => t.fallbacks(a), noSource)).toHaveLength(1);
  });
});

describe('aborting and destroying', () => {
  it('a request aborted before its batch starts is never decoded', async () => {
    const id = await create({ sourceUrl: '/media/abort.mp4' });
    const results = await getMany(id, [
      { time: mid(499), precision: 'exact', abort: true, ...TILE }, // would cost a 50-frame GOP
      { time: mid(300), precision: 'keyframe', ...TILE },
    ]);
    expect(results[0]).toMatchObject({ ok: false, name: 'AbortError' });
    expect(results[1]).toMatchObject({ ok: true, frame: 300 });
    const s = await stats(id);
    expect(s.workerRequests).toBe(1);
    expect(s.chunksDecoded).toBe(1);
  });

  it('destroy keeps the worker as the one spare, closes the cached bitmaps and aborts pending requests', async () => {
    await drive((t) => t.discardSpare());
    const workersBefore = await drive((t) => t.liveWorkers());
    const id = await create({ sourceUrl: '/media/destroy.mp4' });
    const results = await getMany(
      id,
      [mid(3), mid(130), mid(260)].map((time) => ({ time, precision: 'keyframe' as const, ...TILE })),
    );
    expect(frames(results)).toEqual([0, 100, 250]);
    expect(await drive((t) => t.liveWorkers())).toBe(workersBefore + 1);
    const after = await drive((t, a: number) => t.destroy(a), id);
    // The worker is kept (its files closed) for the next source rather than started again.
    expect(after).toEqual({ liveWorkers: workersBefore + 1, handedOut: 3, closed: 3 });

    const other = await create({ sourceUrl: '/media/destroy.mp4' });
    const pending = await drive(
      (t, a: [number, GetRequest]) => t.getThenDestroy(a[0], a[1]),
      [other, { time: 1, precision: 'keyframe', ...TILE }],
    );
    expect(pending).toMatchObject({ ok: false, name: 'AbortError' });
    expect(await drive((t) => t.liveWorkers())).toBe(workersBefore + 1);

    // The spare serves the next source: no new worker, and the pictures are right (not the last file's).
    const third = await create({ sourceUrl: '/media/faststart.mp4' });
    expect(frames(await getMany(third, [{ time: mid(130), precision: 'keyframe', ...TILE }]))).toEqual([100]);
    expect(await drive((t) => t.liveWorkers())).toBe(workersBefore + 1);
    await drive((t, a: number) => t.destroy(a), third);
    await drive((t) => t.discardSpare());
    expect(await drive((t) => t.liveWorkers())).toBe(workersBefore);
  });
});
