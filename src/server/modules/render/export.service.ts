import {
  MSG_RENDER,
  RENDER_MAX_CLIPS,
  RENDER_MAX_SECONDS,
  exportFileNames,
  renderSeconds,
  sanitiseFilename,
  type CompilationExportBody,
  type ExportFormat,
  type RenderRange,
} from '../../../contract';
import { badRequest, notFound } from '../../errors';
import type { UserRow } from '../accounts/user.repository';
import type { MediaRow } from '../libraries/media.repository';
import { writeEdl } from './exports/edl';
import { writeFcpxml } from './exports/fcpxml';
import { writeMlt } from './exports/mlt';
import { writeOtio } from './exports/otio';
import { frameAt, sourceRate, type ExportSource, type ExportTimeline } from './exports/timeline';

/** A clip of a request as a compilation checks it (RenderService.checkedClip). */
interface CheckedClip {
  mediaId: string;
  start: number;
  end: number;
  name: string;
  range: RenderRange;
}

export interface ExportDeps {
  /** The compilation's check of one clip: ownership (404), processed (409), range, no image (400). */
  checkClip(user: UserRow, c: { libraryId: string; mediaId: string; start: number; end: number }): Promise<CheckedClip>;
  media: { byId(id: string): Promise<MediaRow | undefined> };
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
 * Hand-off to video editors (issue 39): a compilation (or one moment, a one-clip body) as a project
 * file referencing the originals by file name, with each clip's source in and out points in frames
 * at the original's own rate. Checked as a compilation is (ownership, state, ranges, limits, no
 * images); written at once, free, nothing queued.
 */
export class ExportService {
  constructor(private readonly d: ExportDeps) {}

  async export(user: UserRow, body: CompilationExportBody) {
    if (body.clips.length > RENDER_MAX_CLIPS) throw badRequest(MSG_RENDER.tooManyClips);
    const checked: CheckedClip[] = [];
    for (const c of body.clips) checked.push(await this.d.checkClip(user, c));
    if (renderSeconds(checked.map((c) => c.range)) > RENDER_MAX_SECONDS + 1e-6) throw badRequest(MSG_RENDER.tooLong);
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
    const stem = (n: string) => n.replace(/\.[^.]+$/, '');
    const fallback = checked.length === 1 ? stem(checked[0]!.name) : 'clipseek-compilation';
    // The extension is the format's name (EXPORT_FORMAT_EXTENSIONS).
    const filename = sanitiseFilename(body.filename, fallback, body.format);
    const timeline: ExportTimeline = {
      title: stem(filename),
      clips: checked.map((c) => {
        const source = sources.get(c.mediaId)!;
        const from = frameAt(c.start, source.rate);
        return { source, in: from, out: Math.max(from + 1, frameAt(c.end, source.rate)) };
      }),
    };
    return { text: WRITERS[body.format](timeline), filename, contentType: EXPORT_CONTENT_TYPES[body.format] };
  }
}
