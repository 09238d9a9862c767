import { MSG_RENDER, renderTime, type FramingAnswer, type FramingQuery, type RenderAspect } from '../../../contract';
import { AppError, badRequest } from '../../errors';
import type { UserRow } from '../accounts/user.repository';
import type { MediaRow } from '../libraries/media.repository';
import { capPoints, framingPath, windowSize, type FramingKeyframe, type FramingShot } from './framing';

/** A clip's crop path keeps at most this many points (ffmpeg evaluates it on every frame). */
export const FRAMING_MAX_POINTS = 48;

/** A clip's crop window (fractions of the displayed picture) and its centre over time, `t` from the clip's start. */
export interface ClipFraming {
  width: number;
  height: number;
  points: Array<{ t: number; x: number; y: number }>;
}

/** A frame at 30 fps: the slack allowed past the media's end (as for renders). */
const END_SLACK = 1 / 30;

export interface FramingDeps {
  /** The user's media (404 for another user's or unknown). */
  owned(userId: string, libraryId: string, mediaId: string): Promise<MediaRow>;
  subjects(mediaId: string, start: number, end: number): Promise<{ shots: FramingShot[]; keyframes: FramingKeyframe[] }>;
}

/** The automatic framing of a range (framing.ts) from what ingest found: for the app's clip editor and for renders. */
export class FramingService {
  constructor(private readonly d: FramingDeps) {}

  /** GET API.mediaFraming: the path of a range of the user's media, once it is processed. */
  async forUser(user: UserRow, libraryId: string, mediaId: string, q: FramingQuery): Promise<FramingAnswer> {
    const m = await this.d.owned(user.id, libraryId, mediaId);
    if (m.status !== 'completed') throw new AppError('conflict', MSG_RENDER.mediaNotReady);
    const start = renderTime(q.start);
    const end = renderTime(q.end);
    if (!(start < end)) throw badRequest(MSG_RENDER.startBeforeEnd);
    if (m.duration !== null && end > m.duration + END_SLACK) throw badRequest(MSG_RENDER.outsideMedia(m.duration));
    return this.path(m, start, m.duration === null ? end : Math.min(end, m.duration), q.aspect);
  }

  /** The path of [start, end] of a media (times of the media) for an aspect. */
  async path(m: Pick<MediaRow, 'id' | 'width' | 'height'>, start: number, end: number, aspect: RenderAspect): Promise<FramingAnswer> {
    const found = aspect === 'source' ? { shots: [], keyframes: [] } : await this.d.subjects(m.id, start, end);
    return framingPath({ aspect, width: m.width, height: m.height, start, end, ...found });
  }

  /**
   * Issue 39: a clip's crop for a cropping aspect, as a render and an editor export frame it: where
   * the user fixed its centre, else following the subject ingest found, times from the clip's start.
   */
  async clip(
    m: Pick<MediaRow, 'id' | 'width' | 'height'>,
    start: number,
    end: number,
    aspect: RenderAspect,
    fixed?: { x: number; y: number },
  ): Promise<ClipFraming> {
    if (fixed) return { ...windowSize(aspect, m.width, m.height), points: [{ t: 0, x: fixed.x, y: fixed.y }] };
    const auto = await this.path(m, start, end, aspect);
    const points = capPoints(auto.points, FRAMING_MAX_POINTS).map((p) => ({ ...p, t: Math.max(0, p.t - start) }));
    return { width: auto.width, height: auto.height, points };
  }
}
