import fs from 'node:fs';
import path from 'node:path';
import { BACKGROUND, execTool, spawnTool } from '../process/tools';
import { tools } from './ffprobe';

/** Runs ffmpeg, reporting progress (0..1) from its `-progress` output against a known duration. */
function ffmpeg(args: string[], duration: number, onProgress?: (f: number) => void, collectStderr = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawnTool(tools.ffmpeg, ['-hide_banner', '-nostdin', '-progress', 'pipe:1', '-nostats', ...args], BACKGROUND.ingest);
    let err = '';
    p.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (!collectStderr && err.length > 64_000) err = err.slice(-32_000);
    });
    p.stdout.on('data', (d: Buffer) => {
      const m = /out_time_us=(\d+)/.exec(d.toString());
      if (m && duration > 0 && onProgress) onProgress(Math.min(1, Number(m[1]) / 1e6 / duration));
    });
    p.on('error', reject);
    p.on('close', (code) =>
      code === 0 ? resolve(err) : reject(new Error(`ffmpeg failed (${code}): ${err.trim().split('\n').slice(-3).join(' ')}`)),
    );
  });
}

/** What the preview packager needs to know of a source (from its probe). */
export interface HlsSource {
  duration: number;
  /** Displayed size (rotation and sample aspect applied). */
  width: number;
  height: number;
  videoCodec: string | null;
  audioCodec: string | null;
  pixFmt?: string | null;
  rotation?: number;
  interlaced?: boolean;
  codedWidth?: number;
  codedHeight?: number;
}

/** The longest side a preview keeps on its short side (720p, or 720 wide when upright). */
const PREVIEW_SHORT_SIDE = 720;

/**
 * Whether a source's picture can go into the preview as it is (remuxed): 8-bit 4:2:0 H.264 that every
 * browser decodes, progressive, upright as stored with square pixels (MPEG-TS carries no rotation,
 * and a browser ignores it anyway in MSE), at most 720p. Its sound is copied when it is AAC.
 */
export function canRemuxPreview(o: Omit<HlsSource, 'duration' | 'audioCodec'>): boolean {
  const coded = { w: o.codedWidth ?? o.width, h: o.codedHeight ?? o.height };
  return (
    o.videoCodec === 'h264' &&
    (o.pixFmt == null || o.pixFmt === 'yuv420p' || o.pixFmt === 'yuvj420p') &&
    !o.rotation &&
    !o.interlaced &&
    coded.w === o.width &&
    coded.h === o.height &&
    Math.min(o.width, o.height) <= PREVIEW_SHORT_SIDE
  );
}

/**
 * The preview's picture filter: deinterlaced, square pixels, the short side at most 720, even sides
 * (4:2:0 needs them). ffmpeg has already turned a rotated source upright before it.
 */
export function previewFilter(o: Pick<HlsSource, 'interlaced'>): string {
  const S = PREVIEW_SHORT_SIDE;
  return [
    ...(o.interlaced ? ['yadif=mode=send_frame:deint=interlaced'] : []),
    "scale='trunc(iw*sar)':ih",
    'setsar=1',
    `scale='if(gte(iw,ih),-2,min(${S},trunc(iw/2)*2))':'if(gte(iw,ih),min(${S},trunc(ih/2)*2),-2)'`,
  ].join(',');
}

/**
 * HLS VOD with 2 s segments, at most 720p, upright. Remuxes without re-encoding when the source can
 * be played as it is (canRemuxPreview); otherwise transcodes with a keyframe every 2 s so segments
 * stay short. `start` is when the rendition's first frame is shown (MPEG-TS starts at ~1.4 s): the
 * rendition's time of the media's time t (0 at its first frame) is start + t, which renders cut by
 * (render.ts).
 */
export async function makeHls(input: string, outDir: string, o: HlsSource, onProgress?: (f: number) => void) {
  fs.mkdirSync(outDir, { recursive: true });
  const copy = canRemuxPreview(o);
  const video = copy
    ? ['-c:v', 'copy']
    : [
        ...['-vf', previewFilter(o)],
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '26', '-pix_fmt', 'yuv420p', '-profile:v', 'high'],
        ...['-force_key_frames', 'expr:gte(t,n_forced*2)'],
      ];
  const audio =
    o.audioCodec === null
      ? ['-an']
      : o.audioCodec === 'aac' && copy
        ? ['-c:a', 'copy']
        : ['-c:a', 'aac', '-b:a', '128k', '-ac', '2', '-ar', '48000'];
  const playlist = path.join(outDir, 'playlist.m3u8');
  await ffmpeg(
    [
      '-y',
      '-i',
      input,
      // V: a video that is not a cover picture; the first sound track only (subtitles are left out).
      ...['-map', '0:V:0'],
      ...(o.audioCodec ? ['-map', '0:a:0'] : []),
      ...video,
      ...audio,
      ...['-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'vod'],
      ...['-hls_segment_filename', path.join(outDir, 'seg_%05d.ts'), playlist],
    ],
    o.duration,
    onProgress,
  );
  const segments = fs.readdirSync(outDir).filter((f) => f.endsWith('.ts')).length;
  return { copied: copy, segments, start: await videoStart(path.join(outDir, 'seg_00000.ts')) };
}

/**
 * When a file's first video frame is shown (seconds, its own timestamps). Not the file's start: AAC
 * priming puts the sound 21 ms (48 kHz) to 128 ms (8 kHz) before the picture.
 */
export async function videoStart(file: string): Promise<number> {
  const { stdout } = await execTool(tools.ffprobe, [
    ...['-v', 'error', '-select_streams', 'V:0', '-show_entries', 'stream=start_time', '-of', 'json', file],
  ]);
  // JSON, not CSV: an MPEG-TS lists its streams twice (under its program too).
  const t = Number((JSON.parse(stdout) as { streams?: Array<{ start_time?: string }> }).streams?.[0]?.start_time);
  if (!Number.isFinite(t)) throw new Error(`the preview has no picture to start from (${path.basename(file)})`);
  return t;
}

/**
 * A single image holding `count` frames (width 140 each) taken every `interval` seconds. Only the
 * sync frames are decoded (each slot shows the last one at or before its time): a strip frame is a
 * glance, and skipping the rest made this stage ~20x cheaper (frame-exact pictures come from the
 * browser's own decoder on the timeline). With `track`, the same decoded keyframes also make the
 * thumbnail track there (see thumbnailTrack) in the same run: one decode for both (issue 41: 2.6
 * instead of 4.6 CPU s for 10 minutes of 720p; the strip is byte for byte the same).
 */
export async function thumbnailStrip(
  input: string,
  outFile: string,
  o: { duration: number; count: number; width: number; track?: string },
): Promise<{ interval: number; track?: ThumbnailTrack }> {
  const interval = Math.max(o.duration / o.count, 0.04);
  const strip = `fps=1/${interval},scale=${o.width}:-2,tile=${o.count}x1`;
  const stripOut = ['-frames:v', '1', '-c:v', 'libwebp', '-quality', '40', outFile];
  if (!o.track) {
    await ffmpeg(['-y', '-skip_frame', 'nokey', '-i', input, '-vf', strip, ...stripOut], o.duration);
    return { interval };
  }
  const track = await writeTrack(o.track, (tmp) =>
    ffmpeg(
      [
        ...['-y', '-skip_frame', 'nokey', '-i', input, '-an', '-sn', '-dn'],
        ...['-filter_complex', `[0:V:0]split=2[a][b];[a]${strip}[strip];[b]${TRACK_FILTER}[track]`],
        ...['-map', '[strip]', ...stripOut],
        ...['-map', '[track]', ...trackOutput(tmp)],
      ],
      o.duration,
    ),
  );
  return { interval, track };
}

/** The box a thumbnail track's pictures cover (the timeline's tallest thumbnail, 280 x 180 CSS px). */
export const TRACK_BOX = { width: 280, height: 180 } as const;

/** A thumbnail track's pictures and their size. */
export interface ThumbnailTrack {
  count: number;
  width: number;
  height: number;
}

const TRACK_WIDE = `gte(dar,${TRACK_BOX.width}/${TRACK_BOX.height})`;
/** Keyframes only, timed from the first frame, covering TRACK_BOX with even sides, square pixels, 8-bit 4:2:0. */
const TRACK_FILTER = [
  'setpts=PTS-STARTPTS',
  'select=key',
  `scale=w='if(${TRACK_WIDE},2*round(${TRACK_BOX.height / 2}*dar),${TRACK_BOX.width})':h='if(${TRACK_WIDE},${TRACK_BOX.height},2*round(${TRACK_BOX.width / 2}/dar))'`,
  'setsar=1',
  'format=yuv420p',
].join(',');
/** Every picture an IDR at its own time (the encoder in the source's time base), the index first. */
const trackOutput = (file: string) => [
  ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '30', '-g', '1', '-bf', '0'],
  ...['-fps_mode', 'passthrough', '-enc_time_base:v', '-1'],
  ...['-movflags', '+faststart', '-f', 'mp4', file],
];

/**
 * Runs `make` to write a track into a temporary file beside `outFile`, checks it holds pictures, and
 * only then renames it into place: a failed run leaves nothing.
 */
async function writeTrack(outFile: string, make: (tmp: string) => Promise<unknown>): Promise<ThumbnailTrack> {
  const tmp = `${outFile}.part`;
  try {
    await make(tmp);
    const { stdout } = await execTool(tools.ffprobe, [
      ...['-v', 'error', '-select_streams', 'v:0', '-count_packets'],
      ...['-show_entries', 'stream=width,height,nb_read_packets', '-of', 'json', tmp],
    ]);
    const s = (JSON.parse(stdout) as { streams?: Array<{ width?: number; height?: number; nb_read_packets?: string }> }).streams?.[0];
    const count = Number(s?.nb_read_packets);
    if (!s?.width || !s.height || !(count > 0)) throw new Error('the thumbnail track holds no picture');
    await fs.promises.rename(tmp, outFile);
    return { count, width: s.width, height: s.height };
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
}

/**
 * The timeline's thumbnail track (issue 41): a small H.264 MP4 holding exactly the source's keyframes,
 * each an IDR picture at its own time (0 at the media's first frame, as `extractKeyframes` counts),
 * upright (ffmpeg applies the display matrix and the output carries none), square pixels, 8-bit 4:2:0,
 * the smallest even size covering TRACK_BOX (16:9 320x180, 9:16 280x498, 4:3 280x210), no sound.
 * The browser decodes it in ~1 ms a picture instead of a 720p/1080p keyframe's ~12 ms. One ffmpeg
 * run decodes only the keyframes (`-skip_frame nokey`; `select=key` for decoders that ignore it,
 * VP9's); each keeps its time (`-fps_mode passthrough`, the encoder in the source's time base, so a
 * variable frame rate's times stay exact). Written to a temporary file and renamed: a failed run
 * leaves nothing. Ingest makes it with the strip (thumbnailStrip's `track`); this is it alone.
 */
export async function thumbnailTrack(
  input: string,
  outFile: string,
  o: { duration: number },
  onProgress?: (f: number) => void,
): Promise<ThumbnailTrack> {
  return writeTrack(outFile, (tmp) =>
    ffmpeg(
      [...['-y', '-skip_frame', 'nokey', '-i', input, '-an', '-sn', '-dn'], ...['-map', '0:V:0', '-vf', TRACK_FILTER, ...trackOutput(tmp)]],
      o.duration,
      onProgress,
    ),
  );
}

export interface ExtractedFrame {
  t: number;
  file: string;
  /** Scene-change score of the frame (> threshold: a new shot starts here). */
  scene: number;
}

/** A time range of a media (its seconds, 0 at its first frame): one chunk of a chunked ingest. */
export interface TimeRange {
  from: number;
  /** Infinity: to the end. */
  to: number;
}

/**
 * The first decoded video frame's timestamp, in its stream's time base, exactly what
 * `setpts=PTS-STARTPTS` subtracts in a whole-file run (decoded as extractKeyframes decodes, so a
 * leading frame it would skip is skipped here too). A chunk of extractKeyframes subtracts it
 * instead, so its times are the whole run's to the last digit.
 */
export async function videoOrigin(input: string): Promise<number> {
  const { stdout } = await execTool(tools.ffprobe, [
    ...['-v', 'error', '-skip_frame', 'noref', '-select_streams', 'V:0', '-read_intervals', '%+#8'],
    ...['-show_entries', 'frame=best_effort_timestamp', '-of', 'json', input],
  ]);
  const frames = (JSON.parse(stdout) as { frames?: Array<{ best_effort_timestamp?: number }> }).frames ?? [];
  const pts = frames.find((f) => Number.isFinite(f.best_effort_timestamp))?.best_effort_timestamp;
  if (pts === undefined) throw new Error('no video frame could be decoded');
  return pts;
}

/** What extractKeyframes picks; `grid`: the chunk length (INGEST_CHUNK_SECONDS), `chunk`: one chunk only. */
export interface KeyframeOptions {
  duration: number;
  threshold: number;
  maxGap: number;
  grid: number;
  chunk?: TimeRange & { origin: number };
}

/**
 * Seconds decoded before a chunk's start, unselected, so that its first frame's scene score compares
 * it with its real predecessors (the score reads the two frames before). A seek that lands after its
 * target (MPEG-TS seeks to the next keyframe) is tried again from further back, at worst from 0.
 */
const CHUNK_PREROLL = [1, 8, 64];

/**
 * One decoding pass picks keyframes: every scene change (ffmpeg's scene score), inside long shots a
 * frame at least every `maxGap` seconds, and the first frame at or after every multiple of `grid`
 * seconds. The grid term resets the chain (the gap counts from a grid line), so a run over one
 * chunk [k*grid, (k+1)*grid) (`chunk`, with `origin` from videoOrigin) picks exactly the frames a
 * whole-file run picks there: the same times, scores and JPEG bytes (tests/integration/chunks.test.ts).
 * Frames are written as JPEG at most 640 wide.
 */
export async function extractKeyframes(
  input: string,
  outDir: string,
  o: KeyframeOptions,
  onProgress?: (f: number) => void,
): Promise<ExtractedFrame[]> {
  const c = o.chunk;
  if (!c || c.from <= 0) return (await keyframePass(input, outDir, o, 0, onProgress))!;
  for (const preroll of CHUNK_PREROLL) {
    const got = await keyframePass(input, outDir, o, Math.max(0, c.from - preroll), onProgress);
    if (got) return got;
  }
  return (await keyframePass(input, outDir, o, 0, onProgress))!;
}

/**
 * extractKeyframes from `seekTo`: null when fewer than two frames were decoded before the chunk's
 * start (the seek landed too late; a run from 0 always counts as enough).
 */
async function keyframePass(
  input: string,
  outDir: string,
  o: KeyframeOptions,
  seekTo: number,
  onProgress?: (f: number) => void,
): Promise<ExtractedFrame[] | null> {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const c = o.chunk;
  const G = o.grid;
  const pick = `isnan(prev_selected_t)+gt(scene\\,${o.threshold})+gte(t-prev_selected_t\\,${o.maxGap})+gt(floor(t/${G})\\,floor(prev_t/${G}))`;
  // A chunk selects its own frames only (by the grid arithmetic of the reset); earlier ones pass unselected.
  const k = c ? Math.round(c.from / G) : 0;
  const inChunk = c ? `*gte(floor(t/${G})\\,${k})${Number.isFinite(c.to) ? `*lt(floor(t/${G})\\,${Math.round(c.to / G)})` : ''}` : '';
  // A media's time is 0 at its first frame (not at its sound's start, which AAC priming puts earlier).
  const zero = c ? `setpts=PTS-${c.origin}` : 'setpts=PTS-STARTPTS';
  const kf = `select='(${pick})${inChunk}',metadata@kf=print:key=lavfi.scene_score,showinfo@kf,scale='min(640,iw)':-2`;
  // The frames decoded before the chunk are logged too (showinfo@pre), to know the seek left enough of them.
  const graph = c
    ? `[0:V:0]${zero},split=2[a][b];[b]select='lt(floor(t/${G})\\,${k})',showinfo@pre,nullsink;[a]${kf}[kf]`
    : `[0:V:0]${zero},${kf}[kf]`;
  const args = [
    ...['-y', '-skip_frame', 'noref', '-skip_loop_filter', 'all'],
    ...(c ? ['-copyts', ...(seekTo > 0 ? ['-ss', seekTo.toFixed(3)] : [])] : []),
    // A little past the chunk's end: its last frames must all be decoded.
    ...(c && Number.isFinite(c.to) ? ['-t', (c.to - seekTo + 2).toFixed(3)] : []),
    ...['-i', input, '-an', '-filter_complex', graph, '-map', '[kf]', '-fps_mode', 'vfr', '-q:v', '4', path.join(outDir, 'kf_%05d.jpg')],
  ];
  const span = c ? Math.min(o.duration, c.to) - c.from : o.duration;
  // With -copyts ffmpeg reports the source's own times: a chunk's progress counts from its start.
  const progress =
    onProgress && c ? (f: number) => onProgress(Math.max(0, Math.min(1, (f * span - c.from) / Math.max(span, 1e-3)))) : onProgress;
  const log = await ffmpeg(args, span, progress, true);
  if (c && seekTo > 0 && (log.match(/\[showinfo@pre @[^\]]*\] n:/g)?.length ?? 0) < 2) return null;
  const times = [...log.matchAll(/\[showinfo@kf @[^\]]*\] n:\s*\d+\s+pts:\s*-?\d+\s+pts_time:([\d.]+)/g)].map((m) => Number(m[1]));
  const scores: number[] = [];
  // metadata=print logs "frame:N pts:.. pts_time:.." then "lavfi.scene_score=0.x" for each selected frame
  for (const block of log.split(/\[metadata@kf @[^\]]*\] frame:/).slice(1)) {
    const m = /lavfi\.scene_score=([\d.]+)/.exec(block);
    scores.push(m ? Number(m[1]) : 0);
  }
  const files = fs
    .readdirSync(outDir)
    .filter((f) => /^kf_\d+\.jpg$/.test(f))
    .sort();
  return files.map((f, i) => ({ t: times[i] ?? 0, file: path.join(outDir, f), scene: scores[i] ?? 0 }));
}

/** 16 kHz mono PCM WAV of the first audio track, or null when there is none. */
export async function extractAudio(input: string, wavPath: string, duration: number): Promise<string | null> {
  try {
    await ffmpeg(['-y', '-i', input, '-vn', '-map', '0:a:0', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', wavPath], duration);
    return wavPath;
  } catch (err) {
    if (/matches no streams|does not contain any stream|Output file .* does not contain/i.test((err as Error).message)) return null;
    throw err;
  }
}

export async function hasAudio(input: string) {
  const { stdout } = await execTool(tools.ffprobe, [
    '-v',
    'error',
    '-select_streams',
    'a',
    '-show_entries',
    'stream=index',
    '-of',
    'csv=p=0',
    input,
  ]);
  return stdout.trim().length > 0;
}
