import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { execTool, type ToolOptions } from '../process/tools';

export interface ProbeResult {
  kind: 'video' | 'image';
  /** Seconds: the container's, or (for a file cut short) up to the last frame that can be read. */
  duration: number;
  /** As displayed: rotation (display matrix) and sample aspect ratio applied. */
  width: number;
  height: number;
  frameCount: number;
  videoCodec: string | null;
  audioCodec: string | null;
  /** Frames a second on average (a variable rate's mean). */
  frameRate: number | null;
  /**
   * The rate every frame time fits (ffprobe's r_frame_rate): above the average for a variable rate
   * (a screen recording), so a render at it shows each frame; null when it is implausible (> 120).
   */
  maxFrameRate: number | null;
  formatName: string;
  /** As stored in the stream, before rotation and sample aspect. */
  codedWidth: number;
  codedHeight: number;
  /** Clockwise degrees a player turns the stored picture (0, 90, 180, 270). */
  rotation: number;
  pixFmt: string | null;
  interlaced: boolean;
  /** The file ends before its header says (a recording or copy cut off): duration is what can be read. */
  truncated?: boolean;
}

/** What `probe` has returned since the first version: every stored probe has these. */
type FirstProbeFields = 'kind' | 'duration' | 'width' | 'height' | 'frameCount' | 'videoCodec' | 'audioCodec' | 'frameRate' | 'formatName';

/**
 * A probe as kept in `media.probe`: what `probe` returned when the media was indexed. Rows written
 * before a field was probed lack it, so every later field is optional; readers say what its absence means.
 */
export type StoredProbe = Pick<ProbeResult, FirstProbeFields> & Partial<Omit<ProbeResult, FirstProbeFields>>;

export class NotMediaError extends Error {}

const IMAGE_CODECS = new Set([
  'png',
  'mjpeg',
  'jpegls',
  'webp',
  'gif',
  'bmp',
  'tiff',
  'svg',
  'heif',
  'hevc_image',
  'av1_image',
  'jpeg2000',
]);

const rate = (r: string | undefined) => {
  if (!r) return null;
  const [n, d] = r.split('/').map(Number);
  return n && d ? n / d : null;
};

/** ffmpeg/ffprobe: FFMPEG_PATH / FFPROBE_PATH when set, else the ones on PATH. */
export const tools = {
  ffmpeg: process.env.FFMPEG_PATH || 'ffmpeg',
  ffprobe: process.env.FFPROBE_PATH || 'ffprobe',
};

/**
 * 'media: ffmpeg, ffprobe not in the system (apt-get install ffmpeg)' naming the tools that do not
 * run, or null when both do. Without them nothing can be indexed.
 */
export function missingMediaTools(): string | null {
  const absent = (['ffmpeg', 'ffprobe'] as const).filter(
    (t) => spawnSync(tools[t], ['-version'], { stdio: 'ignore', timeout: 10_000 }).status !== 0,
  );
  return absent.length ? `media: ${absent.map((t) => tools[t]).join(', ')} not in the system (apt-get install ffmpeg)` : null;
}

/** The smallest picture we index: anything smaller is no one's video (a tracking pixel, a broken export). */
export const MIN_MEDIA_SIDE = 16;

type Stream = Record<string, string | number | undefined> & {
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: Array<{ rotation?: number }>;
};

/** Clockwise degrees a player turns the stored picture: the display matrix (ffprobe gives it counter-clockwise), else the old `rotate` tag. */
export function rotationOf(s: Pick<Stream, 'side_data_list' | 'tags'>): number {
  const matrix = s.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  const degrees = matrix !== undefined ? -matrix : Number(s.tags?.rotate ?? 0) || 0;
  return (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
}

/** A sample aspect ratio as a number (1 when unknown or square). */
const sampleAspect = (sar: unknown) => {
  const [n, d] = String(sar ?? '')
    .split(':')
    .map(Number);
  return n && d ? n / d : 1;
};

/** Whether a local file starts like an MP4/MOV (an `ftyp` box first); unknown (false) for a URL. */
function startsLikeMp4(input: string): boolean {
  try {
    const fd = fs.openSync(input, 'r');
    try {
      const head = Buffer.alloc(12);
      fs.readSync(fd, head, 0, 12, 0);
      return head.toString('latin1', 4, 8) === 'ftyp';
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** What ffprobe said, as a sentence a person can act on. */
function unreadable(input: string, stderr: string): NotMediaError {
  const last =
    stderr
      .trim()
      .split('\n')
      .pop()
      ?.replace(/^.*?: /, '') ?? '';
  if (startsLikeMp4(input))
    return new NotMediaError(
      'This video file is incomplete: its index (the MP4 "moov" box) is missing or cut, as when a recording or a copy is cut off. Export or copy it again.',
    );
  return new NotMediaError(`This file is not a video or image we can read${last ? ` (${last})` : ''}.`);
}

/**
 * Reads what ingest needs without decoding: duration, the displayed size (rotation and sample
 * aspect applied), frame count (packets are counted, not frames), codecs and frame rate. A file that
 * ends before its header says gets the duration up to its last readable frame.
 */
export async function probe(input: string): Promise<ProbeResult> {
  let out: string;
  try {
    ({ stdout: out } = await execTool(
      tools.ffprobe,
      [
        ...['-v', 'error', '-count_packets', '-show_entries'],
        'format=duration,format_name,start_time:stream=codec_type,codec_name,width,height,pix_fmt,field_order,sample_aspect_ratio,' +
          'nb_read_packets,nb_frames,avg_frame_rate,r_frame_rate,duration:stream_disposition=attached_pic:stream_tags=rotate:' +
          'stream_side_data=rotation',
        ...['-of', 'json', input],
      ],
      { maxBuffer: 8 * 1024 * 1024, timeout: 120_000 },
    ));
  } catch (err) {
    throw unreadable(input, (err as { stderr?: string }).stderr ?? '');
  }
  const j = JSON.parse(out) as { format?: { duration?: string; format_name?: string }; streams?: Stream[] };
  const streams = j.streams ?? [];
  // A cover picture (attached_pic) is not the video.
  const video =
    streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic) ?? streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!video || !Number(video.width)) throw new NotMediaError('This file has no picture we can read.');
  const formatName = j.format?.format_name ?? '';
  const codec = String(video.codec_name ?? '');
  const packets = Number(video.nb_read_packets ?? video.nb_frames ?? 0) || 0;
  const isImage = (formatName.includes('image2') || formatName.endsWith('_pipe') || IMAGE_CODECS.has(codec)) && packets <= 1 && !audio;
  const fr = rate(String(video.avg_frame_rate ?? '')) ?? rate(String(video.r_frame_rate ?? ''));
  const base = rate(String(video.r_frame_rate ?? ''));
  const codedWidth = Number(video.width);
  const codedHeight = Number(video.height);
  if (codedWidth < MIN_MEDIA_SIDE || codedHeight < MIN_MEDIA_SIDE)
    throw new NotMediaError(
      `This ${isImage ? 'image' : 'video'} is too small to index (${codedWidth} × ${codedHeight} pixels): the smallest we take is ${MIN_MEDIA_SIDE} × ${MIN_MEDIA_SIDE}.`,
    );
  // A photo's EXIF orientation is on its frame, not its stream (ffmpeg turns it upright as it decodes).
  const rotation = isImage ? await imageRotation(input) : rotationOf(video);
  const sar = sampleAspect(video.sample_aspect_ratio);
  // Non-square pixels widen (or narrow) the picture; a quarter turn swaps the sides.
  const shownWidth = Math.max(1, Math.round(codedWidth * sar));
  const [width, height] = rotation % 180 ? [codedHeight, shownWidth] : [shownWidth, codedHeight];
  let duration = Number(j.format?.duration ?? video.duration ?? 0) || 0;
  // The header promises more frames than the file holds: it was cut off. Its duration is what can be read.
  const promised = Number(video.nb_frames ?? 0) || 0;
  const truncated = !isImage && promised > 0 && packets > 0 && packets < promised * 0.98;
  if (truncated) duration = Math.min(duration, await readableEnd(input));
  return {
    kind: isImage ? 'image' : 'video',
    duration: isImage ? 0 : duration,
    width,
    height,
    frameCount: isImage ? 1 : packets,
    videoCodec: codec || null,
    audioCodec: audio ? String(audio.codec_name ?? '') : null,
    frameRate: isImage ? null : fr,
    maxFrameRate: isImage || !base || base > 120 ? null : Math.max(base, fr ?? 0),
    formatName,
    codedWidth,
    codedHeight,
    rotation,
    pixFmt: video.pix_fmt ? String(video.pix_fmt) : null,
    interlaced: /^(tt|bb|tb|bt)$/.test(String(video.field_order ?? '')),
    ...(truncated ? { truncated } : {}),
  };
}

/** Clockwise degrees a photo's EXIF orientation turns it (0 when it has none). */
async function imageRotation(input: string): Promise<number> {
  try {
    const { stdout } = await execTool(
      tools.ffprobe,
      [
        '-v',
        'error',
        '-select_streams',
        'V:0',
        '-read_intervals',
        '%+#1',
        '-show_entries',
        'frame_side_data=rotation',
        '-of',
        'json',
        input,
      ],
      { timeout: 60_000 },
    );
    const frame = (JSON.parse(stdout) as { frames?: Array<Pick<Stream, 'side_data_list'>> }).frames?.[0];
    return frame ? rotationOf(frame) : 0;
  } catch {
    return 0;
  }
}

/** The end (seconds from the start) of the last video frame a file cut short still holds. */
async function readableEnd(input: string): Promise<number> {
  const { stdout } = await execTool(
    tools.ffprobe,
    ['-v', 'error', '-select_streams', 'V:0', '-show_entries', 'packet=pts_time,duration_time:format=start_time', '-of', 'csv=p=0', input],
    { maxBuffer: 256 * 1024 * 1024, timeout: 120_000 },
  );
  let end = 0;
  let start = 0;
  for (const line of stdout.split('\n')) {
    const [a, b] = line.split(',').map(Number);
    if (b === undefined || Number.isNaN(b)) {
      if (a !== undefined && Number.isFinite(a) && line.trim() && !line.includes(',')) start = a;
      continue;
    }
    if (Number.isFinite(a)) end = Math.max(end, a! + (Number.isFinite(b) ? b : 0));
  }
  return Math.max(0, end - start);
}

/** Duration from the container headers only: fast even for very large files. */
export async function probeQuick(input: string): Promise<{ duration: number }> {
  let out: string;
  try {
    ({ stdout: out } = await execTool(tools.ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'json', input], {
      timeout: 60_000,
    }));
  } catch {
    throw new NotMediaError('This file is not a video or image we can read.');
  }
  const d = Number((JSON.parse(out) as { format?: { duration?: string } }).format?.duration ?? 0);
  return { duration: Number.isFinite(d) ? d : 0 };
}

/**
 * ffmpeg writing WebP to a pipe cannot seek back to the RIFF header: it leaves the header's size 0
 * and appends the 4 bytes it meant for it after the last chunk. Strict readers (sharp, Chromium
 * for larger pictures) refuse such a file. Here the file ends after its last chunk and its header
 * says its size.
 */
export function withRiffSize(webp: Buffer): Buffer {
  if (webp.length < 20 || webp.toString('latin1', 0, 4) !== 'RIFF' || webp.toString('latin1', 8, 12) !== 'WEBP') return webp;
  let end = 12;
  while (end + 8 <= webp.length) {
    const size = webp.readUInt32LE(end + 4);
    const next = end + 8 + size + (size & 1);
    if (next > webp.length) break;
    end = next;
  }
  const out = webp.subarray(0, end);
  out.writeUInt32LE(end - 8, 4);
  return out;
}

/** A still frame at `seconds`, scaled to at most `maxWidth` wide, as WebP. */
export async function stillWebp(
  input: string,
  seconds: number,
  maxWidth: number,
  quality = 40,
  priority: ToolOptions = {},
): Promise<Buffer> {
  const { stdout } = await execTool(
    tools.ffmpeg,
    [
      '-v',
      'error',
      // No seek for the start: ffmpeg 5.1 seeking a photo to 0 (an EXIF-rotated JPEG) gives no frame at all.
      ...(seconds > 0 ? ['-ss', String(seconds)] : []),
      '-i',
      input,
      '-frames:v',
      '1',
      '-vf',
      `scale='min(${maxWidth},iw)':-2`,
      '-c:v',
      'libwebp',
      '-quality',
      String(quality),
      '-f',
      'webp',
      'pipe:1',
    ],
    { ...priority, encoding: 'buffer', maxBuffer: 16 * 1024 * 1024, timeout: 60_000 },
  );
  return withRiffSize(stdout);
}

/**
 * A photo as it is looked at: upright (ffmpeg applies the EXIF orientation as it decodes), scaled
 * down (never up) to fit `maxSide` × `maxSide`, as WebP; transparency is kept.
 */
export async function pictureWebp(input: string, maxSide: number, quality = 82, priority: ToolOptions = {}): Promise<Buffer> {
  const { stdout } = await execTool(
    tools.ffmpeg,
    [
      ...['-v', 'error', '-i', input, '-frames:v', '1'],
      ...['-vf', `scale='min(${maxSide},iw)':'min(${maxSide},ih)':force_original_aspect_ratio=decrease`],
      ...['-c:v', 'libwebp', '-quality', String(quality), '-f', 'webp', 'pipe:1'],
    ],
    { ...priority, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
  );
  if (!stdout.length) throw new Error('ffmpeg gave no picture');
  return withRiffSize(stdout);
}

/**
 * Seconds of the video at an https `url`, from its headers only (a playlist from its list), or null
 * when it cannot be read in `timeoutMs`. Every connection goes through `proxy` (the egress check):
 * the option for the first, the environment (which ffmpeg's TLS honours) for the rest, such as a
 * playlist's segments; only https may be opened (no file, no plain http).
 */
export async function remoteDuration(url: string, proxy: string, timeoutMs = 20_000): Promise<number | null> {
  try {
    const { stdout } = await execTool(
      tools.ffprobe,
      [
        ...['-v', 'error', '-protocol_whitelist', 'https,tls,tcp,httpproxy', '-http_proxy', proxy, '-rw_timeout', '10000000'],
        ...['-show_entries', 'format=duration', '-of', 'json', url],
      ],
      {
        timeout: timeoutMs,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', http_proxy: proxy, https_proxy: proxy, no_proxy: '' },
      },
    );
    const seconds = Number((JSON.parse(stdout) as { format?: { duration?: string } }).format?.duration);
    return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
  } catch {
    return null;
  }
}
