import { BACKGROUND, spawnTool } from '../process/tools';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { croppedCanvas, GIF_MAX_FPS, GIF_MAX_WIDTH, type RenderAspect } from '../../../contract';
import { tools } from './ffprobe';
import type { RenderCaptions, RenderSource } from '../../modules/render/render.service';
import type { CaptionStates } from '../../modules/render/captions';

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
 * Issue 39: the burned-in captions' states (captionStates) drawn by libass, each once, as pictures of
 * the captions' band (yuva420p, uncompressed), written as a NUT stream to `out` with each state's
 * start as its time. The picture's ffmpeg reads them as an input and lays each over the picture until
 * the next (captionOverlay): the overlay filter is SIMD and sliced over the cores, where the ass
 * filter blended every frame on one thread. The renderer makes `out` a pipe (mkfifo), so the states
 * are drawn beside the picture, only ahead of it, and never stored.
 *
 * libass draws each state twice, in one pass, one copy above the other, over 0s and over 255s: a
 * pixel drawn with coverage a over a background b reads b(1-a) + p, so the two give a (the alpha
 * plane) and p/a (the colour the overlay blends by a). Drawing once over a transparent frame is not
 * the same: ffmpeg's ass filter blends the alpha plane like a colour, so a translucent colour (the
 * bar) got a^2 and antialiased edges came out dark. A test compares the two ways with the ass filter
 * on the picture.
 */
export async function captionPictures(
  states: CaptionStates,
  width: number,
  duration: number,
  dir: string,
  out: string,
  signal?: AbortSignal,
) {
  fs.mkdirSync(dir, { recursive: true });
  const h = states.band.height;
  // The states' times: a blank picture of the script's canvas (YUV4MPEG: a header, then the planes),
  // 0s in its upper half and 255s in its lower, shown for each state's duration.
  const half = (w: number, rows: number) => [Buffer.alloc(w * rows), Buffer.alloc(w * rows, 255)];
  const blank = Buffer.concat([
    Buffer.from(`YUV4MPEG2 W${width} H${2 * h} F100:1 Ip A1:1 C420jpeg\nFRAME\n`),
    ...half(width, h),
    ...half(width / 2, h / 2),
    ...half(width / 2, h / 2),
  ]);
  fs.writeFileSync(path.join(dir, 'blank.y4m'), blank);
  // After the last state, nothing until the picture's end; then a last state (nothing) that begins
  // after its last frame, so that the overlay (shortest) never runs out of states before the picture.
  const shown = states.durations.reduce((a, b) => a + b, 0);
  const durations = [...states.durations, ...(duration > shown ? [duration - shown] : []), 0.01];
  const times = path.join(dir, 'times.ffconcat');
  fs.writeFileSync(times, ['ffconcat version 1.0', ...durations.flatMap((d) => ['file blank.y4m', `duration ${num(d)}`]), ''].join('\n'));
  const assFile = path.join(dir, 'captions.ass');
  fs.writeFileSync(assFile, states.ass);
  const colour = 'if(lt(y-x,255),clip(x*255/(255-(y-x)),0,255),0)';
  const graph =
    `[0:v]format=yuv420p,ass=filename=${filterPath(assFile)}:fontsdir=${filterPath(CAPTION_FONTS_DIR)},split=4[u1][u2][l1][l2];` +
    `[u1]crop=${width}:${h}:0:0[z1];[u2]crop=${width}:${h}:0:0[z2];[l1]crop=${width}:${h}:0:${h}[o1];[l2]crop=${width}:${h}:0:${h}[o2];` +
    `[z1][o1]lut2=c0='${colour}':c1='${colour}':c2='${colour}'[c];` +
    `[z2][o2]lut2=c0='255-(y-x)':c1=0:c2=0[a];` +
    `[c][a]mergeplanes=0x00010210:yuva420p[s]`;
  await runFfmpeg(
    [
      ...['-f', 'concat', '-i', times, '-filter_complex', graph, '-map', '[s]'],
      ...['-fps_mode', 'passthrough', '-c:v', 'rawvideo', '-f', 'nut', out],
    ],
    0,
    undefined,
    signal,
  );
}

/** ffmpeg stopped because the other end of its output pipe closed. */
const brokenPipe = (e: unknown) => e instanceof RenderToolError && /broken pipe/i.test(e.stderrTail);

/**
 * Runs `picture` (the picture's ffmpeg, reading the states from `pipe`) beside captionPictures
 * (writing them into it). Either failing stops the other, and the captions' failure is the one
 * reported: an ffmpeg blocked opening or reading a pipe whose other end died would wait forever. The
 * picture's ffmpeg ends once its last frame is made, with states that begin after it (shown on no
 * frame) unread: the drawing then stops on a broken pipe, which is no failure.
 */
async function withCaptionPictures(
  states: CaptionStates,
  width: number,
  duration: number,
  dir: string,
  pipe: string,
  signal: AbortSignal,
  picture: (signal: AbortSignal) => Promise<void>,
) {
  const [drawStop, pictureStop] = [new AbortController(), new AbortController()];
  const stopBoth = () => [drawStop, pictureStop].forEach((c) => c.abort());
  signal.addEventListener('abort', stopBoth, { once: true });
  let drawError: unknown;
  const drawing = captionPictures(states, width, duration, dir, pipe, drawStop.signal).catch((e: unknown) => {
    if (brokenPipe(e)) return;
    drawError = e;
    pictureStop.abort();
  });
  try {
    await picture(pictureStop.signal);
  } catch (e) {
    drawStop.abort();
    await drawing;
    throw drawError ?? e;
  } finally {
    signal.removeEventListener('abort', stopBoth);
  }
  await drawing;
  if (drawError) throw drawError;
}

/**
 * The filter that lays captionPictures' states (its second input) over the picture (its first), each
 * until the next. `shortest`: it ends with the picture. Without it, the overlay made a frame for each
 * state that begins after the picture's last frame (framesync goes on with the last picture).
 */
export const captionOverlay = (states: CaptionStates) => `overlay=x=0:y=${states.band.top}:format=yuv420:shortest=1`;

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
  // A cropped aspect's short side is the requested height (9:16 at 720: 720x1280); 'source' is the
  // first clip's shape at that height.
  const aspect = first.width && first.height ? first.width / first.height : 16 / 9;
  const { width: W, height: H } =
    o.aspect && o.aspect !== 'source' ? croppedCanvas(o.aspect, o.height) : { width: even(o.height * aspect), height: even(o.height) };
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
  // Issue 39: captions burned into the joined picture (so none crosses a cut by more than its cue),
  // under the mark: each state drawn once (captionPictures), laid over the picture for its time.
  const states = o.captions?.burn?.(W, H);
  const statesDir = `${outFile}.captions`;
  const statesPipe = path.join(statesDir, 'states.nut');
  const srtFile = `${outFile}.captions.srt`;
  if (o.captions?.srt) fs.writeFileSync(srtFile, o.captions.srt);
  const mark = o.watermark ? watermarkFilter(Math.min(W, H)) : 'null';
  video.push(states ? `[vc][${clips.length}:v]${captionOverlay(states)},${mark}[vo]` : `[vc]${mark}[vo]`);

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
    if (states) {
      fs.mkdirSync(statesDir, { recursive: true });
      execFileSync('mkfifo', [statesPipe]);
    }
    const picture = (signal: AbortSignal) =>
      runFfmpeg(
        [
          ...timestampMode(clips),
          ...clips.flatMap((c) => ['-an', ...cutInput(c)]),
          ...(states ? ['-f', 'nut', '-i', statesPipe] : []),
          ...['-filter_complex', video.join(';'), '-map', '[vo]'],
          ...['-c:v', 'libx264', '-preset', o.preset ?? RENDER_PRESET, '-crf', String(RENDER_CRF), '-pix_fmt', 'yuv420p', '-r', rate],
          ...['-f', 'mp4', videoFile],
        ],
        total,
        o.onProgress && ((f) => o.onProgress!(f * 0.98)),
        signal,
      );
    await runTogether([
      // The captions' states are drawn into a pipe the picture's ffmpeg reads (captionPictures).
      states ? (signal) => withCaptionPictures(states, W, total, statesDir, statesPipe, signal, picture) : picture,
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
    for (const f of [videoFile, audioFile, statesDir, srtFile]) fs.rmSync(f, { force: true, recursive: true });
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
