// Every kind of file people really have (issue 36), from upload to download: phone videos held
// upright (a rotation in the display matrix), HEVC, VP9/WebM, AV1, 60 fps, variable frame rate,
// 10-bit, ProRes, MPEG-2 in TS, MKV with two sound tracks and subtitles, odd and anamorphic sizes,
// 4:4:4 and full range, no sound, 8 kHz mono, 1 s and 4 s clips, a still photo with speech, moov at
// the end, interlaced, a file cut off while copied, one that is no video, and photos (EXIF-rotated,
// with alpha, animated, WebP). Each video carries its frame number as stripes across the top of
// what a viewer sees (tests/fixtures/mediaMatrix.ts), so every check below reads frames, not
// metadata: ingest (true duration, displayed size, or a refusal a person understands), keyframes
// and posters upright, search finds each video, the preview plays and seeks in Chromium, upright,
// and MP4 and GIF renders from the first frame, to the last and across the whole video have the
// right frames, length, orientation and sound.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, GIF_MAX_FPS, VIDEO_TIME_OFFSET, type Library, type Media, type RenderAnswer } from '../../src/contract';
import { readAll } from '../../src/server/adapters/blobs/blobStore';
import { blobKeys } from '../../src/server/modules/storage/blobKeys';
import { counterOfGrey, makeMatrix, readCounters, type MatrixOk, type MatrixVariant } from '../fixtures/mediaMatrix';
import { client } from '../integration/support/harness';
import { uploadFile, waitForStatus } from '../integration/support/upload';
import { createVerifiedUser, e2eSuite, signIn, uniqueEmail, waitForPath } from './harness';

const suite = e2eSuite();
const api = () => client(suite.app.url);

let dir: string;
let token: string;
let email: string;
const password = 'matrix password';
let library: Library;
let variants: MatrixVariant[];
/** Each variant's media once its ingest ended. */
const media = new Map<string, Media>();
/** What each variant came to, for the table printed at the end (and the issue's note). */
const outcomes = new Map<string, string[]>();
const note = (name: string, what: string) => outcomes.set(name, [...(outcomes.get(name) ?? []), what]);

const ok = (v: MatrixVariant): v is MatrixVariant & { expect: MatrixOk } => v.expect.outcome === 'ok';
const videos = () => variants.filter((v) => ok(v) && v.expect.kind === 'video') as Array<MatrixVariant & { expect: MatrixOk }>;
const portrait = (w: number, h: number) => h > w;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-matrix-'));
  email = uniqueEmail('matrix');
  await createVerifiedUser(suite.app, email, password);
  token = (await api()('POST', API.login, { body: { email, password } })).body.token!;
  library = (await api()<Library[]>('GET', API.libraries, { token })).body.data!.find((l) => l.isDefault)!;
  variants = await makeMatrix(dir);
  const t = { api: api() } as never;
  const ids = new Map<string, string>();
  for (const v of variants) {
    const fin = await uploadFile(t, token, library._id, library.rootFolderId, `${v.name}.${v.ext}`, fs.readFileSync(v.file));
    if (fin.status !== 200) throw new Error(`upload ${v.name}: ${fin.status} ${fin.body.error?.message}`);
    ids.set(v.name, fin.body.data!._id);
  }
  for (const v of variants)
    media.set(v.name, await waitForStatus(t, token, library._id, ids.get(v.name)!, ['completed', 'errored', 'invalid', 'failed'], 600_000));
}, 900_000);

afterAll(() => {
  if (outcomes.size)
    console.log(`\nmedia matrix:\n${[...outcomes].map(([name, what]) => `${name.padEnd(16)} ${what.join('; ')}`).join('\n')}\n`);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Posts a render and polls it like the app until it has a URL or failed; the downloaded file. */
async function render(pathName: string, body: object, ext: 'mp4' | 'gif') {
  let r = await api()<RenderAnswer>('POST', pathName, { token, body });
  for (let i = 0; r.status < 300 && !r.body.data?.url && r.body.data?.status !== 'failed' && i < 600; i++) {
    await new Promise((res) => setTimeout(res, 200));
    r = await api()<RenderAnswer>('GET', API.renderStatus(r.body.data!.renderId), { token });
  }
  expect(r.status, JSON.stringify(r.body.error)).toBeLessThan(300);
  expect(r.body.data?.status, r.body.data?.error).toBe('completed');
  const res = await fetch(r.body.data!.url!);
  expect(res.status).toBe(200);
  const file = path.join(dir, `render-${Math.random().toString(36).slice(2)}.${ext}`);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

interface Probed {
  width: number;
  height: number;
  duration: number;
  fps: number;
  audio: boolean;
}
function probeOut(file: string): Probed {
  const j = JSON.parse(
    execFileSync('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'format=duration:stream=codec_type,width,height,r_frame_rate',
      '-of',
      'json',
      file,
    ]).toString(),
  ) as { format: { duration: string }; streams: Array<{ codec_type: string; width?: number; height?: number; r_frame_rate?: string }> };
  const v = j.streams.find((s) => s.codec_type === 'video')!;
  const [n, d] = (v.r_frame_rate ?? '0/1').split('/').map(Number);
  return {
    width: v.width!,
    height: v.height!,
    duration: Number(j.format.duration),
    fps: n! / d!,
    audio: j.streams.some((s) => s.codec_type === 'audio'),
  };
}

/** The loudest sample of a file's sound, in dB (-91 for digital silence). */
function maxVolume(file: string): number {
  const r = spawnSync('ffmpeg', ['-hide_banner', '-nostats', '-i', file, '-vn', '-af', 'volumedetect', '-f', 'null', '-'], {
    encoding: 'utf8',
  });
  return Number(/max_volume: (-?[\d.]+) dB/.exec(r.stderr)?.[1] ?? -91);
}

describe('ingest', () => {
  it('indexes every file people really have with its true duration and displayed size, or refuses it with a reason a person understands', () => {
    const problems: string[] = [];
    for (const v of variants) {
      const m = media.get(v.name)!;
      if (v.expect.outcome === 'refused') {
        note(v.name, `refused: ${m.error?.message ?? m.status}`);
        if (m.status !== 'invalid' && m.status !== 'errored') problems.push(`${v.name}: ${m.status}, expected a refusal`);
        else if (!v.expect.reason.test(m.error?.message ?? ''))
          problems.push(`${v.name}: "${m.error?.message}" does not match ${v.expect.reason}`);
        continue;
      }
      const e = v.expect;
      const got = m.metadata.video;
      note(v.name, `${m.status} ${m.kind} ${got.width}x${got.height} ${got.duration.toFixed(3)} s`);
      if (m.status !== 'completed') {
        problems.push(`${v.name}: ${m.status} (${m.error?.message})`);
        continue;
      }
      if (m.kind !== e.kind) problems.push(`${v.name}: kind ${m.kind}, expected ${e.kind}`);
      if (got.width !== e.displayWidth || got.height !== e.displayHeight)
        problems.push(`${v.name}: ${got.width}x${got.height}, expected ${e.displayWidth}x${e.displayHeight}`);
      const frame = e.fps ? 1 / e.fps : 0;
      if (Math.abs(got.duration - e.duration) > frame + 0.002)
        problems.push(`${v.name}: ${got.duration} s, expected ${e.duration} s (± one frame)`);
    }
    expect(problems).toEqual([]);
  });

  it('keeps keyframes and posters upright: the first keyframe shows frame 0 as seen, in the displayed shape', async () => {
    const problems: string[] = [];
    for (const v of variants.filter(ok)) {
      const m = media.get(v.name)!;
      if (m.status !== 'completed') continue;
      const blobs = suite.app.server.blobs;
      const { t } = await suite.app.server.database.db
        .selectFrom('keyframes')
        .select('t')
        .where('media_id', '=', m._id)
        .orderBy('t')
        .executeTakeFirstOrThrow();
      if (t > 0.05) problems.push(`${v.name}: the first keyframe is at ${t} s`);
      const first = await readAll(await blobs.read(blobKeys.keyframe(m._id, t)));
      const { data, info } = await sharp(first).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
      const counter = counterOfGrey(data, info.width, info.height, info.channels);
      const poster = await sharp(await readAll(await blobs.read(`derived/${m._id}/poster.webp`)))
        .metadata()
        .catch((e: Error) => ({ width: 0, height: 0, error: e.message }));
      if ('error' in poster) problems.push(`${v.name}: poster unreadable (${poster.error})`);
      const shape = portrait(v.expect.displayWidth, v.expect.displayHeight);
      note(v.name, `keyframe ${info.width}x${info.height} counter ${counter}, poster ${poster.width}x${poster.height}`);
      if (counter !== v.expect.firstCounter) problems.push(`${v.name}: first keyframe shows ${counter}, expected ${v.expect.firstCounter}`);
      if (portrait(info.width, info.height) !== shape) problems.push(`${v.name}: keyframe ${info.width}x${info.height} is sideways`);
      if (portrait(poster.width!, poster.height!) !== shape)
        problems.push(`${v.name}: poster ${poster.width}x${poster.height} is sideways`);
    }
    expect(problems).toEqual([]);
  });

  it('finds every video by what is on screen', async () => {
    const r = await api()<{ results: Array<{ mediaId: string }> }>('POST', `${API.searchVisual(library._id)}?limit=100`, {
      token,
      body: { text: 'counter' },
    });
    expect(r.status).toBe(200);
    const found = new Set(r.body.data!.results.map((x) => x.mediaId));
    const missed = videos()
      .filter((v) => media.get(v.name)!.status === 'completed' && !found.has(media.get(v.name)!._id))
      .map((v) => v.name);
    for (const v of videos()) note(v.name, found.has(media.get(v.name)!._id) ? 'found by "counter"' : 'NOT found by "counter"');
    expect(missed).toEqual([]);
  });
});

type Range = 'first' | 'last' | 'whole';
/** Each indexed video's ranges to render: its first second (or half), its last, the whole of it. */
function* ranges(which: Range[]) {
  for (const v of videos()) {
    const m = media.get(v.name)!;
    if (m.status !== 'completed') continue;
    const d = m.metadata.video.duration;
    const cut = Math.max(0, Math.min(1, d / 2));
    const bounds: Record<Range, [number, number]> = { first: [0, cut], last: [d - cut, d], whole: [0, d] };
    for (const label of which) yield { v, m, e: v.expect, start: bounds[label][0], end: bounds[label][1], label };
  }
}

/**
 * Runs `check` on each of `which` ranges of every indexed video, two at a time (the server renders
 * two at once: RENDER_WORKERS is the cores), and returns the problems it found, in range order.
 */
async function eachRange(which: Range[], check: (r: RangeOf, problems: string[]) => Promise<void>) {
  const limit = pLimit(2);
  const found = await Promise.all(
    [...ranges(which)].map((r) =>
      limit(async () => {
        const problems: string[] = [];
        await check(r, problems);
        return problems;
      }),
    ),
  );
  return found.flat();
}
type RangeOf = ReturnType<typeof ranges> extends Generator<infer T> ? T : never;

describe('downloads', () => {
  it('renders MP4s from the first frame, to the last and of the whole video: exact length, upright, the right frames, sound when the source has it', async () => {
    const problems = await eachRange(['first', 'last', 'whole'], async ({ v, m, e, start, end, label }, problems) => {
      const file = await render(
        API.renderCompilation,
        { clips: [{ libraryId: library._id, mediaId: m._id, start, end }], watermark: true },
        'mp4',
      );
      const out = probeOut(file);
      const counters = await readCounters(file);
      // One output frame may show the source frame before (output at most 30 fps: a 60 fps source shows every other frame).
      const slack = Math.max(1, Math.ceil(e.fps / out.fps));
      const where = `${v.name} mp4 ${start.toFixed(2)}-${end.toFixed(2)}`;
      if (Math.abs(out.duration - (end - start)) > 1 / out.fps + 0.03) problems.push(`${where}: ${out.duration} s long`);
      if (portrait(out.width, out.height) !== portrait(e.displayWidth, e.displayHeight))
        problems.push(`${where}: ${out.width}x${out.height} is sideways`);
      if (label !== 'last' && counters[0] !== e.firstCounter) problems.push(`${where}: starts at frame ${counters[0]}`);
      if (label !== 'first' && Math.abs(counters.at(-1)! - e.lastCounter) > slack)
        problems.push(`${where}: ends at frame ${counters.at(-1)}, expected ${e.lastCounter}`);
      const loud = maxVolume(file) > -60;
      if (loud !== e.hasAudio)
        problems.push(`${where}: ${loud ? 'sound' : 'silence'} from a source ${e.hasAudio ? 'with' : 'without'} sound`);
      if (label === 'whole')
        note(
          v.name,
          `mp4 ${out.width}x${out.height} ${out.duration.toFixed(3)} s frames ${counters[0]}..${counters.at(-1)}${loud ? ' sound' : ''}`,
        );
    });
    expect(problems).toEqual([]);
  }, 900_000);

  it('renders GIFs from the first frame and to the last, upright', async () => {
    const problems = await eachRange(['first', 'last'], async ({ v, m, e, start, end, label }, problems) => {
      const file = await render(API.renderGif(library._id, m._id), { start, end }, 'gif');
      const out = probeOut(file);
      const counters = await readCounters(file);
      const fps = Math.min(GIF_MAX_FPS, e.fps);
      const slack = Math.max(1, Math.ceil(e.fps / fps));
      const where = `${v.name} gif ${start.toFixed(2)}-${end.toFixed(2)}`;
      if (portrait(out.width, out.height) !== portrait(e.displayWidth, e.displayHeight))
        problems.push(`${where}: ${out.width}x${out.height} is sideways`);
      if (label === 'first' && counters[0] !== e.firstCounter) problems.push(`${where}: starts at frame ${counters[0]}`);
      if (label === 'last' && Math.abs(counters.at(-1)! - e.lastCounter) > slack)
        problems.push(`${where}: ends at frame ${counters.at(-1)}, expected ${e.lastCounter}`);
      if (label === 'last') note(v.name, `gif ${out.width}x${out.height} to frame ${counters.at(-1)}`);
    });
    expect(problems).toEqual([]);
  }, 600_000);
});

describe('preview', () => {
  it('plays every video in Chromium, upright, and seeks to its end', async () => {
    const { page } = await suite.openBrowser();
    await signIn(page, suite.app.url, email, password, `/library/${library._id}`);
    await waitForPath(page, `/library/${library._id}`);
    const problems: string[] = [];
    for (const v of videos()) {
      const m = media.get(v.name)!;
      if (m.status !== 'completed') continue;
      await page.goto(`${suite.app.url}/library/${library._id}/media/${m._id}`);
      const video = page.locator('video').first();
      await video.waitFor();
      const state = await video.evaluate(
        async (el: HTMLVideoElement, [half, key]) => {
          const until = (ok: () => boolean, ms: number) =>
            new Promise<boolean>((resolve) => {
              const t0 = performance.now();
              const tick = () => (ok() ? resolve(true) : performance.now() - t0 > ms ? resolve(false) : setTimeout(tick, 50));
              tick();
            });
          const ready = await until(() => el.readyState >= 2, 15_000);
          el.muted = true;
          await el.play().catch(() => undefined);
          const played = await until(() => el.currentTime > 0.1 || el.ended, 10_000);
          el.pause();
          // The frame shown at `at` (half a frame in, so rounding cannot pick its neighbour), read from its stripes.
          const shown = async (at: number) => {
            el.currentTime = at;
            await until(() => !el.seeking && el.readyState >= 2, 10_000);
            await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
            const c = document.createElement('canvas');
            [c.width, c.height] = [160, 90];
            const g = c.getContext('2d', { willReadFrequently: true })!;
            g.drawImage(el, 0, 0, 160, 90);
            const px = g.getImageData(0, 0, 160, 90).data;
            let n = 0;
            for (let i = 0; i < 10; i++) {
              let sum = 0;
              let count = 0;
              for (let y = 6; y < 20; y++)
                for (let x = Math.floor((i + 0.3) * 16); x < Math.ceil((i + 0.7) * 16); x++, count++) sum += px[(y * 160 + x) * 4 + 1]!;
              if (sum / count >= 128) n |= 1 << i;
            }
            return n;
          };
          // The element's clock runs ahead of the media's by the B-frame delay and any sound before the
          // first picture; the player measures it (VIDEO_TIME_OFFSET) and every screen maps time through it.
          const offset = Number(el.dataset[key] ?? 0);
          const probeAt = Math.min(1, el.duration / 2) + half;
          const frameAt = await shown(probeAt + offset);
          el.currentTime = Math.max(0, el.duration - 0.3);
          const seeked = await until(() => !el.seeking && el.readyState >= 2 && el.currentTime > el.duration - 0.6, 10_000);
          return {
            ready,
            played,
            seeked,
            frameAt,
            probeAt,
            w: el.videoWidth,
            h: el.videoHeight,
            duration: el.duration,
            error: el.error?.message ?? null,
          };
        },
        [0.5 / (v.expect.fps || 25), VIDEO_TIME_OFFSET.datasetKey] as const,
      );
      // The frame on screen at a time is the frame of that time (not for a variable rate, whose frames are at irregular times).
      const expected = Math.floor((state.probeAt ?? 0) * v.expect.fps + 1e-6);
      note(
        v.name,
        `preview ${state.w}x${state.h} ${state.ready && state.played && state.seeked ? 'plays and seeks' : 'BROKEN'}, at ${state.probeAt?.toFixed(3)} s frame ${state.frameAt} (expected ${expected})`,
      );
      if (v.name !== 'vfr' && state.frameAt !== expected)
        problems.push(`${v.name}: preview shows frame ${state.frameAt} at ${state.probeAt} s, expected ${expected}`);
      if (!state.ready || !state.played || !state.seeked) problems.push(`${v.name}: preview ${JSON.stringify(state)}`);
      else if (portrait(state.w, state.h) !== portrait(v.expect.displayWidth, v.expect.displayHeight))
        problems.push(`${v.name}: preview ${state.w}x${state.h} is sideways`);
      else if (Math.abs(state.w / state.h - v.expect.displayWidth / v.expect.displayHeight) > 0.02)
        problems.push(`${v.name}: preview ${state.w}x${state.h} has the wrong shape`);
    }
    expect(problems).toEqual([]);
  }, 600_000);
});
