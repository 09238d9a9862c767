import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, MSG_RENDER, type CompilationBody, type FramingAnswer, type Media, type RenderAnswer } from '../../src/contract';
import { startTestServer } from './support/harness';
import { defaultLibrary, uploadFile, verifiedUser, waitForStatus } from './support/upload';

/**
 * Issue 39, framing that follows the subject, on real ingests and real renders. The subject is a
 * part of Debian's darknet photo (a person in a field) a third of the picture high, moving left to
 * right across a flat magenta 1280x720 picture with a green bar down its left edge; a second video
 * has nothing to find (a white bar down its middle).
 */

let t: Awaited<ReturnType<typeof startTestServer>>;
let dir: string;
let owner: { token: string; userId: string };
let stranger: { token: string; userId: string };
let lib: { _id: string; rootFolderId: string };
let moving: Media;
let still: Media;
/** A phone video: stored 1280x720 with a display rotation, shown 720x1280, the person walking down. */
let phone: Media;
/** The answer of the framing route while `still` was still being processed. */
let early: { status: number; message?: string };

const PHOTO = '/usr/share/darknet/data/person.jpg';
const SECONDS = 9;
/** The part of the photo around the person (x, y, w, h of its 640x424), scaled to 240 px high (140 wide). */
const PHOTO_CROP = 'crop=200:344:140:80,scale=-2:240';
const PHOTO_W = 140;
const PHOTO_H = 240;
/** Where the photo's left edge is at `t` (pixels of the 1280 wide picture). */
const photoX = (t: number) => 40 + (1060 * t) / SECONDS;

function makeMoving(file: string) {
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=0xFF00FF:s=1280x720:r=25:d=${SECONDS}`, '-loop', '1', '-i', PHOTO],
    '-filter_complex',
    `[1:v]${PHOTO_CROP},setsar=1[p];[0:v]drawbox=x=0:y=0:w=32:h=720:color=0x00FF00:t=fill[bg];` +
      `[bg][p]overlay=x='40+1060*t/${SECONDS}':y=300:shortest=1,format=yuv420p`,
    ...['-t', String(SECONDS), '-c:v', 'libx264', '-preset', 'ultrafast', file],
  ]);
}

function makeStill(file: string) {
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0xFF00FF:s=1280x720:r=25:d=6'],
    '-vf',
    'drawbox=x=0:y=0:w=32:h=720:color=0x00FF00:t=fill,drawbox=x=620:y=0:w=40:h=720:color=white:t=fill,format=yuv420p',
    ...['-c:v', 'libx264', '-preset', 'ultrafast', file],
  ]);
}

/**
 * The subject upright in a 720x1280 picture (a green bar across its top), moving down from y=40 to
 * 1040; stored turned a quarter clockwise with a display rotation that turns it back (as phones do).
 */
function makePhone(file: string) {
  const stored = `${file}.stored.mp4`;
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0xFF00FF:s=720x1280:r=25:d=8', '-loop', '1', '-i', PHOTO],
    '-filter_complex',
    `[1:v]${PHOTO_CROP},setsar=1[p];[0:v]drawbox=x=0:y=0:w=720:h=32:color=0x00FF00:t=fill[bg];` +
      `[bg][p]overlay=x=290:y='40+1000*t/8':shortest=1,transpose=1,format=yuv420p`,
    ...['-t', '8', '-c:v', 'libx264', '-preset', 'ultrafast', stored],
  ]);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', stored, '-c', 'copy', '-metadata:s:v', 'rotate=90', file]);
}

async function upload(name: string, file: string) {
  const fin = await uploadFile(t, owner.token, lib._id, lib.rootFolderId, name, fs.readFileSync(file));
  if (fin.status !== 200) throw new Error(`upload ${name}: ${fin.status} ${fin.body.error?.message}`);
  return fin.body.data!;
}

/** Posts a render and polls its status until it is done (as the app does after a 202). */
async function render(body: CompilationBody) {
  let r = await t.api<RenderAnswer>('POST', API.renderCompilation, { token: owner.token, body });
  expect([200, 202]).toContain(r.status);
  for (let i = 0; !r.body.data?.url && r.body.data?.status !== 'failed' && i < 900; i++) {
    await new Promise((res) => setTimeout(res, 200));
    r = await t.api<RenderAnswer>('GET', API.renderStatus(r.body.data!.renderId), { token: owner.token });
  }
  expect(r.body.data).toMatchObject({ status: 'completed' });
  const res = await fetch(r.body.data!.url!);
  const file = path.join(dir, `${r.body.data!.renderId}.mp4`);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return { file, renderId: r.body.data!.renderId };
}

const size = (file: string) => {
  const s = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', file]).toString()) as {
    streams: Array<{ codec_type: string; width?: number; height?: number }>;
  };
  const v = s.streams.find((x) => x.codec_type === 'video')!;
  return { width: v.width!, height: v.height! };
};

/**
 * Two frames a second (at 0, 0.5, 1...) scaled to a quarter, as what each pixel shows: the
 * magenta background, the green bar, white, or anything else (the photo).
 */
function sampled(file: string, w: number, h: number) {
  const buf = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-vf', `fps=2,scale=${w}:${h}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    {
      maxBuffer: 1 << 28,
    },
  );
  const frames = [];
  for (let f = 0; (f + 1) * w * h * 3 <= buf.length; f++) {
    let photo = 0;
    let green = 0;
    let white = 0;
    let [x1, y1, x2, y2] = [w, h, -1, -1];
    let greenRight = -1;
    let whiteFrom = w;
    let whiteTo = -1;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const i = (f * w * h + y * w + x) * 3;
        const [r, g, b] = [buf[i]!, buf[i + 1]!, buf[i + 2]!];
        if (r > 190 && g < 80 && b > 190) continue;
        if (g > 190 && r < 90 && b < 90) {
          green++;
          greenRight = Math.max(greenRight, x);
        } else if (Math.abs(r - b) < 40 && Math.abs(r + g - 255) < 60) {
          // where the green bar meets the magenta, scaling blends the two (r = b, r + g = 255): neither is the photo
        } else if (r > 220 && g > 220 && b > 220) {
          white++;
          whiteFrom = Math.min(whiteFrom, x);
          whiteTo = Math.max(whiteTo, x);
        } else {
          photo++;
          [x1, y1, x2, y2] = [Math.min(x1, x), Math.min(y1, y), Math.max(x2, x), Math.max(y2, y)];
        }
      }
    frames.push({ t: f / 2, photo, green, white, box: [x1, y1, x2, y2] as const, greenRight, whiteFrom, whiteTo });
  }
  return frames;
}

const framing = (m: Media, q: string, token = owner.token) =>
  t.api<FramingAnswer>('GET', `${API.mediaFraming(lib._id, m._id)}?${q}`, { token });

beforeAll(async () => {
  t = await startTestServer({ SIGNUP_BONUS_CREDITS: '0', RENDER_WAIT_MS: '0' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-framing-'));
  owner = await verifiedUser(t, 'framing');
  stranger = await verifiedUser(t, 'stranger');
  lib = await defaultLibrary(t, owner.token);
  // Renders without the mark (its white letters would count as the photo): credits for them.
  await t.server.ledger.grant(owner.userId, { amount: 2000, origin: 'adjustment', key: 'framing-test', reason: 'test', expiresAt: null });
  const movingFile = path.join(dir, 'moving.mp4');
  const stillFile = path.join(dir, 'still.mp4');
  makeMoving(movingFile);
  makeStill(stillFile);
  const phoneFile = path.join(dir, 'phone.mp4');
  makePhone(phoneFile);
  const m = await upload('moving.mp4', movingFile);
  const s = await upload('still.mp4', stillFile);
  const p = await upload('phone.mp4', phoneFile);
  // Asked at once, before ingest could have finished it.
  const r = await t.api<FramingAnswer>('GET', `${API.mediaFraming(lib._id, s._id)}?aspect=9:16&start=0&end=2`, { token: owner.token });
  early = { status: r.status, message: r.body.error?.message };
  moving = await waitForStatus(t, owner.token, lib._id, m._id, ['completed', 'errored', 'invalid'], 240_000);
  still = await waitForStatus(t, owner.token, lib._id, s._id, ['completed', 'errored', 'invalid'], 240_000);
  phone = await waitForStatus(t, owner.token, lib._id, p._id, ['completed', 'errored', 'invalid'], 240_000);
  expect([moving.status, still.status, phone.status]).toEqual(['completed', 'completed', 'completed']);
}, 400_000);
afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('what ingest found', () => {
  it('is the person where the photo is, in fractions of the displayed picture', async () => {
    const rows = await t.server.database.db
      .selectFrom('keyframes')
      .select(['t', 'objects'])
      .where('media_id', '=', moving._id)
      .orderBy('t')
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(4);
    let found = 0;
    for (const r of rows) {
      const people = (r.objects as Array<{ label: string; box: number[] }>).filter((o) => o.label === 'person');
      if (!people.length) continue;
      found++;
      const [x1, y1, x2, y2] = people[0]!.box as [number, number, number, number];
      // inside the photo at that time
      expect((x1 + x2) / 2).toBeGreaterThan(photoX(r.t) / 1280);
      expect((x1 + x2) / 2).toBeLessThan((photoX(r.t) + PHOTO_W) / 1280);
      expect((y1 + y2) / 2).toBeGreaterThan(300 / 720);
      expect((y1 + y2) / 2).toBeLessThan((300 + PHOTO_H) / 720);
    }
    expect(found).toBeGreaterThanOrEqual(rows.length - 1);
  });
});

describe('the framing route', () => {
  it('answers a path that follows the person across the picture', async () => {
    const r = await framing(moving, `aspect=9:16&start=0&end=${SECONDS}`);
    expect(r.status).toBe(200);
    const a = r.body.data!;
    expect(a).toMatchObject({ aspect: '9:16', height: 1, subject: true });
    expect(a.width).toBeCloseTo(9 / 16 / (16 / 9), 3);
    expect(a.points[0]!.t).toBe(0);
    expect(a.points[a.points.length - 1]!.t).toBe(SECONDS);
    expect(a.points[a.points.length - 1]!.x - a.points[0]!.x).toBeGreaterThan(0.4);
    // never back
    for (let i = 1; i < a.points.length; i++) expect(a.points[i]!.x).toBeGreaterThanOrEqual(a.points[i - 1]!.x - 1e-3);
  });

  it('is centred with subject false where nothing is found, and the whole picture for the source', async () => {
    const r = await framing(still, 'aspect=9:16&start=1&end=5');
    expect(r.status).toBe(200);
    expect(r.body.data!.subject).toBe(false);
    expect(r.body.data!.points.every((p) => p.x === 0.5 && p.y === 0.5)).toBe(true);
    const whole = await framing(moving, 'aspect=source&start=0&end=2');
    expect(whole.body.data).toMatchObject({ width: 1, height: 1, points: [{ t: 0, x: 0.5, y: 0.5 }] });
  });

  it('refuses another user’s media (404), a media not processed yet (409) and a bad range (400)', async () => {
    expect((await framing(moving, 'aspect=9:16&start=0&end=2', stranger.token)).status).toBe(404);
    expect(early).toEqual({ status: 409, message: MSG_RENDER.mediaNotReady });
    const backwards = await framing(moving, 'aspect=9:16&start=3&end=2');
    expect(backwards.status).toBe(400);
    expect(backwards.body.error!.message).toBe(MSG_RENDER.startBeforeEnd);
    const past = await framing(moving, 'aspect=9:16&start=3&end=30');
    expect(past.status).toBe(400);
    expect(past.body.error!.message).toMatch(/outside the media/);
    expect((await framing(moving, 'aspect=2:1&start=0&end=2')).status).toBe(400);
  });
});

/**
 * A 720x1280 picture of the moving video that followed the person: in every sampled frame the
 * person's centre is inside and most of the photo is seen, and the window moved (the green bar on
 * the source's left edge is seen at the start only).
 */
function expectPersonFollowed(file: string) {
  expect(size(file)).toEqual({ width: 720, height: 1280 });
  const frames = sampled(file, 180, 320);
  expect(frames.length).toBeGreaterThanOrEqual(SECONDS * 2 - 1);
  // the photo's size in the sample: the window is 405 px of the source, shown 180 wide
  const scale = 180 / (1280 * (9 / 16 / (16 / 9)));
  const whole = PHOTO_W * scale * PHOTO_H * scale;
  for (const f of frames) {
    const [x1, y1, x2, y2] = f.box;
    const cx = (x1 + x2) / 2;
    const cy = (y1 + y2) / 2;
    expect({ t: f.t, inside: cx > 0 && cx < 180 && cy > 0 && cy < 320 }).toEqual({ t: f.t, inside: true });
    expect({ t: f.t, visible: f.photo / whole > 0.6 }).toEqual({ t: f.t, visible: true });
  }
  expect(frames[0]!.green).toBeGreaterThan(0);
  expect(frames[frames.length - 1]!.green).toBe(0);
}

describe('rendering a cropped aspect', () => {
  const clip = (m: Media, start: number, end: number, extra: object = {}) => ({ libraryId: lib._id, mediaId: m._id, start, end, ...extra });

  it('9:16 keeps the moving person inside the picture in every sampled frame', async () => {
    const { file } = await render({ clips: [clip(moving, 0, SECONDS)], aspect: '9:16', height: 720, watermark: false });
    expectPersonFollowed(file);
  }, 180_000);

  it('the 9:16 MLT export of the same clip, rendered by melt with its original beside it, keeps the person inside the picture too', async () => {
    const res = await fetch(t.server.url + API.renderExport, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ clips: [clip(moving, 0, SECONDS)], format: 'mlt', aspect: '9:16', filename: 'short' }),
    });
    expect(res.status).toBe(200);
    const work = fs.mkdtempSync(path.join(dir, 'melt-'));
    fs.writeFileSync(path.join(work, 'short.mlt'), await res.text());
    const original = await t.api<{ url: string }>('GET', API.mediaOriginal(lib._id, moving._id), { token: owner.token });
    fs.writeFileSync(path.join(work, 'moving.mp4'), Buffer.from(await (await fetch(original.body.data!.url)).arrayBuffer()));
    execFileSync(
      'melt',
      ['-quiet', 'short.mlt', '-consumer', 'avformat:out.mp4', 'vcodec=libx264', 'preset=ultrafast', 'an=1', 'real_time=-1'],
      {
        cwd: work,
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 150_000,
      },
    );
    expectPersonFollowed(path.join(work, 'out.mp4'));
  }, 240_000);

  it('1:1 and 4:5 come out at the right size, and each aspect is its own request', async () => {
    const square = await render({ clips: [clip(moving, 2, 3)], aspect: '1:1', height: 720, watermark: false });
    const portrait = await render({ clips: [clip(moving, 2, 3)], aspect: '4:5', height: 720, watermark: false });
    const plain = await render({ clips: [clip(moving, 2, 3)], height: 720, watermark: false });
    expect(size(square.file)).toEqual({ width: 720, height: 720 });
    expect(size(portrait.file)).toEqual({ width: 720, height: 900 });
    expect(size(plain.file)).toEqual({ width: 1280, height: 720 });
    expect(new Set([square.renderId, portrait.renderId, plain.renderId]).size).toBe(3);
  }, 180_000);

  it('a clip whose framing is fixed at the left edge shows the left part, not the person', async () => {
    const fixed = await render({
      clips: [clip(moving, 6, 8, { framing: { x: 0, y: 0.5 } })],
      aspect: '9:16',
      height: 720,
      watermark: false,
    });
    const auto = await render({ clips: [clip(moving, 6, 8)], aspect: '9:16', height: 720, watermark: false });
    expect(fixed.renderId).not.toBe(auto.renderId);
    for (const f of sampled(fixed.file, 180, 320)) {
      // the bar (32 of 405 source px: 14 of 180) at the left, the person (past x=747) not in the window
      expect(f.green).toBeGreaterThan(0);
      expect(f.greenRight).toBeLessThan(20);
      expect(f.photo).toBeLessThan(50);
    }
    for (const f of sampled(auto.file, 180, 320)) {
      expect(f.green).toBe(0);
      expect(f.photo).toBeGreaterThan(1000);
    }
  }, 180_000);

  it('a phone video into 16:9 follows the person down the upright picture', async () => {
    const a = (await framing(phone, 'aspect=16:9&start=0&end=8')).body.data!;
    expect(a).toMatchObject({ width: 1, subject: true });
    expect(a.height).toBeCloseTo(9 / 16 / (16 / 9), 3);
    expect(a.points[a.points.length - 1]!.y - a.points[0]!.y).toBeGreaterThan(0.4);
    const { file } = await render({ clips: [clip(phone, 0, 8)], aspect: '16:9', height: 720, watermark: false });
    expect(size(file)).toEqual({ width: 1280, height: 720 });
    const frames = sampled(file, 320, 180);
    // the window is 405 px of the 1280 px high picture, shown 180 high
    const scale = 180 / (1280 * (9 / 16 / (16 / 9)));
    const whole = PHOTO_W * scale * PHOTO_H * scale;
    for (const f of frames) {
      const [x1, y1, x2, y2] = f.box;
      const inside = (x1 + x2) / 2 > 0 && (x1 + x2) / 2 < 320 && (y1 + y2) / 2 > 0 && (y1 + y2) / 2 < 180;
      expect({ t: f.t, inside, visible: f.photo / whole > 0.6, box: f.box }).toEqual({ t: f.t, inside: true, visible: true, box: f.box });
      // upright: the photo is taller than wide, as in the picture shown
      expect(y2 - y1).toBeGreaterThan(x2 - x1);
    }
    // the bar across the top is seen at the start only
    expect(frames[0]!.green).toBeGreaterThan(0);
    expect(frames[frames.length - 1]!.green).toBe(0);
  }, 180_000);

  it('a media where nothing is found is cropped in the middle', async () => {
    const { file } = await render({ clips: [clip(still, 1, 3)], aspect: '9:16', height: 720, watermark: false });
    expect(size(file)).toEqual({ width: 720, height: 1280 });
    for (const f of sampled(file, 180, 320)) {
      // the white bar (40 of the 405 source px around 640: 18 of 180) in the middle, no green edge
      expect(f.green).toBe(0);
      expect(f.whiteFrom).toBeGreaterThanOrEqual(78);
      expect(f.whiteTo).toBeLessThanOrEqual(102);
      expect(Math.abs((f.whiteFrom + f.whiteTo) / 2 - 90)).toBeLessThanOrEqual(2);
    }
  }, 180_000);
});
