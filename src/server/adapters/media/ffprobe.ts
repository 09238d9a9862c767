import { spawnSync } from 'node:child_process';
import { execTool } from '../process/tools';

export interface ProbeResult {
  kind: 'video' | 'image';
  duration: number;
  width: number;
  height: number;
  frameCount: number;
  videoCodec: string | null;
  audioCodec: string | null;
  frameRate: number | null;
  formatName: string;
}

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

/** Reads duration, size and frame count without decoding (packets are counted, not frames). */
export async function probe(input: string): Promise<ProbeResult> {
  let out: string;
  try {
    ({ stdout: out } = await execTool(
      tools.ffprobe,
      [
        '-v',
        'error',
        '-count_packets',
        '-show_entries',
        'format=duration,format_name:stream=codec_type,codec_name,width,height,nb_read_packets,nb_frames,avg_frame_rate,r_frame_rate,duration',
        '-of',
        'json',
        input,
      ],
      { maxBuffer: 8 * 1024 * 1024, timeout: 120_000 },
    ));
  } catch (err) {
    const msg = (err as { stderr?: string }).stderr?.trim().split('\n').pop() ?? '';
    throw new NotMediaError(`This file is not a video or image we can read${msg ? ` (${msg.replace(/^.*?: /, '')})` : ''}.`);
  }
  const j = JSON.parse(out) as {
    format?: { duration?: string; format_name?: string };
    streams?: Array<Record<string, string | number | undefined>>;
  };
  const streams = j.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!video || !Number(video.width)) throw new NotMediaError('This file has no picture we can read.');
  const formatName = j.format?.format_name ?? '';
  const codec = String(video.codec_name ?? '');
  const duration = Number(j.format?.duration ?? video.duration ?? 0) || 0;
  const packets = Number(video.nb_read_packets ?? video.nb_frames ?? 0) || 0;
  const isImage = (formatName.includes('image2') || formatName.endsWith('_pipe') || IMAGE_CODECS.has(codec)) && packets <= 1 && !audio;
  const fr = rate(String(video.avg_frame_rate ?? '')) ?? rate(String(video.r_frame_rate ?? ''));
  return {
    kind: isImage ? 'image' : 'video',
    duration: isImage ? 0 : duration,
    width: Number(video.width),
    height: Number(video.height),
    frameCount: isImage ? 1 : packets,
    videoCodec: codec || null,
    audioCodec: audio ? String(audio.codec_name ?? '') : null,
    frameRate: isImage ? null : fr,
    formatName,
  };
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

/** A still frame at `seconds`, scaled to at most `maxWidth` wide, as WebP. */
export async function stillWebp(input: string, seconds: number, maxWidth: number, quality = 40): Promise<Buffer> {
  const { stdout } = await execTool(
    tools.ffmpeg,
    [
      '-v',
      'error',
      '-ss',
      String(Math.max(0, seconds)),
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
    { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024, timeout: 60_000 },
  );
  return stdout;
}
