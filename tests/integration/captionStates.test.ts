import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CaptionStyle } from '../../src/contract';
import {
  CAPTION_FONTS_DIR,
  RenderToolError,
  captionOverlay,
  captionPictures,
  renderCompilation,
} from '../../src/server/adapters/media/render';
import { captionStates, compilationCues, cuesToAss, type CaptionSegment } from '../../src/server/modules/render/captions';
import { makeVideo } from './support/upload';

// Issue 39: the renderer burns captions by drawing each caption state once (captionPictures) and
// laying it over the picture (captionOverlay), no longer with ffmpeg's ass filter on every frame.
// This draws the same captions both ways over a moving test picture, frame by frame, uncompressed:
// the two must agree (a state a frame late, a caption clipped by its band, a wrong alpha
// on a translucent bar or on antialiased edges all show as large differences), in every style, on a
// 16:9 and a 9:16 picture, with a caption on the first frame and one on the last.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-caption-states-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const FPS = 25;
const SECONDS = 4;
const talk = (text: string, start: number, step: number): CaptionSegment => {
  const words = text.split(' ').map((word, i) => ({ word, start: start + i * step, end: start + i * step + step * 0.8 }));
  return { start, end: words[words.length - 1]!.end, text, words };
};
// From the first frame: two full lines (bar and subtitle styles break them), a pause, a word longer
// than a words-style line (drawn smaller), then words up to the last frame.
const segments: CaptionSegment[] = [
  talk('we walked along the river to the old mill where the water turns the wheel all day long', 0, 0.11),
  talk('internationalisation matters', 2.1, 0.3),
  talk('then home again', 3.2, 0.3),
];
const cues = compilationCues([{ start: 0, end: SECONDS, segments }]);

function frames(graph: string, inputs: string[], width: number, height: number): Buffer[] {
  const out = execFileSync(
    'ffmpeg',
    ['-v', 'error', ...inputs, '-filter_complex', graph, '-map', '[v]', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-'],
    { maxBuffer: 1 << 30 },
  );
  const size = (width * height * 3) / 2;
  expect(out.length % size).toBe(0);
  return Array.from({ length: out.length / size }, (_, i) => out.subarray(i * size, (i + 1) * size));
}

/** Where byte `k` of a yuv420p frame is: its plane, column and row. */
function where(k: number, width: number, height: number) {
  const y = width * height;
  if (k < y) return `Y ${k % width},${Math.floor(k / width)}`;
  const c = k - y < y / 4 ? k - y : k - y - y / 4;
  return `${k - y < y / 4 ? 'U' : 'V'} ${c % (width / 2)},${Math.floor(c / (width / 2))}`;
}

describe('burned-in captions drawn once per state', () => {
  const cases: Array<[CaptionStyle, number, number]> = [
    ['bar', 640, 360],
    ['subtitle', 640, 360],
    ['words', 640, 360],
    ['bar', 360, 640],
    ['subtitle', 360, 640],
    ['words', 360, 640],
  ];
  it.each(cases)(
    '%s captions at %ix%i equal the ass filter’s, frame by frame',
    async (style, width, height) => {
      const picture = `testsrc2=s=${width}x${height}:r=${FPS}:d=${SECONDS},format=yuv420p`;
      const assFile = path.join(dir, `${style}-${width}.ass`);
      fs.writeFileSync(assFile, cuesToAss(cues, style, width, height));
      const reference = frames(`${picture},ass=filename=${assFile}:fontsdir=${CAPTION_FONTS_DIR}[v]`, [], width, height);

      const states = captionStates(cues, style, width, height);
      const pictures = path.join(dir, `${style}-${width}.nut`);
      await captionPictures(states, width, SECONDS, path.join(dir, `${style}-${width}`), pictures);
      const drawn = frames(`${picture}[p];[p][0:v]${captionOverlay(states)}[v]`, ['-i', pictures], width, height);
      expect(drawn.length).toBe(FPS * SECONDS);
      expect(reference.length).toBe(drawn.length);

      const plain = frames(`${picture}[v]`, [], width, height);
      const report: string[] = [];
      let captioned = 0;
      const luma = width * height;
      reference.forEach((ref, i) => {
        const got = drawn[i]!;
        let lumaWorst = 0;
        let at = 0;
        let chromaOff = 0;
        let chromaWorst = 0;
        let changed = 0;
        for (let k = 0; k < ref.length; k++) {
          const d = Math.abs(ref[k]! - got[k]!);
          if (ref[k] !== plain[i]![k]) changed++;
          if (k < luma) {
            if (d > lumaWorst) [lumaWorst, at] = [d, k];
          } else {
            if (d > 8) chromaOff++;
            chromaWorst = Math.max(chromaWorst, d);
          }
        }
        if (changed > ref.length * 0.002) captioned++;
        // Luma agrees within rounding. Chroma is subsampled: the ass filter blends each layer (outline,
        // shadow, fill) by its own 2x2 coverage, the overlay by the 2x2 average of the composite's alpha,
        // so a few chroma samples where layers' edges meet differ by some levels (invisible), no more.
        if (lumaWorst > 3 || chromaWorst > 32 || chromaOff > Math.max(2, changed * 0.01))
          report.push(
            `frame ${i}: luma off by ${lumaWorst} at ${where(at, width, height)} (${ref[at]} drawn ${got[at]}); ` +
              `${chromaOff} chroma samples off by more than 8 (at most ${chromaWorst}) of ${changed} bytes the captions change`,
          );
      });
      expect(report).toEqual([]);
      // The comparison saw captions: on the first frame, the last, and most between.
      const shows = (frame: number) => reference[frame]!.some((v, k) => v !== plain[frame]![k]);
      expect(shows(0)).toBe(true);
      expect(shows(FPS * SECONDS - 1)).toBe(true);
      expect(captioned).toBeGreaterThan(FPS * SECONDS * 0.7);
    },
    60_000,
  );
});

describe('a render that burns captions', () => {
  const source = path.join(dir, 'source.mp4');
  const clip = (end: number) => ({ input: source, start: 0, end, origin: null, width: 320, height: 180, frameRate: 25, hasAudio: false });
  const probe = (file: string) =>
    JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-show_streams', '-of', 'json', file], { encoding: 'utf8' })) as {
      streams: Array<{ codec_type: string; nb_read_frames: string }>;
    };

  it('keeps its length when captions end with it and states begin after its last frame', async () => {
    fs.writeFileSync(source, makeVideo(3, '320x180'));
    // Words every 10 ms up to the end: several states begin after the last frame (2.96 s) and are
    // shown on none, so the picture's ffmpeg ends without reading them (the drawing's pipe breaks).
    const tail = Array.from({ length: 8 }, (_, i) => ({ word: `w${i}`, start: 2.9 + i * 0.01, end: 2.91 + i * 0.01 }));
    const last = compilationCues([
      { start: 0, end: 3, segments: [{ start: 2.9, end: 3, text: tail.map((w) => w.word).join(' '), words: tail }] },
    ]);
    expect(captionStates(last, 'words', 320, 180).durations.length).toBeGreaterThan(4);
    const out = path.join(dir, 'tail.mp4');
    await renderCompilation([clip(3)], out, {
      height: 180,
      watermark: false,
      captions: { burn: (w, h) => captionStates(last, 'words', w, h) },
    });
    const video = probe(out).streams.find((x) => x.codec_type === 'video')!;
    expect(Number(video.nb_read_frames)).toBe(75);
    expect(fs.existsSync(`${out}.captions`)).toBe(false);
  }, 60_000);

  it('fails, rather than waiting, when its captions cannot be drawn', async () => {
    const broken = { ...captionStates(cues, 'bar', 320, 180), durations: [-1] };
    const out = path.join(dir, 'broken.mp4');
    const started = Date.now();
    await expect(
      renderCompilation([clip(2)], out, { height: 180, watermark: false, captions: { burn: () => broken } }),
    ).rejects.toBeInstanceOf(RenderToolError);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(fs.existsSync(`${out}.captions`)).toBe(false);
  }, 60_000);
});
