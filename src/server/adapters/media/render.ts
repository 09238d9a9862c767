import { BACKGROUND, spawnTool } from '../process/tools';
import fs from 'node:fs';
import { GIF_MAX_FPS, GIF_MAX_WIDTH, RENDER_ASPECT_RATIO, type RenderAspect } from '../../../contract';
import { tools } from './ffprobe';
import type { RenderCaptions, RenderSource } from '../../modules/render/render.service';

/** The font of the burnt-in watermark (Debian fonts-dejavu-core). */
export const WATERMARK_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
/** Where libass finds the captions' DejaVu fonts (fonts-dejavu-core). */
export const CAPTION_FONTS_DIR = '/usr/share/fonts/truetype/dejavu';
export const WATERMARK_TEXT = 'Clipseek';
/**
 * x264 preset of compilations. Measured on 2 cores (ARCHITECTURE.md, tests/bench/render.bench.ts):
 * ultrafast keeps a 720p compilation above 10x real time; veryfast does not.
 */
export const RENDER_PRESET = 'ultrafast';
/**
 * A source above 720p is read from its rendition, itself CRF 26: a lower CRF here spends bits (and
 * ~15% of the CPU) on nothing visible.
 */
export const RENDER_CRF = 26;

/** One range of one input (the service's RenderSource): `input` is a path or URL ffmpeg reads; the source's facts come from its probe. */
export type RenderClip = RenderSource;

/** ffmpeg exited non-zero: `stderrTail` holds the last lines it wrote (for the log, never the user). */
export class RenderToolError extends Error {
  constructor(
    readonly exitCode: number | null,
    readonly stderrTail: string,
  ) {
    super(`ffmpeg failed (${exitCode})`);
    this.name = 'RenderToolError';
  }
}

function runFfmpeg(args: string[], duration: number, onProgress?: (f: number) => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // A render yields the CPU to searches and page loads, but goes before indexing.
    const p = spawnTool(tools.ffmpeg, ['-hide_banner', '-nostdin', '-y', '-progress', 'pipe:1', '-nostats', ...args], {
      signal,
      ...BACKGROUND.render,
    });
    let err = '';
    p.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.length > 64_000) err = err.slice(-16_000);
    });
    p.stdout.on('data', (d: Buffer) => {
      const m = /out_time_us=(\d+)/.exec(d.toString());
      if (m && duration > 0 && onProgress) onProgress(Math.max(0, Math.min(1, Number(m[1]) / 1e6 / duration)));
    });
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve() : reject(new RenderToolError(code, err.trim().split('\n').slice(-12).join('\n')))));
  });
}

/** Runs ffmpeg jobs side by side; the first failure stops the others and is the one reported. */
async function runTogether(jobs: Array<(signal: AbortSignal) => Promise<void>>) {
  const stop = new AbortController();
  let first: unknown;
  await Promise.all(
    jobs.map((job) =>
      job(stop.signal).catch((e: unknown) => {
        if (first === undefined) {
          first = e;
          stop.abort();
        }
      }),
    ),
  );
  if (first !== undefined) throw first;
}

const even = (n: number) => Math.max(2, 2 * Math.round(n / 2));
const num = (n: number) => n.toFixed(6);

function watermarkFilter(height: number) {
  const size = Math.max(10, Math.round(height / 16));
  const margin = Math.max(4, Math.round(height / 30));
  return (
    `drawtext=fontfile=${WATERMARK_FONT}:text='${WATERMARK_TEXT}':fontsize=${size}` +
    `:fontcolor=white@0.8:borderw=${Math.max(1, Math.round(size / 16))}:bordercolor=black@0.5` +
    `:x=w-tw-${margin}:y=h-th-${margin}`
  );
}

/**
 * Issue 39: ffmpeg's crop of a clip along its framing path: the window's size as fractions of the
 * decoded picture (even pixels), its centre a piecewise-linear expression of the clip's time `t`
 * (crop evaluates x and y on every frame), kept inside the picture. Points closer than a frame are
 * one step (a cut).
 */
function cropFilter(f: NonNullable<RenderClip['framing']>, frame: number) {
  const axis = (key: 'x' | 'y') => {
    const p = f.points;
    let e = num4(p[0]![key]);
    for (let i = 1; i < p.length; i++) {
      const [a, b] = [p[i - 1]!, p[i]!];
      const dv = b[key] - a[key];
      if (Math.abs(dv) < 1e-5) continue;
      const dt = b.t - a.t;
      e += dt < frame ? `+${num4(dv)}*gte(t,${num4(b.t)})` : `+${num4(dv / dt)}*clip(t-${num4(a.t)},0,${num4(dt)})`;
    }
    return e;
  };
  return (
    `crop=w='2*trunc(iw*${num4(f.width)}/2)':h='2*trunc(ih*${num4(f.height)}/2)'` +
    `:x='clip((${axis('x')})*iw-ow/2,0,iw-ow)':y='clip((${axis('y')})*ih-oh/2,0,ih-oh)'`
  );
}
const num4 = (n: number) => String(Math.round(n * 1e4) / 1e4);

/** A path as the value of a filter's option in a filter graph (escaped for the option, then for the graph). */
const filterPath = (p: string) => p.replace(/[\\':]/g, '\\$&').replace(/[\\'[\],;]/g, '\\$&');

/** Half a millisecond and a bit: ranges arrive rounded to the millisecond, frame times are not. */
const EPSILON = 0.001;

/**
 * Input options of one clip. A rendition playlist (`origin` known) is read from its first segment
 * with its timestamps kept (-copyts, given once for all inputs) and cut by `cutFilter`; ffmpeg's HLS
 * demuxer is never asked to seek (it cannot seek into the first segment of a playlist starting at
 * ~1.4 s: "could not seek to position 1.457", then no stream at all). An original is cut by a
 * frame-accurate seek (decode from the keyframe before, drop until start).
 */
const cutInput = (c: RenderClip) => [
  // A playlist written with signed segment URLs (the S3 store) needs ffmpeg's network protocols.
  ...(c.input.endsWith('.m3u8') ? ['-protocol_whitelist', 'file,http,https,tcp,tls,crypto'] : []),
  ...(c.origin === null ? ['-ss', num(c.start), '-t', num(c.end - c.start)] : []),
  ...['-i', c.input],
];

/** The filter that starts each clip's chain: its range (when read by timestamp) and its time from 0. */
const cutFilter = (c: RenderClip, audio = false) => {
  // A picture's times are moved EPSILON earlier: a source with millisecond timestamps (Matroska,
  // WebM) has 29.97 fps frames up to half a millisecond after their true time, and `fps=round=up`
  // put every third one a slot late (30, 31, 31, 33...). Frames on or before a slot keep their slot.
  const reset = audio ? 'asetpts=PTS-STARTPTS' : `setpts=PTS-STARTPTS-${EPSILON}/TB`;
  if (c.origin === null) return reset;
  return `${audio ? 'atrim' : 'trim'}=start=${num(c.origin + c.start - EPSILON)}:end=${num(c.origin + c.end - EPSILON)},${reset}`;
};

/** -copyts when the clips are read by timestamp; every clip of a render is read one way. */
function timestampMode(clips: RenderClip[]): string[] {
  const byTimestamp = clips.filter((c) => c.origin !== null).length;
  if (byTimestamp && byTimestamp !== clips.length) throw new Error('a render reads all its clips from renditions or all from originals');
  return byTimestamp ? ['-copyts'] : [];
}

/**
 * One MP4 of the clips in order: each scaled to `height` (even width from the first clip's aspect),
 * letter/pillar-boxed onto that canvas at one frame rate, audio 48 kHz stereo AAC (silence for a
 * clip without audio), H.264 yuv420p, `+faststart`, optionally the watermark burnt in. With a
 * cropped `aspect` (issue 39) the canvas is that shape, its short side `height`, and each clip is
 * cropped along its `framing` path (cropFilter) and scaled to it.
 *
 * Picture and sound are rendered by two ffmpeg processes at once and then muxed without
 * re-encoding: ffmpeg 5 filters and encodes audio on the same thread that feeds x264, and AAC
 * encoding alone costs ~1.3 s of CPU a minute, so one process left the second core idle for
 * that long (tests/bench/render.bench.ts: 9.5x -> 10.3x real time for a 60 s 720p compilation).
 */
export async function renderCompilation(
  clips: RenderClip[],
  outFile: string,
  o: {
    height: number;
    aspect?: RenderAspect;
    watermark: boolean;
    preset?: string;
    onProgress?: (f: number) => void;
    captions?: RenderCaptions;
  },
) {
  const first = clips[0]!;
  // A cropped aspect's short side is the requested height (9:16 at 720: 720x1280); 'source' is the first clip's shape.
  const ratio = o.aspect && o.aspect !== 'source' ? RENDER_ASPECT_RATIO[o.aspect] : null;
  const aspect = ratio ?? (first.width && first.height ? first.width / first.height : 16 / 9);
  const [W, H] = ratio !== null && ratio < 1 ? [even(o.height), even(o.height / ratio)] : [even(o.height * aspect), even(o.height)];
  const fps = Math.min(30, Math.max(...clips.map((c) => c.frameRate ?? 30))) || 30;
  const rate = Number.isInteger(fps) ? String(fps) : fps.toFixed(3);
  const total = clips.reduce((s, c) => s + (c.end - c.start), 0);

  const video: string[] = [];
  clips.forEach((c, i) => {
    const d = num(c.end - c.start);
    // A clip of the canvas's own aspect is scaled straight to it (padding copies every frame: ~15%
    // of a 720p render's CPU); any other is boxed.
    const sameAspect = c.width && c.height && Math.abs(c.width / c.height / (W / H) - 1) < 0.01;
    const fit = c.framing
      ? `${cropFilter(c.framing, 1 / fps)},scale=${W}:${H}`
      : sameAspect
        ? `scale=${W}:${H}`
        : `scale=w=${W}:h=${H}:force_original_aspect_ratio=decrease:force_divisible_by=2,pad=${W}:${H}:(ow-iw)/2:(oh-ih)/2:color=black`;
    // fps round=up: each output frame is the source frame on screen at its time (the default rounds to
    // the nearest, so a 60 fps source rendered at 15 or 30 fps started at its second frame).
    video.push(`[${i}:v:0]${cutFilter(c)},${fit},setsar=1,fps=${rate}:round=up,format=yuv420p,trim=duration=${d}[v${i}]`);
  });
  video.push(`${clips.map((_, i) => `[v${i}]`).join('')}concat=n=${clips.length}:v=1:a=0[vc]`);
  // Issue 39: captions burned into the joined picture (so none crosses a cut by more than its cue), under the mark.
  const assFile = `${outFile}.captions.ass`;
  const srtFile = `${outFile}.captions.srt`;
  if (o.captions?.ass) fs.writeFileSync(assFile, o.captions.ass(W, H));
  if (o.captions?.srt) fs.writeFileSync(srtFile, o.captions.srt);
  const burn = o.captions?.ass ? `ass=filename=${filterPath(assFile)}:fontsdir=${filterPath(CAPTION_FONTS_DIR)},` : '';
  video.push(o.watermark ? `[vc]${burn}${watermarkFilter(Math.min(W, H))}[vo]` : `[vc]${burn}null[vo]`);

  // Only clips with sound are read for the audio; the others are silence of their length.
  const withSound = clips.filter((c) => c.hasAudio);
  const audio: string[] = [];
  let input = 0;
  clips.forEach((c, i) => {
    const d = num(c.end - c.start);
    audio.push(
      c.hasAudio
        ? `[${input++}:a:0]${cutFilter(c, true)},aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,apad,atrim=duration=${d}[a${i}]`
        : `anullsrc=channel_layout=stereo:sample_rate=48000,aformat=sample_fmts=fltp,atrim=duration=${d}[a${i}]`,
    );
  });
  audio.push(`${clips.map((_, i) => `[a${i}]`).join('')}concat=n=${clips.length}:v=0:a=1[ao]`);

  const videoFile = `${outFile}.video.mp4`;
  const audioFile = `${outFile}.audio.m4a`;
  try {
    await runTogether([
      (signal) =>
        runFfmpeg(
          [
            ...timestampMode(clips),
            ...clips.flatMap((c) => ['-an', ...cutInput(c)]),
            ...['-filter_complex', video.join(';'), '-map', '[vo]'],
            ...['-c:v', 'libx264', '-preset', o.preset ?? RENDER_PRESET, '-crf', String(RENDER_CRF), '-pix_fmt', 'yuv420p', '-r', rate],
            ...['-f', 'mp4', videoFile],
          ],
          total,
          o.onProgress && ((f) => o.onProgress!(f * 0.98)),
          signal,
        ),
      (signal) =>
        runFfmpeg(
          [
            ...timestampMode(clips),
            ...withSound.flatMap((c) => ['-vn', ...cutInput(c)]),
            ...['-filter_complex', audio.join(';'), '-map', '[ao]'],
            ...['-c:a', 'aac', '-b:a', '128k', '-ar', '48000', '-ac', '2', '-f', 'mp4', audioFile],
          ],
          total,
          undefined,
          signal,
        ),
    ]);
    // Issue 39: soft captions as an MP4 timed-text (mov_text) track, in the transcripts' language: the
    // recogniser hears English only (Debian's pocketsphinx en-us model), so 'eng' (ISO 639-2).
    const soft = !!o.captions?.srt;
    await runFfmpeg(
      [
        ...['-i', videoFile, '-i', audioFile, ...(soft ? ['-f', 'srt', '-i', srtFile] : [])],
        ...['-map', '0:v:0', '-map', '1:a:0', ...(soft ? ['-map', '2:s:0'] : [])],
        ...['-c:v', 'copy', '-c:a', 'copy', ...(soft ? ['-c:s', 'mov_text', '-metadata:s:s:0', 'language=eng'] : [])],
        ...['-movflags', '+faststart', '-f', 'mp4', outFile],
      ],
      total,
    );
  } finally {
    for (const f of [videoFile, audioFile, assFile, srtFile]) fs.rmSync(f, { force: true });
  }
  o.onProgress?.(1);
  return { width: W, height: H, fps, bytes: fs.statSync(outFile).size };
}

/** A looping GIF of one range: palettegen/paletteuse, at most 15 fps and 480 px wide. */
export async function renderGif(clip: RenderClip, outFile: string, o: { watermark: boolean; onProgress?: (f: number) => void }) {
  const fps = Math.min(GIF_MAX_FPS, clip.frameRate ?? GIF_MAX_FPS);
  const rate = Number.isInteger(fps) ? String(fps) : fps.toFixed(3);
  const width = Math.min(GIF_MAX_WIDTH, clip.width ?? GIF_MAX_WIDTH);
  const height = clip.width && clip.height ? even((width * clip.height) / clip.width) : 270;
  const d = num(clip.end - clip.start);
  const graph =
    `[0:v:0]${cutFilter(clip)},fps=${rate}:round=up,scale=${width}:${height}:flags=lanczos,setsar=1,trim=duration=${d}` +
    `${o.watermark ? `,${watermarkFilter(height)}` : ''},split[a][b];` +
    `[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=5:diff_mode=rectangle[g]`;
  await runFfmpeg(
    [...timestampMode([clip]), ...cutInput(clip), '-filter_complex', graph, '-map', '[g]', '-an', '-loop', '0', '-f', 'gif', outFile],
    clip.end - clip.start,
    o.onProgress,
  );
  return { width, height, fps, bytes: fs.statSync(outFile).size };
}
