import { execFileSync } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractKeyframes } from '../../src/server/adapters/media/ffmpeg';
import { measureFrame } from '../../src/server/adapters/media/frameStats';
import { MAX_KEYFRAME_GAP, SCENE_THRESHOLD } from '../../src/server/modules/ingest/stages/keyframes';
import { choosePosterFrame, openingEnd, representativePoster } from '../../src/server/modules/ingest/posterFrame';
import { BOLD_FONT, DARKNET_PHOTOS } from '../fixtures/makeMedia';
import { INTRO_SECONDS, makeIntroVideo, segmentAt } from '../fixtures/introVideo';
import { removeDir, tempDir } from '../fixtures/modelsDir';
import { INGEST_CHUNK_SECONDS } from '../../src/server/modules/ingest/chunks';

/**
 * The representative poster on real decoded keyframes (ingest's own extraction), for openings real
 * footage has: bars, black and a title card; a fade in from black; none at all; a screen recording
 * (flat graphics throughout); and a video that stays black.
 */
let dir: string;
beforeAll(() => {
  dir = tempDir('poster');
});
afterAll(() => removeDir(dir));

const ffmpeg = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
const x264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'];

async function keyframesOf(file: string, duration: number) {
  const out = path.join(dir, `${path.basename(file)}-kf`);
  return extractKeyframes(file, out, { duration, threshold: SCENE_THRESHOLD, maxGap: MAX_KEYFRAME_GAP, grid: INGEST_CHUNK_SECONDS });
}

/** Mean absolute difference (0..255) of two pictures at 32x18 RGB. */
async function difference(a: Buffer | string, b: Buffer | string) {
  const small = (x: Buffer | string) => sharp(x).resize(32, 18, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const [pa, pb] = await Promise.all([small(a), small(b)]);
  let sum = 0;
  for (let i = 0; i < pa.length; i++) sum += Math.abs(pa[i]! - pb[i]!);
  return sum / pa.length;
}

const frameAt = (file: string, t: number) => {
  const out = path.join(dir, `${path.basename(file)}-${t}.png`);
  ffmpeg(['-ss', String(t), '-i', file, '-frames:v', '1', out]);
  return out;
};

describe('representative poster', () => {
  it('passes over colour bars, black and a title card to the first scene, and makes the poster from it', async () => {
    const video = makeIntroVideo(path.join(dir, 'intro.mp4'));
    const frames = await keyframesOf(video, INTRO_SECONDS);
    // Bars, black and the title are keyframes too (cuts and the 2 s rule): they are what a first frame shows.
    expect(frames.map((f) => segmentAt(f.t))).toEqual(expect.arrayContaining(['bars', 'black', 'title', 'dog']));
    const chosen = (await choosePosterFrame(frames, INTRO_SECONDS))!;
    expect(segmentAt(chosen.t)).toBe('dog');
    // The first keyframe of that scene, not a later one.
    expect(frames.filter((f) => segmentAt(f.t) === 'dog')[0]!.t).toBe(chosen.t);

    const poster = (await representativePoster(frames, INTRO_SECONDS))!;
    const meta = await sharp(poster).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(280);
    const dog = frameAt(video, 9);
    expect(await difference(poster, dog)).toBeLessThan(12);
    expect(await difference(poster, frameAt(video, 1))).toBeGreaterThan(40);
  });

  it('tells flat graphics from scenes: bars, titles and screens have little detail, photos a lot', async () => {
    const still = (name: string, source: string[]) => {
      const out = path.join(dir, `${name}.jpg`);
      ffmpeg([...source, '-frames:v', '1', out]);
      return out;
    };
    const graphics = [
      still('bars', ['-f', 'lavfi', '-i', 'smptehdbars=size=640x360']),
      still('testsrc', ['-f', 'lavfi', '-i', 'testsrc2=size=640x360']),
      still('slate', [
        '-f',
        'lavfi',
        '-i',
        'color=0x1a3a6a:size=640x360',
        '-vf',
        `drawtext=fontfile=${BOLD_FONT}:text='Chapter One':fontcolor=white:fontsize=48:x=(w-tw)/2:y=(h-th)/2`,
      ]),
    ];
    const photos = ['dog.jpg', 'eagle.jpg', 'horses.jpg', 'person.jpg', 'kite.jpg'].map((p) => path.join(DARKNET_PHOTOS, p));
    for (const g of graphics) expect((await measureFrame(g)).detail, g).toBeLessThan(0.2);
    for (const p of photos) expect((await measureFrame(p)).detail, p).toBeGreaterThanOrEqual(0.2);
    const black = still('black', ['-f', 'lavfi', '-i', 'color=black:size=640x360']);
    expect((await measureFrame(black)).stdev).toBeLessThan(1);
  });

  it('after a fade in from black, takes the scene once it is visible', async () => {
    const video = path.join(dir, 'fade.mp4');
    ffmpeg([
      ...['-loop', '1', '-framerate', '25', '-t', '12', '-i', path.join(DARKNET_PHOTOS, 'horses.jpg')],
      ...['-vf', 'scale=640:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2,fade=in:st=0:d=3', ...x264, video],
    ]);
    const frames = await keyframesOf(video, 12);
    const chosen = (await choosePosterFrame(frames, 12))!;
    expect(chosen.t).toBeGreaterThanOrEqual(openingEnd(12));
    expect(await difference(await sharp(chosen.file).toBuffer(), frameAt(video, 10))).toBeLessThan(12);
  });

  it('without an opening, takes the first keyframe after the first tenth', async () => {
    const video = path.join(dir, 'plain.mp4');
    ffmpeg([
      ...['-loop', '1', '-framerate', '25', '-t', '8', '-i', path.join(DARKNET_PHOTOS, 'person.jpg')],
      '-vf',
      'scale=640:-2',
      ...x264,
      video,
    ]);
    const frames = await keyframesOf(video, 8);
    const chosen = (await choosePosterFrame(frames, 8))!;
    expect(chosen.t).toBe(frames.find((f) => f.t >= 0.8)!.t);
  });

  it('in a screen recording (flat graphics throughout) takes the first frame after the opening that is not black', async () => {
    const video = path.join(dir, 'screen.mp4');
    ffmpeg([
      ...['-f', 'lavfi', '-i', 'color=white:size=640x360:rate=25:duration=20'],
      ...[
        '-vf',
        [
          'drawbox=x=0:y=0:w=640:h=30:color=0xdddddd:t=fill',
          `drawtext=fontfile=${BOLD_FONT}:text='File  Edit  View':fontcolor=black:fontsize=14:x=10:y=8`,
          `drawtext=fontfile=${BOLD_FONT}:text='line %{eif\\:floor(t)\\:d}':fontcolor=black:fontsize=18:x=20:y=60`,
          // black over everything until 3 s
          "drawbox=x=0:y=0:w=640:h=360:color=black:t=fill:enable='lt(t,3)'",
        ].join(','),
      ],
      ...x264,
      video,
    ]);
    const frames = await keyframesOf(video, 20);
    expect(frames.some((f) => f.t >= openingEnd(20) && f.t < 3)).toBe(true);
    const chosen = (await choosePosterFrame(frames, 20))!;
    // Black until 3 s, past the opening (2 s): the first screen after it.
    expect(chosen.t).toBe(frames.find((f) => f.t >= 3)!.t);
  });

  it('a video that stays dark still gets a poster: its frame with the most contrast', async () => {
    const video = path.join(dir, 'dark.mp4');
    ffmpeg([
      ...['-f', 'lavfi', '-i', 'color=black:size=320x180:rate=25:duration=6'],
      '-vf',
      "drawbox=x=100:y=60:w=40:h=40:color=0x101010:t=fill:enable='gte(t,4)'",
      ...x264,
      video,
    ]);
    const frames = await keyframesOf(video, 6);
    const chosen = (await choosePosterFrame(frames, 6))!;
    expect(chosen.t).toBeGreaterThanOrEqual(4);
    expect(await representativePoster(frames, 6)).toBeInstanceOf(Buffer);
    expect(await representativePoster([], 6)).toBeNull();
  });
});
