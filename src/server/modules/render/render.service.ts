import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  GIF_MAX_SECONDS,
  MSG_RENDER,
  RENDER_ASPECT_DEFAULT,
  RENDER_DEFAULT_HEIGHT,
  RENDER_MAX_CLIPS,
  RENDER_MAX_SECONDS,
  RENDER_QUEUE_CONCURRENCY,
  RENDER_QUEUE_STARTS_PER_SECOND,
  RENDER_WAIT_MS,
  RENDER_WATERMARK_DEFAULT,
  sanitiseFilename,
  toSrt,
  canAfford,
  renderCredits,
  renderSeconds,
  renderTime,
  type RenderRange,
  type CompilationBody,
  type CompilationClip,
  type GifBody,
  type RenderAnswer,
  type RenderAspect,
  type SrtQuery,
} from '../../../contract';
import type { BlobStore } from '../../adapters/blobs/blobStore';
import type { UserRow } from '../accounts/user.repository';
import { AppError, badRequest, notFound } from '../../errors';
import type { MediaRow } from '../libraries/media.repository';
import type { RenderRepository, RenderRow } from './render.repository';
import type { RenderSpec } from '../../db/schema';
import type { JobQueue } from '../ports';
import { holdAt } from '../../testHold';
import { blobKeys } from '../storage/blobKeys';
import { removeRenderInputs, renderSources } from './renderSources';
import type { ClipFraming, FramingService } from './framing.service';
import type { CaptionSegment, CaptionStates } from './captions';
import { captionsOf, renderCaptions } from './compilationCaptions';

export const RENDER_JOB = 'media.render';
/** Outputs are kept this long, then the expiry job removes them (an identical request reuses them until then). */
export const RENDER_OUTPUT_TTL_MS = 24 * 3600 * 1000;
/** Lifetime of a signed download URL. */
export const RENDER_URL_TTL_SECONDS = 3600;
/** A running render's slot lease: a process that dies frees its slot after this. */
const SLOT_LEASE_SECONDS = 15 * 60;
/** A frame at 30 fps: the slack allowed past the media's end. */
const END_SLACK = 1 / 30;

/** A range of a source ready for the renderer. */
export interface RenderSource {
  /** A path or URL ffmpeg reads: a playlist of the rendition's segments around the range, or the original. */
  input: string;
  /** The range, in seconds of the media. */
  start: number;
  end: number;
  /**
   * Where the media's time 0 is among `input`'s own timestamps, read as they are (the rendition:
   * MPEG-TS starts at ~1.4 s), so the range is cut by timestamp, frame-exact, with no seek; null
   * for an original, which is cut by seeking to `start`. All clips of one render are of one kind.
   */
  origin: number | null;
  /** Displayed size (rotation applied). */
  width: number | null;
  height: number | null;
  frameRate: number | null;
  hasAudio: boolean;
  /**
   * Issue 39, when the render's aspect crops: the window's size (fractions of the displayed picture)
   * and its centre along the clip, joined linearly, `t` from the clip's start (two points at one
   * time: a cut).
   */
  framing?: ClipFraming;
}

/**
 * Captions handed to the renderer (issue 39): `burn`, the burned-in captions' states for the
 * output's size (known once the renderer has chosen it); `srt`, the soft subtitle track.
 */
export interface RenderCaptions {
  burn?: (width: number, height: number) => CaptionStates;
  srt?: string;
}

/** The renderer (ffmpeg in adapters/media/render.ts): the service never runs tools itself. */
export interface Renderer {
  compilation(
    clips: RenderSource[],
    outFile: string,
    o: { height: number; aspect: RenderAspect; watermark: boolean; onProgress(f: number): void; captions?: RenderCaptions },
  ): Promise<unknown>;
  gif(clip: RenderSource, outFile: string, o: { watermark: boolean; onProgress(f: number): void }): Promise<unknown>;
  /** The tool's own diagnostics of a failure (logged, never shown), or null for other errors. */
  failureDetail(err: unknown): string | null;
}

export interface RenderDeps {
  renders: RenderRepository;
  /** The user's media (404 for another user's or unknown), and any media by id for the worker. */
  media: {
    owned(userId: string, libraryId: string, mediaId: string): Promise<MediaRow>;
    byId(id: string): Promise<MediaRow | undefined>;
  };
  /** A media's transcript segments (the corrected text) with the recogniser's word times. */
  transcript(mediaId: string): Promise<CaptionSegment[]>;
  /** The automatic crop path of a range (issue 39). */
  framing: Pick<FramingService, 'clip'>;
  blobs: BlobStore;
  queue: JobQueue;
  credits: {
    balance(userId: string): Promise<number>;
    /** Idempotent per key. */
    charge(userId: string, amount: number, key: string, reason: string): Promise<void>;
  };
  renderer: Renderer;
  workDir: string;
  log: { info(o: object, msg: string): void; error(o: object, msg: string): void };
  /** How long a POST waits for its render (tests shorten it). */
  waitMs?: number;
  now?: () => Date;
}

const failedMessage = (kind: RenderRow['kind']) => (kind === 'gif' ? MSG_RENDER.gifFailed : MSG_RENDER.compilationFailed);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * MP4 compilations and GIFs rendered by the `media.render` job, and SRT transcripts. A request is
 * checked completely (ownership, state, ranges, limits, credits) before anything is queued; an
 * identical request of the same user reuses its render; credits for a watermark-free render are
 * taken once, after it succeeded, with the render's id as the idempotency key.
 */
export class RenderService {
  constructor(private readonly d: RenderDeps) {}

  private now() {
    return this.d.now?.() ?? new Date();
  }

  /** A clip of a request checked (ownership, state, range; no image). */
  async checkedClip(user: UserRow, c: { libraryId: string; mediaId: string; start: number; end: number }, kind: RenderRow['kind']) {
    const m = await this.d.media.owned(user.id, c.libraryId, c.mediaId);
    if (m.kind === 'image') throw badRequest(kind === 'gif' ? MSG_RENDER.imageGif : MSG_RENDER.mergeImages);
    if (m.status !== 'completed' || m.duration === null) throw new AppError('conflict', MSG_RENDER.mediaNotReady);
    const start = renderTime(c.start);
    const end = renderTime(c.end);
    if (!(start < end)) throw badRequest(MSG_RENDER.startBeforeEnd);
    if (end > m.duration + END_SLACK) throw badRequest(MSG_RENDER.outsideMedia(m.duration));
    // What is measured and charged: the request's range against the media's end (contract renderSeconds).
    const range: RenderRange = { start: c.start, end: c.end, mediaDuration: m.duration };
    return { mediaId: m.id, libraryId: m.library_id, start, end: Math.min(end, m.duration), name: m.name, range };
  }

  /**
   * A compilation's clips, each checked (ownership, state, range), and its limits (clips, length):
   * also what its subtitles and editor exports check (ExportService).
   */
  async checkedClips(user: UserRow, body: { clips: CompilationClip[] }) {
    if (body.clips.length > RENDER_MAX_CLIPS) throw badRequest(MSG_RENDER.tooManyClips);
    const clips = [];
    for (const c of body.clips) clips.push(await this.checkedClip(user, c, 'compilation'));
    const ranges = clips.map((c) => c.range);
    if (renderSeconds(ranges) > RENDER_MAX_SECONDS + 1e-6) throw badRequest(MSG_RENDER.tooLong);
    const fallback = clips.length === 1 ? clips[0]!.name.replace(/\.[^.]+$/, '') : 'clipseek-compilation';
    return { clips, ranges, fallback };
  }

  /** POST /rendering/compilation/v2. */
  async compilation(user: UserRow, body: CompilationBody) {
    const { clips, ranges, fallback } = await this.checkedClips(user, body);
    const captions = captionsOf(body.captions);
    const aspect = body.aspect ?? RENDER_ASPECT_DEFAULT;
    // A clip's fixed framing matters only when the aspect crops (and only then is it part of the request).
    const framed = clips.map(({ name: _name, range: _range, ...c }, i) => {
      const framing = body.clips[i]!.framing;
      return aspect !== 'source' && framing ? { ...c, framing: { x: framing.x, y: framing.y } } : c;
    });
    return this.submit(user, {
      kind: 'compilation',
      spec: {
        clips: framed,
        height: body.height ?? RENDER_DEFAULT_HEIGHT,
        ...(aspect !== 'source' ? { aspect } : {}),
        ...(captions && { captions }),
      },
      watermark: body.watermark ?? RENDER_WATERMARK_DEFAULT,
      ranges,
      filename: sanitiseFilename(body.filename, fallback, 'mp4'),
    });
  }

  /**
   * POST /library/{id}/media/{mediaId}/gif/v2. The spec's body has no flag; `watermark: false` is
   * taken as for compilations (the spec's downloads offer GIFs without the mark, for credits).
   */
  async gif(user: UserRow, libraryId: string, mediaId: string, body: GifBody) {
    const clip = await this.checkedClip(user, { libraryId, mediaId, start: body.start, end: body.end }, 'gif');
    if (renderSeconds([clip.range]) > GIF_MAX_SECONDS + 1e-6) throw badRequest(MSG_RENDER.gifTooLong);
    const { name, range, ...c } = clip;
    return this.submit(user, {
      kind: 'gif',
      spec: { clips: [c], height: 0 },
      watermark: body.watermark ?? RENDER_WATERMARK_DEFAULT,
      ranges: [range],
      filename: sanitiseFilename(body.filename, name.replace(/\.[^.]+$/, ''), 'gif'),
    });
  }

  private async submit(
    user: UserRow,
    r: { kind: RenderRow['kind']; spec: RenderSpec; watermark: boolean; ranges: RenderRange[]; filename: string },
  ): Promise<{ status: 200 | 202; answer: RenderAnswer }> {
    const duration = renderSeconds(r.ranges);
    const requestKey = createHash('sha256')
      .update(
        JSON.stringify([
          r.kind,
          r.spec.height,
          r.watermark,
          r.spec.clips.map((c) => [c.mediaId, c.start, c.end, ...(c.framing ? [c.framing.x, c.framing.y] : [])]),
          // Absent for the source's shape, so the key of such a request is what it always was.
          ...(r.spec.aspect ? [r.spec.aspect] : []),
          // Issue 39: other captions are another render (none keeps the key renders had before).
          ...(r.spec.captions ? [{ captions: r.spec.captions }] : []),
        ]),
      )
      .digest('hex');
    // The figure the app showed for the choice (contract renderCredits), nothing else.
    const cost = r.watermark ? 0 : renderCredits(r.ranges);
    const existing = await this.d.renders.findByKey(user.id, requestKey);
    // A short balance is refused before anything runs; a render already made (and paid) is reused as is.
    if (cost > 0 && (!existing || existing.status === 'failed')) {
      const balance = await this.d.credits.balance(user.id);
      // The same gate as ingest and import: the spec's purchase tolerance applies (contract canAfford).
      if (!canAfford(balance, cost))
        throw new AppError('payment_required', MSG_RENDER.insufficientCredits(cost, balance), {
          cost,
          balance: Math.max(0, Math.floor(balance)),
          title: MSG_RENDER.insufficientCreditsTitle,
        });
    }
    const { row, queue } = await this.d.renders.findOrCreate({
      user_id: user.id,
      kind: r.kind,
      request_key: requestKey,
      spec: r.spec,
      watermark: r.watermark,
      duration,
      cost,
      filename: r.filename,
      expires_at: new Date(this.now().getTime() + RENDER_OUTPUT_TTL_MS),
    });
    if (queue) await this.d.queue.send(RENDER_JOB, { renderId: row.id }, { singletonKey: row.id });
    const done = await this.waitFor(row.id, this.d.waitMs ?? RENDER_WAIT_MS);
    const answer = await this.answer(done);
    return { status: answer.url || answer.status === 'failed' ? 200 : 202, answer };
  }

  /** Set as the server shuts down: requests waiting for a render answer with what they last read (202). */
  private stopping = false;

  /** Stops the waits of render requests in flight (before the database closes under them). */
  stopWaiting() {
    this.stopping = true;
  }

  /** Polls the row (the job may run in another process) until it finishes or `ms` pass, or the server stops. */
  private async waitFor(id: string, ms: number): Promise<RenderRow> {
    const deadline = Date.now() + ms;
    let last: RenderRow | null = null;
    for (let delay = 100; ; delay = Math.min(500, delay * 1.5)) {
      if (this.stopping && last) return last;
      const row = await this.d.renders.byId(id);
      last = row ?? null;
      if (!row) throw notFound(MSG_RENDER.renderNotFound);
      if (row.status === 'completed' || row.status === 'failed' || Date.now() >= deadline) return row;
      await sleep(Math.min(delay, Math.max(0, deadline - Date.now())));
    }
  }

  private async answer(row: RenderRow): Promise<RenderAnswer> {
    const base = { renderId: row.id, status: row.status, progress: row.progress, duration: row.duration, credits: row.cost };
    // A failed render is a state of the render, not an error of the request: the answer says why.
    if (row.status === 'failed') return { ...base, error: row.error_message ?? MSG_RENDER.failedReason };
    if (row.status !== 'completed' || !row.blob_key) return base;
    const url = await this.d.blobs.downloadUrl(row.blob_key, { filename: row.filename, expiresInSeconds: RENDER_URL_TTL_SECONDS });
    return { ...base, progress: 1, url };
  }

  /** GET /rendering/{renderId}: the client polls this after a 202. */
  async status(user: UserRow, renderId: string): Promise<RenderAnswer> {
    const row = await this.d.renders.byId(renderId);
    if (!row || row.user_id !== user.id) throw notFound(MSG_RENDER.renderNotFound);
    return this.answer(row);
  }

  /**
   * The job: waits for a start slot (16 running, 2 starts a second, over all processes), renders,
   * stores the output, charges (idempotent by render id), then marks it completed. Any failure marks
   * the render failed (nothing charged) and is not retried; a crash re-runs it from the start.
   */
  async run(renderId: string) {
    const row = await this.d.renders.byId(renderId);
    if (!row || row.status === 'completed' || row.status === 'failed') return;
    while (
      !(await this.d.renders.tryAcquireSlot(renderId, {
        concurrency: RENDER_QUEUE_CONCURRENCY,
        perSecond: RENDER_QUEUE_STARTS_PER_SECOND,
        leaseSeconds: SLOT_LEASE_SECONDS,
      }))
    )
      await sleep(200 + Math.random() * 300);
    const ext = row.kind === 'gif' ? 'gif' : 'mp4';
    fs.mkdirSync(this.d.workDir, { recursive: true });
    const out = path.join(this.d.workDir, `render-${renderId}.${ext}`);
    const started = Date.now();
    try {
      await this.d.renders.update(renderId, { status: 'rendering', progress: 0 });
      this.d.log.info({ renderId, kind: row.kind }, 'render started');
      await holdAt('render:started', renderId, { renderId });
      const spec = row.spec;
      const aspect = spec.aspect ?? RENDER_ASPECT_DEFAULT;
      const sources = await renderSources(this.d, spec, renderId);
      let last = 0;
      let writing = Promise.resolve();
      const onProgress = (f: number) => {
        if (f - last < 0.02 || f >= 1) return;
        last = f;
        writing = writing.then(() =>
          this.d.renders.update(renderId, { progress: Math.round(f * 0.95 * 1000) / 1000 }).then(() => undefined),
        );
      };
      if (row.kind === 'gif') await this.d.renderer.gif(sources[0]!, out, { watermark: row.watermark, onProgress });
      else
        await this.d.renderer.compilation(sources, out, {
          height: spec.height,
          aspect,
          watermark: row.watermark,
          onProgress,
          captions: spec.captions && (await renderCaptions(this.d.transcript, spec.clips, spec.captions)),
        });
      await writing;
      const key = blobKeys.render(row.user_id, renderId, ext);
      await this.d.blobs.put(key, fs.createReadStream(out), row.kind === 'gif' ? 'image/gif' : 'video/mp4');
      if (row.cost > 0) await this.d.credits.charge(row.user_id, row.cost, `render:${renderId}`, `Download without watermark (${ext})`);
      await holdAt('render:charged', renderId, { renderId });
      await this.d.renders.update(renderId, { status: 'completed', progress: 1, blob_key: key, error_message: null });
      this.d.log.info({ renderId, kind: row.kind, seconds: row.duration, ms: Date.now() - started }, 'render done');
    } catch (err) {
      const detail = this.d.renderer.failureDetail(err);
      this.d.log.error(
        { renderId, kind: row.kind, err: detail ? undefined : err, ffmpegStderr: detail ?? undefined },
        `${failedMessage(row.kind)}: ${detail ? 'ffmpeg failed' : (err as Error).message}`,
      );
      const message = err instanceof AppError ? err.message : MSG_RENDER.failedReason;
      await this.d.renders.update(renderId, { status: 'failed', error_message: message });
    } finally {
      await this.d.renders.releaseSlot(renderId);
      fs.rmSync(out, { force: true });
      removeRenderInputs(this.d.workDir, renderId, row.spec.clips.length);
    }
  }

  /** Cron: removes expired outputs (and failed renders after an hour). */
  async expire() {
    const now = this.now();
    const rows = await this.d.renders.expired(now, new Date(now.getTime() - 3600_000));
    for (const r of rows) if (r.blob_key) await this.d.blobs.delete(r.blob_key).catch(() => undefined);
    await this.d.renders.remove(rows.map((r) => r.id));
    return rows.length;
  }

  /** SRT of a media's transcript, or of a moment's range (times relative to its start). */
  async srt(user: UserRow, libraryId: string, mediaId: string, q: SrtQuery) {
    const m = await this.d.media.owned(user.id, libraryId, mediaId);
    let range: { start: number; end: number } | undefined;
    if (q.start !== undefined || q.end !== undefined) {
      const start = q.start ?? 0;
      const end = q.end ?? m.duration ?? Infinity;
      if (!(start < end)) throw badRequest(MSG_RENDER.startBeforeEnd);
      range = { start, end };
    }
    const text = toSrt(await this.d.transcript(m.id), range);
    if (!text) throw notFound(MSG_RENDER.noTranscript);
    return { text, filename: sanitiseFilename(q.filename, m.name.replace(/\.[^.]+$/, ''), 'srt') };
  }
}
