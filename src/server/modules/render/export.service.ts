import {
  MSG_RENDER,
  exportFileNames,
  sanitiseFilename,
  type CompilationClip,
  type CompilationExportBody,
  type CompilationSubtitlesBody,
  type ExportFormat,
} from '../../../contract';
import { notFound } from '../../errors';
import type { UserRow } from '../accounts/user.repository';
import type { MediaRow } from '../libraries/media.repository';
import { writeEdl } from './exports/edl';
import { writeFcpxml } from './exports/fcpxml';
import { writeMlt } from './exports/mlt';
import { writeOtio } from './exports/otio';
import { frameAt, sourceRate, type ExportSource, type ExportTimeline } from './exports/timeline';
import { cuesToSrt, cuesToVtt } from './captions';
import { clipCues, type TranscriptReader } from './compilationCaptions';
import type { FramingService } from './framing.service';

export interface ExportDeps {
  /**
   * The compilation's checks (RenderService.checkedClips): each clip's ownership (404), state (409),
   * range and kind (400), and the limits of clips and length (400); the clips in seconds with their
   * media's name, and the name of a file of them when the request gives none.
   */
  checkClips(
    user: UserRow,
    body: { clips: CompilationClip[] },
  ): Promise<{ clips: Array<{ mediaId: string; start: number; end: number; name: string }>; fallback: string }>;
  media: { byId(id: string): Promise<MediaRow | undefined> };
  transcript: TranscriptReader;
  framing: Pick<FramingService, 'clip'>;
}

const WRITERS: Record<ExportFormat, (t: ExportTimeline) => string> = {
  mlt: writeMlt,
  fcpxml: writeFcpxml,
  edl: writeEdl,
  otio: writeOtio,
};

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  mlt: 'application/xml; charset=utf-8',
  fcpxml: 'application/xml; charset=utf-8',
  edl: 'text/plain; charset=utf-8',
  otio: 'application/json; charset=utf-8',
};

/**
 * Hand-off (issue 39): a compilation (or one moment, a one-clip body) as a video editor's project
 * file referencing the originals by file name, with each clip's source in and out points in frames
 * at the original's own rate, or as its subtitles. Checked as a compilation is (ownership, state,
 * ranges, limits, no images); written at once, free, nothing queued.
 */
export class ExportService {
  constructor(private readonly d: ExportDeps) {}

  /**
   * POST /rendering/compilation/subtitles: the compilation's captions as SRT or WebVTT, on its
   * clock (the clips one after another), as the render's subtitle track has them.
   */
  async subtitles(user: UserRow, body: CompilationSubtitlesBody) {
    const { clips, fallback } = await this.d.checkClips(user, body);
    const cues = await clipCues(this.d.transcript, clips);
    if (!cues.length) throw notFound(MSG_RENDER.noTranscript);
    return {
      text: body.format === 'vtt' ? cuesToVtt(cues) : cuesToSrt(cues),
      format: body.format,
      filename: sanitiseFilename(body.filename, fallback, body.format),
    };
  }

  /** POST /rendering/compilation/export. */
  async export(user: UserRow, body: CompilationExportBody) {
    const { clips: checked, fallback: named } = await this.d.checkClips(user, body);
    const rows = new Map<string, MediaRow>();
    for (const c of checked) {
      if (rows.has(c.mediaId)) continue;
      const m = await this.d.media.byId(c.mediaId);
      if (!m) throw notFound(MSG_RENDER.mediaGone);
      rows.set(c.mediaId, m);
    }
    const names = exportFileNames([...rows.values()].map((m) => ({ mediaId: m.id, filename: m.filename })));
    const sources = new Map<string, ExportSource>();
    for (const m of rows.values()) {
      const rate = sourceRate(m.probe);
      // Frames of the whole original (its available range), at least up to the furthest clip.
      const lastOut = Math.max(...checked.filter((c) => c.mediaId === m.id).map((c) => frameAt(c.end, rate)));
      sources.set(m.id, {
        mediaId: m.id,
        fileName: names.get(m.id)!,
        rate,
        width: m.width ?? m.probe?.width ?? 0,
        height: m.height ?? m.probe?.height ?? 0,
        frames: Math.max(lastOut, Math.round(((m.duration ?? 0) * rate.num) / rate.den)),
        hasAudio: !!m.probe?.audioCodec,
      });
    }
    // The extension is the format's name (EXPORT_FORMAT_EXTENSIONS).
    const filename = sanitiseFilename(body.filename, named, body.format);
    // A cropping aspect frames each clip as its render would (where the user fixed it, else
    // following the subject); the MLT project carries it.
    const aspect = body.aspect && body.aspect !== 'source' ? body.aspect : undefined;
    const clips = await Promise.all(
      checked.map(async (c, i) => {
        const source = sources.get(c.mediaId)!;
        const from = frameAt(c.start, source.rate);
        const clip = { source, in: from, out: Math.max(from + 1, frameAt(c.end, source.rate)) };
        if (!aspect) return clip;
        const m = rows.get(c.mediaId)!;
        const framing = await this.d.framing.clip(
          { id: m.id, width: m.width, height: m.height },
          c.start,
          c.end,
          aspect,
          body.clips[i]!.framing,
        );
        return { ...clip, framing };
      }),
    );
    const timeline: ExportTimeline = { title: filename.replace(/\.[^.]+$/, ''), clips, ...(aspect && { aspect }) };
    return { text: WRITERS[body.format](timeline), filename, contentType: EXPORT_CONTENT_TYPES[body.format] };
  }
}
