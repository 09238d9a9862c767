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

/**
 * HLS VOD with 2 s segments, at most 720p. Remuxes without re-encoding when the source is already
 * H.264/AAC and small enough; otherwise transcodes with a keyframe every 2 s so segments stay short.
 */
export async function makeHls(
  input: string,
  outDir: string,
  o: { duration: number; height: number; videoCodec: string | null; audioCodec: string | null },
  onProgress?: (f: number) => void,
) {
  fs.mkdirSync(outDir, { recursive: true });
  const copy = o.videoCodec === 'h264' && (o.audioCodec === null || o.audioCodec === 'aac') && o.height <= 720;
  const video = copy
    ? ['-c:v', 'copy']
    : [
        '-vf',
        "scale=-2:'min(720,ih)'",
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '26',
        '-pix_fmt',
        'yuv420p',
        '-force_key_frames',
        'expr:gte(t,n_forced*2)',
      ];
  const audio =
    o.audioCodec === null ? ['-an'] : o.audioCodec === 'aac' && copy ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'];
  await ffmpeg(
    [
      '-y',
      '-i',
      input,
      '-map',
      '0:v:0',
      ...(o.audioCodec ? ['-map', '0:a:0'] : []),
      ...video,
      ...audio,
      '-f',
      'hls',
      '-hls_time',
      '2',
      '-hls_playlist_type',
      'vod',
      '-hls_segment_filename',
      path.join(outDir, 'seg_%05d.ts'),
      path.join(outDir, 'playlist.m3u8'),
    ],
    o.duration,
    onProgress,
  );
  return { copied: copy, segments: fs.readdirSync(outDir).filter((f) => f.endsWith('.ts')).length };
}

/**
 * A single image holding `count` frames (width 140 each) taken every `interval` seconds. Only the
 * sync frames are decoded (each slot shows the last one at or before its time): a strip frame is a
 * glance, and skipping the rest made this stage ~20x cheaper (frame-exact pictures come from the
 * browser's own decoder on the timeline).
 */
export async function thumbnailStrip(input: string, outFile: string, o: { duration: number; count: number; width: number }) {
  const interval = Math.max(o.duration / o.count, 0.04);
  await ffmpeg(
    [
      '-y',
      '-skip_frame',
      'nokey',
      '-i',
      input,
      '-vf',
      `fps=1/${interval},scale=${o.width}:-2,tile=${o.count}x1`,
      '-frames:v',
      '1',
      '-c:v',
      'libwebp',
      '-quality',
      '40',
      outFile,
    ],
    o.duration,
  );
  return { interval };
}

export interface ExtractedFrame {
  t: number;
  file: string;
  /** Scene-change score of the frame (> threshold: a new shot starts here). */
  scene: number;
}

/**
 * One decoding pass picks keyframes: every scene change (ffmpeg's scene score) and, inside long
 * shots, a frame at least every `maxGap` seconds. Frames are written as JPEG at most 640 wide.
 */
export async function extractKeyframes(
  input: string,
  outDir: string,
  o: { duration: number; threshold: number; maxGap: number },
  onProgress?: (f: number) => void,
): Promise<ExtractedFrame[]> {
  fs.mkdirSync(outDir, { recursive: true });
  const select = `select='isnan(prev_selected_t)+gt(scene\\,${o.threshold})+gte(t-prev_selected_t\\,${o.maxGap})'`;
  const log = await ffmpeg(
    [
      '-y',
      '-skip_frame',
      'noref',
      '-skip_loop_filter',
      'all',
      '-i',
      input,
      '-an',
      '-vf',
      `${select},metadata=print:key=lavfi.scene_score,showinfo,scale='min(640,iw)':-2`,
      '-fps_mode',
      'vfr',
      '-q:v',
      '4',
      path.join(outDir, 'kf_%05d.jpg'),
    ],
    o.duration,
    onProgress,
    true,
  );
  const times = [...log.matchAll(/\bn:\s*\d+\s+pts:\s*\d+\s+pts_time:([\d.]+)/g)].map((m) => Number(m[1]));
  const scores: number[] = [];
  // metadata=print logs "frame:N pts:.. pts_time:.." then "lavfi.scene_score=0.x" for each selected frame
  for (const block of log.split(/\[Parsed_metadata[^\]]*\] frame:/).slice(1)) {
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
