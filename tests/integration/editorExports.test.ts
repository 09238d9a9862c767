import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, MSG_RENDER, type CompilationExportBody, type ExportFormat, type Media, type RenderAnswer } from '../../src/contract';
import { makeCounterVideo, readCounters } from '../fixtures/counterVideo';
import { readEdl, readFcpxml, readMlt, readOtio, timecodeFrames } from '../fixtures/editorFormats';
import { makeSolidImage } from '../fixtures/makeMedia';
import { startTestServer } from './support/harness';
import { startS3 } from './support/s3';
import { defaultLibrary, uploadFile, verifiedUser, waitForStatus } from './support/upload';

/**
 * Hand-off to video editors (issue 39) through the API: each export's in and out points are the
 * frames the same merge renders (read back from a frame counter drawn into the originals), and the
 * MLT project, with the originals downloaded beside it under their names, renders in Debian's
 * `melt` (the engine of Kdenlive and Shotcut) to the merge's frames.
 */
let t: Awaited<ReturnType<typeof startTestServer>>;
let dir: string;
let owner: { token: string; userId: string };
let stranger: { token: string; userId: string };
let lib: { _id: string; rootFolderId: string };
/** Two 25 fps counters (the second's numbers start at 500) and a 29.97 fps counter with sound in Matroska. */
let counterA: Media;
let counterB: Media;
let ntsc: Media;
let image: Media;

/** A 640x360 counter at 29.97 fps with a tone, as Matroska: the frame number in 10 stripes across the top, as makeCounterVideo draws it. */
function makeNtscCounter(file: string, seconds: number) {
  const bits = Array.from(
    { length: 10 },
    (_, i) => `drawbox=x=${i * 64}:y=0:w=64:h=100:color=white:t=fill:enable='gte(mod(floor(n/${2 ** i}),2),1)'`,
  );
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=0x203040:s=640x360:r=30000/1001:d=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`],
    ...['-vf', ['drawbox=x=0:y=0:w=640:h=100:color=black:t=fill', ...bits].join(',')],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file],
  ]);
}

/** Splits a run of counters where it jumps (a cut): each clip's [first, last]. */
function clipsOf(frames: number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  frames.forEach((n, i) => {
    if (i === 0 || n !== frames[i - 1]! + 1) out.push([n, n]);
    else out.at(-1)![1] = n;
  });
  return out;
}

/**
 * Renders `project` in `work` with melt as a Kdenlive or Shotcut export does: to out.mp4, every
 * frame (real_time=-1: no frame dropped to keep up with a clock).
 */
function melt(work: string, project: string) {
  const r = spawnSync(
    'melt',
    ['-quiet', project, '-consumer', 'avformat:out.mp4', 'vcodec=libx264', 'preset=veryfast', 'acodec=aac', 'real_time=-1'],
    {
      cwd: work,
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 16 << 20,
      timeout: 120_000,
    },
  );
  if (r.status !== 0 || !fs.existsSync(path.join(work, 'out.mp4')))
    throw new Error(`melt failed (${r.status ?? r.signal ?? r.error?.message}): ${r.stderr?.toString().slice(-2000)}`);
}

const duration = (file: string) =>
  Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]).toString().trim());

async function upload(name: string, file: string) {
  const fin = await uploadFile(t, owner.token, lib._id, lib.rootFolderId, name, fs.readFileSync(file));
  if (fin.status !== 200) throw new Error(`upload ${name}: ${fin.status} ${fin.body.error?.message}`);
  return waitForStatus(t, owner.token, lib._id, fin.body.data!._id, ['completed', 'errored', 'invalid'], 240_000);
}

/** POSTs an export as the app does: the file itself, or the error envelope. */
async function exportFile(body: CompilationExportBody, token = owner.token) {
  const res = await fetch(t.server.url + API.renderExport, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    disposition: res.headers.get('content-disposition') ?? '',
    text,
  };
}

/** Renders the merge as MP4 (watermarked: free), polling like the app. */
async function renderMerge(clips: CompilationExportBody['clips']) {
  let r = await t.api<RenderAnswer>('POST', API.renderCompilation, { token: owner.token, body: { clips, height: 360 } });
  for (let i = 0; !r.body.data?.url && r.body.data?.status !== 'failed' && i < 600; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    r = await t.api<RenderAnswer>('GET', API.renderStatus(r.body.data!.renderId), { token: owner.token });
  }
  expect(r.body.data?.url).toBeTruthy();
  const file = path.join(dir, `merge-${Math.random().toString(36).slice(2)}.mp4`);
  fs.writeFileSync(file, Buffer.from(await (await fetch(r.body.data!.url!)).arrayBuffer()));
  return file;
}

/** Downloads an original through API.mediaOriginal into `into` under the name it is served with. */
async function downloadOriginal(m: Media, into: string, filename?: string, server = t, token = owner.token, libraryId = lib._id) {
  const r = await server.api<{ url: string }>(
    'GET',
    `${API.mediaOriginal(libraryId, m._id)}${filename ? `?filename=${encodeURIComponent(filename)}` : ''}`,
    { token },
  );
  expect(r.status).toBe(200);
  const res = await fetch(r.body.data!.url);
  expect(res.status).toBe(200);
  const disposition = res.headers.get('content-disposition') ?? '';
  expect(disposition).toMatch(/^attachment; /);
  const name = decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)![1]!);
  fs.writeFileSync(path.join(into, name), Buffer.from(await res.arrayBuffer()));
  return { name, type: res.headers.get('content-type') };
}

const clip = (m: Media, start: number, end: number) => ({ libraryId: lib._id, mediaId: m._id, start, end });

beforeAll(async () => {
  t = await startTestServer({ SIGNUP_BONUS_CREDITS: '0' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-exports-'));
  owner = await verifiedUser(t, 'exports');
  stranger = await verifiedUser(t, 'stranger');
  lib = await defaultLibrary(t, owner.token);
  const [a, b, n] = ['a.mp4', 'b.mp4', 'n.mkv'].map((f) => path.join(dir, f)) as [string, string, string];
  makeCounterVideo(a, { seconds: 10 });
  makeCounterVideo(b, { seconds: 10, offset: 500 });
  makeNtscCounter(n, 8);
  const png = await makeSolidImage(dir, 'blue', 160);
  [counterA, counterB, ntsc, image] = await Promise.all([
    upload('counter.mp4', a),
    upload('Counter B é.mp4', b),
    upload('talk 29.97.mkv', n),
    upload('still.png', png),
  ]);
  expect([counterA, counterB, ntsc, image].map((m) => m.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
}, 400_000);
afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('MLT rendered by melt', () => {
  it("renders a 2-clip merge of two originals, downloaded beside the project under their names, to the merge's frames and length", async () => {
    const clips = [clip(counterA, 2, 4), clip(counterB, 7.4, 8.2)];
    const exp = await exportFile({ clips, format: 'mlt', filename: 'my merge' });
    expect(exp.status).toBe(200);
    expect(exp.type).toMatch(/^application\/xml/);
    expect(exp.disposition).toMatch(/^attachment; filename="my merge\.mlt"/);
    const project = readMlt(exp.text);
    expect(project).toMatchObject({ width: 640, height: 360, rate: { num: 25, den: 1 } });

    const work = fs.mkdtempSync(path.join(dir, 'melt-'));
    fs.writeFileSync(path.join(work, 'my merge.mlt'), exp.text);
    const names = [await downloadOriginal(counterA, work), await downloadOriginal(counterB, work)];
    expect(names.map((n) => n.name)).toEqual(['counter.mp4', 'Counter B é.mp4']);
    expect(names.map((n) => n.type)).toEqual(['video/mp4', 'video/mp4']);
    expect(project.entries.map((e) => e.resource)).toEqual(['counter.mp4', 'Counter B é.mp4']);

    melt(work, 'my merge.mlt');
    const merge = await renderMerge(clips);
    const melted = readCounters(path.join(work, 'out.mp4'));
    const merged = readCounters(merge);
    expect(clipsOf(merged)).toEqual([
      [50, 99],
      [685, 704],
    ]);
    expect(clipsOf(melted)).toEqual(clipsOf(merged));
    expect(Math.abs(melted.length - merged.length)).toBeLessThanOrEqual(2);
    expect(Math.abs(duration(path.join(work, 'out.mp4')) - duration(merge))).toBeLessThanOrEqual(2 / 25 + 0.03);
  }, 240_000);
  it("crops a vertical (9:16) merge as its render does: a project of that shape whose frames are the original's window where the user fixed it", async () => {
    // The window fixed three quarters across (the right side of COUNTER and stripes 6-9).
    const clips = [{ ...clip(counterA, 2, 4), framing: { x: 0.75, y: 0.5 } }];
    const exp = await exportFile({ clips, format: 'mlt', filename: 'short', aspect: '9:16' });
    expect(exp.status).toBe(200);
    const project = readMlt(exp.text);
    // The original's short side (360) is the canvas's: 360x640.
    expect(project).toMatchObject({ width: 360, height: 640, rate: { num: 25, den: 1 } });
    expect(project.entries[0]!.rect).toHaveLength(1);
    const work = fs.mkdtempSync(path.join(dir, 'melt-short-'));
    fs.writeFileSync(path.join(work, 'short.mlt'), exp.text);
    await downloadOriginal(counterA, work);
    melt(work, 'short.mlt');
    const out = path.join(work, 'out.mp4');
    expect(Math.abs(duration(out) - 2)).toBeLessThanOrEqual(2 / 25 + 0.03);
    /** One frame of a file as 8-bit grey, after `filter` (360x640). */
    const grey = (file: string, frame: number, filter = 'null') =>
      execFileSync('ffmpeg', [
        ...['-v', 'error', '-i', file, '-vf', `select=eq(n\\,${frame}),${filter}`, '-frames:v', '1'],
        ...['-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
      ]);
    const mad = (a: Buffer, b: Buffer) => {
      expect(a.length).toBe(b.length);
      let s = 0;
      for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
      return s / a.length;
    };
    // Frame 10 of the project is the original's frame 60 (2.4 s): its 9:16 window (202.5 x 360 of
    // 640 x 360) centred at 0.75 (x 379 to 581), cut by ffmpeg from the original for reference.
    const melted = grey(out, 10);
    const window = (x: number) => grey(path.join(work, 'counter.mp4'), 60, `crop=202:360:${x}:0,scale=360:640`);
    const here = mad(melted, window(379));
    const otherSide = mad(melted, window(59));
    console.log('vertical MLT figures', JSON.stringify({ here, otherSide }));
    expect(here).toBeLessThan(8);
    expect(otherSide).toBeGreaterThan(4 * here);
  }, 240_000);
});

describe('a 29.97 fps original', () => {
  const ranges: Array<[number, number]> = [
    [1, 3],
    [5.5, 6.2],
  ];
  const body = (format: ExportFormat): CompilationExportBody => ({ clips: ranges.map(([s, e]) => clip(ntsc, s, e)), format });
  /** Each clip's first and last source frame, as melt renders the MLT export (checked against the merge below). */
  let frames: Array<[number, number]>;
  beforeAll(async () => {
    const exp = await exportFile(body('mlt'));
    expect(exp.status).toBe(200);
    const work = fs.mkdtempSync(path.join(dir, 'melt-ntsc-'));
    fs.writeFileSync(path.join(work, 'p.mlt'), exp.text);
    const original = await downloadOriginal(ntsc, work);
    expect(original).toEqual({ name: 'talk 29.97.mkv', type: 'video/x-matroska' });
    melt(work, 'p.mlt');
    frames = clipsOf(readCounters(path.join(work, 'out.mp4')));
  }, 240_000);

  it("MLT: a 30000/1001 profile; melt renders each clip from the merge's first frame for the merge's number of frames", async () => {
    const project = readMlt((await exportFile(body('mlt'))).text);
    expect(project.rate).toEqual({ num: 30000, den: 1001 });
    expect(project.entries.map((e) => [e.in, e.out])).toEqual(frames);
    // The merge shows every frame of each clip once, in order: a Matroska 29.97 original's
    // millisecond timestamps no longer repeat and skip frames (render.ts cutFilter).
    const merge = readCounters(await renderMerge(body('mlt').clips));
    expect(merge).toEqual(frames.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i)));
  }, 240_000);

  it("FCPXML: 1001/30000s frames, each clip's start and length melt's", async () => {
    const exp = await exportFile(body('fcpxml'));
    expect(exp.status).toBe(200);
    expect(exp.disposition).toMatch(/^attachment; filename="clipseek-compilation\.fcpxml"/);
    const r = readFcpxml(exp.text);
    expect(r.sequenceFrameDuration).toBe('1001/30000s');
    expect(r.tcFormat).toBe('DF');
    expect(r.clips.map((c) => [c.src, c.startFrames, c.startFrames + c.durationFrames - 1])).toEqual(
      frames.map(([a, b]) => ['talk 29.97.mkv', a, b]),
    );
  });

  it("EDL: drop-frame, source in/out melt's frames in DF timecode, record contiguous", async () => {
    const exp = await exportFile(body('edl'));
    expect(exp.status).toBe(200);
    expect(exp.type).toMatch(/^text\/plain/);
    const r = readEdl(exp.text, 30);
    expect(r.dropFrame).toBe(true);
    expect(r.events.map((e) => [e.clipName, timecodeFrames(e.srcIn, 30), timecodeFrames(e.srcOut, 30) - 1, e.srcIn.includes(';')])).toEqual(
      frames.map(([a, b]) => ['talk 29.97.mkv', a, b, true]),
    );
    expect(r.events.map((e) => e.recOut - e.recIn)).toEqual(frames.map(([a, b]) => b - a + 1));
  });

  it("OTIO: source ranges at 29.97 of melt's frames, video and audio tracks", async () => {
    const exp = await exportFile(body('otio'));
    expect(exp.status).toBe(200);
    expect(exp.type).toMatch(/^application\/json/);
    const r = readOtio(exp.text);
    for (const kind of ['Video', 'Audio'])
      expect(r.tracks[kind]).toEqual(
        frames.map(([a, b]) => ({ name: 'talk 29.97', targetUrl: 'talk 29.97.mkv', rate: 30000 / 1001, start: a, duration: b - a + 1 })),
      );
  });
});

describe('requests', () => {
  it('names a single moment after its media, free of charge', async () => {
    const before = await t.server.ledger.balance(owner.userId);
    const exp = await exportFile({ clips: [clip(counterA, 1, 2)], format: 'edl' });
    expect(exp.status).toBe(200);
    expect(exp.disposition).toMatch(/^attachment; filename="counter\.edl"/);
    expect(readEdl(exp.text, 25).events).toHaveLength(1);
    expect(await t.server.ledger.balance(owner.userId)).toBe(before);
  });

  it('checks like a compilation: another user’s media, an image, a bad range, too many clips, and an unknown format', async () => {
    const other = await exportFile({ clips: [clip(counterA, 1, 2)], format: 'mlt' }, stranger.token);
    expect(other.status).toBe(404);
    const img = await exportFile({ clips: [clip(image, 0, 1)], format: 'fcpxml' });
    expect([img.status, JSON.parse(img.text).error.message]).toEqual([400, MSG_RENDER.mergeImages]);
    const backwards = await exportFile({ clips: [clip(counterA, 3, 2)], format: 'otio' });
    expect([backwards.status, JSON.parse(backwards.text).error.message]).toEqual([400, MSG_RENDER.startBeforeEnd]);
    const outside = await exportFile({ clips: [clip(counterA, 3, 60)], format: 'otio' });
    expect(outside.status).toBe(400);
    const many = await exportFile({ clips: Array.from({ length: 51 }, () => clip(counterA, 0, 1)), format: 'edl' });
    expect(many.status).toBe(400);
    const bad = await exportFile({ clips: [clip(counterA, 1, 2)], format: 'aaf' as ExportFormat });
    expect(bad.status).toBe(400);
  });
});

describe('originals', () => {
  it('serves each kind of video original as an attachment under its name, with its type', async () => {
    const into = fs.mkdtempSync(path.join(dir, 'kinds-'));
    for (const [name, codec, type] of [
      ['old clip.avi', 'mpeg4', 'video/x-msvideo'],
      ['dvd.mpg', 'mpeg2video', 'video/mpeg'],
      ['phone.3gp', 'h263', 'video/3gpp'],
    ] as const) {
      const file = path.join(dir, name);
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=s=176x144:r=25:d=1', '-c:v', codec, file]);
      const fin = await uploadFile(t, owner.token, lib._id, lib.rootFolderId, name, fs.readFileSync(file));
      expect(fin.status).toBe(200);
      expect(await downloadOriginal(fin.body.data!, into)).toEqual({ name, type });
    }
  });
});

describe('originals on the S3 blob store', () => {
  it('serves a WebM original signed, as an attachment under its exact name (not ASCII)', async () => {
    const s3 = await startS3();
    const t2 = await startTestServer({ ...s3.env });
    try {
      const user = await verifiedUser(t2, 's3originals');
      const library = await defaultLibrary(t2, user.token);
      const file = path.join(dir, 'clip.webm');
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=s=160x120:r=25:d=1', '-c:v', 'libvpx', file]);
      const fin = await uploadFile(t2, user.token, library._id, library.rootFolderId, 'Été « clip ».webm', fs.readFileSync(file));
      expect(fin.status).toBe(200);
      const into = fs.mkdtempSync(path.join(dir, 's3-'));
      const got = await downloadOriginal(fin.body.data!, into, undefined, t2, user.token, library._id);
      expect(got.name).toBe('Été « clip ».webm');
      expect(fs.readFileSync(path.join(into, got.name)).equals(fs.readFileSync(file))).toBe(true);
    } finally {
      await t2.close();
      await s3.close();
    }
  }, 120_000);
});
