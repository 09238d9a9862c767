/**
 * Server-rendered downloads (libraries spec section 7 "Rendering", section 9 constants): MP4
 * compilations, GIFs and SRT transcripts. The request schemas, and the types derived from them,
 * are schemas/render.ts.
 */

/** Render height (section 9) and the heights a compilation may ask for. */
export const RENDER_DEFAULT_HEIGHT = 720;
export const RENDER_HEIGHTS = [360, 480, 720, 1080] as const;
export type RenderHeight = (typeof RENDER_HEIGHTS)[number];
/** Watermark default (section 9). */
export const RENDER_WATERMARK_DEFAULT = true;
/** Rendering queue (section 9): at most this many renders at once and starts per second, across all processes. */
export const RENDER_QUEUE_CONCURRENCY = 16;
export const RENDER_QUEUE_STARTS_PER_SECOND = 2;
/** Not named by the spec: limits of one request. */
export const RENDER_MAX_CLIPS = 50;
export const RENDER_MAX_SECONDS = 600;
export const GIF_MAX_SECONDS = 30;
export const GIF_MAX_FPS = 15;
export const GIF_MAX_WIDTH = 480;
/**
 * Publish-ready output (issue 39; not named by the spec). The picture's shape: 'source' keeps the
 * first clip's own aspect (letter/pillar-boxing the others, as before); any other ratio crops each
 * clip to it, the window following the people and faces ingest found unless the clip's `framing`
 * fixes it.
 */
export const RENDER_ASPECTS = ['source', '16:9', '9:16', '1:1', '4:5'] as const;
export type RenderAspect = (typeof RENDER_ASPECTS)[number];
export const RENDER_ASPECT_DEFAULT: RenderAspect = 'source';
export const RENDER_ASPECT_LABELS: Record<RenderAspect, string> = {
  source: 'Original',
  '16:9': 'Landscape 16:9',
  '9:16': 'Vertical 9:16',
  '1:1': 'Square 1:1',
  '4:5': 'Portrait 4:5',
};
/** Width over height of each cropped aspect. */
export const RENDER_ASPECT_RATIO: Record<Exclude<RenderAspect, 'source'>, number> = {
  '16:9': 16 / 9,
  '9:16': 9 / 16,
  '1:1': 1,
  '4:5': 4 / 5,
};
/**
 * The picture of a cropped aspect whose short side is `short` (even sides): 9:16 at 720 is 720x1280,
 * 1:1 720x720. The render's canvas (`short` its height) and an MLT export's (the original's short side).
 */
export function croppedCanvas(aspect: Exclude<RenderAspect, 'source'>, short: number): { width: number; height: number } {
  const even = (n: number) => Math.max(2, 2 * Math.round(n / 2));
  const ratio = RENDER_ASPECT_RATIO[aspect];
  return ratio < 1 ? { width: even(short), height: even(short / ratio) } : { width: even(short * ratio), height: even(short) };
}
/**
 * Burned-in caption styles: a bar along the bottom, big centred words with the spoken one
 * highlighted (shorts), plain subtitles. Captions cost nothing extra.
 */
export const CAPTION_STYLES = ['bar', 'words', 'subtitle'] as const;
export type CaptionStyle = (typeof CAPTION_STYLES)[number];
export const CAPTION_STYLE_LABELS: Record<CaptionStyle, string> = {
  bar: 'Bottom bar',
  words: 'Word by word (shorts)',
  subtitle: 'Plain subtitles',
};
/** Subtitle conventions of every caption Clipseek writes (burned in, soft track, SRT/WebVTT). */
export const CAPTION_MAX_LINES = 2;
export const CAPTION_MAX_LINE_CHARS = 42;
/** A cue stays at least this long on screen (unless the clip ends first: no caption crosses a cut). */
export const CAPTION_MIN_SECONDS = 0.833;
export const CAPTION_MAX_SECONDS = 7;
/** Hand-off to video editors: project files referencing the original files, with the clips' source in/out points. */
export const EXPORT_FORMATS = ['mlt', 'fcpxml', 'edl', 'otio'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_FORMAT_LABELS: Record<ExportFormat, string> = {
  mlt: 'Kdenlive / Shotcut (MLT)',
  fcpxml: 'Final Cut Pro / DaVinci Resolve / Premiere (FCPXML)',
  edl: 'CMX 3600 EDL',
  otio: 'OpenTimelineIO',
};
export const EXPORT_FORMAT_EXTENSIONS: Record<ExportFormat, string> = { mlt: 'mlt', fcpxml: 'fcpxml', edl: 'edl', otio: 'otio' };
/**
 * The names an export gives the originals it references, as the originals download saves them
 * (API.mediaOriginal's `filename`: no path separators, quotes or line breaks), unique across the
 * export: a second `a.mp4` of another media is `a (2).mp4`. The app downloads each original under
 * the name this gives, so the project finds it beside itself.
 */
export function exportFileNames(media: ReadonlyArray<{ mediaId: string; filename: string }>): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const m of media) {
    if (names.has(m.mediaId)) continue;
    // Room for the suffix within the route's 200 characters.
    const clean =
      m.filename
        .trim()
        .replace(/[/\\\r\n"]/g, '_')
        .slice(0, 190) || 'media';
    const dot = clean.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [clean.slice(0, dot), clean.slice(dot)] : [clean, ''];
    let name = clean;
    for (let i = 2; taken.has(name.toLowerCase()); i++) name = `${stem} (${i})${ext}`;
    taken.add(name.toLowerCase());
    names.set(m.mediaId, name);
  }
  return names;
}
export const SUBTITLE_FORMATS = ['srt', 'vtt'] as const;
export type SubtitleFormat = (typeof SUBTITLE_FORMATS)[number];
/** How long a POST waits for its render before answering 202 with a render id to poll. */
export const RENDER_WAIT_MS = 25_000;
/** How often the client should poll the status route while a render runs. */
export const RENDER_POLL_MS = 1000;

// The request shapes (CompilationBody, GifBody, SrtQuery...) are schemas/render.ts.

/**
 * Issue 39: the automatic crop path of a media range for an aspect. `points` are the window's centre
 * (fractions of the displayed picture) at media times, smoothed, to be joined linearly; a step (two
 * points at one time) is a cut at a shot change. `width`/`height`: the window's size as fractions.
 * Nothing found: one point at the centre, `subject` false.
 */
export interface FramingAnswer {
  aspect: RenderAspect;
  width: number;
  height: number;
  points: Array<{ t: number; x: number; y: number }>;
  subject: boolean;
}

export type RenderState = 'queued' | 'rendering' | 'completed' | 'failed';

/**
 * The answer of both POSTs and of the status route. `url` (a signed, expiring download link,
 * Content-Disposition: attachment) is there once `status` is 'completed'; the POSTs answer 200 with
 * it when the render finishes within RENDER_WAIT_MS, else 202 without it: poll
 * GET API.renderStatus(renderId) every RENDER_POLL_MS and show `progress` (0..1).
 */
export interface RenderAnswer {
  renderId: string;
  status: RenderState;
  progress: number;
  url?: string;
  /** Seconds of output; `credits` charged for it (0 with the watermark). */
  duration: number;
  credits: number;
  /**
   * Why it failed, when `status` is 'failed' (answered with 200: the request was fine, the render
   * is what failed). The same request again starts a new attempt.
   */
  error?: string;
}

/** Strings of rendering (section 8), verbatim. */
export const MSG_RENDER = {
  insufficientCreditsTitle: 'Insufficient credits',
  insufficientCredits: (cost: number, balance: number) =>
    `Downloading without watermarks would cost ${cost} credits and you have ${balance > 0 ? Math.floor(balance) : 'no'} credits left.`,
  compilationFailed: 'Failed to render compilation',
  gifFailed: 'Failed to render gif',
  mergeImages: 'Merging with images is not implemented yet.',
  gifCompilationsSoon: 'GIF compilations coming soon!',
  downloadMomentFailed: 'Failed to download moment',
  // Server-side messages (not named by the spec; stable wording)
  startBeforeEnd: 'The start of a clip must be before its end.',
  outsideMedia: (duration: number) => `The range is outside the media (it is ${duration.toFixed(2)} s long).`,
  tooManyClips: `A compilation holds at most ${RENDER_MAX_CLIPS} clips.`,
  tooLong: `A render is at most ${RENDER_MAX_SECONDS / 60} minutes long.`,
  gifTooLong: `A GIF is at most ${GIF_MAX_SECONDS} seconds long.`,
  mediaNotReady: 'This media is not processed yet.',
  imageGif: 'A GIF can only be made from a video.',
  renderNotFound: 'Render not found.',
  /** The reason of a render that failed for no reason of the request's (the tool failed). */
  failedReason: 'Something went wrong while making this file. Try again; if it fails again, please contact support.',
  mediaGone: 'The media of this render was deleted.',
  noTranscript: 'No transcript available',
} as const;

/** SRT time code HH:MM:SS,mmm. */
export function srtTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)},${pad(ms % 1000, 3)}`;
}

/**
 * SRT of transcript segments (section 5: segments without text are skipped). With a range, only
 * segments overlapping it, clipped to it, with times relative to its start.
 */
export function toSrt(
  segments: ReadonlyArray<{ start: number; end: number; text: string }>,
  range?: { start: number; end: number },
): string {
  const cues: string[] = [];
  for (const s of [...segments].sort((a, b) => a.start - b.start)) {
    const text = s.text.trim();
    if (!text) continue;
    let { start, end } = s;
    if (range) {
      if (end <= range.start || start >= range.end) continue;
      start = Math.max(start, range.start) - range.start;
      end = Math.min(end, range.end) - range.start;
    }
    cues.push(`${cues.length + 1}\n${srtTime(start)} --> ${srtTime(end)}\n${text}\n`);
  }
  return cues.join('\n');
}

/** A download name: no path separators, quotes or control characters, with the right extension. */
export function sanitiseFilename(
  name: string | undefined,
  fallback: string,
  ext: 'mp4' | 'gif' | 'srt' | 'vtt' | 'mlt' | 'fcpxml' | 'edl' | 'otio',
): string {
  let base = [...(name ?? '')]
    .map((ch) => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f || '/\\:*?"<>|'.includes(ch) ? '_' : ch))
    .join('')
    .replace(/_{2,}/g, '_')
    .trim()
    .replace(/^\.+/, '');
  if (!base) base = fallback;
  base = base.replace(new RegExp(`\\.${ext}$`, 'i'), '').slice(0, 150);
  return `${base}.${ext}`;
}
