import fs from 'node:fs';
import path from 'node:path';
import pLimit from 'p-limit';
import { canAfford, ingestCost } from '../../../contract';
import { readAll, type BlobStore } from '../../adapters/blobs/blobStore';
import { NotMediaError, type StoredProbe } from '../../adapters/media/ffprobe';
import { cachedExpander, ocrIndexWords, shotTermScores, type FrameLabels } from '../search/visualTerms';
import type { IndexRepository } from './index.repository';
import type { MediaRepository, MediaRow } from '../libraries/media.repository';
import { InsufficientCreditsError } from '../billing/ledger.service';
import type { IndexModels, IngestBilling, IngestTools, JobQueue } from '../ports';
import { representativePoster } from './posterFrame';
import { holdAt } from '../../testHold';
import { blobKeys, parseDerivedKey } from '../storage/blobKeys';

/** The ingest stages, in order; each is its own job, idempotent and recorded when done, so a retry resumes. */
export const STAGES = ['download', 'probe', 'preview', 'thumbnails', 'keyframes', 'visual', 'speech', 'descriptions', 'complete'] as const;
export type Stage = (typeof STAGES)[number];

/**
 * The stages each stage waits for. After the probe two lanes run beside each other, one per core:
 * the picture (preview, thumbnails, keyframes, what is seen) and what is said; shot descriptions
 * need both. `download` runs only for media imported from a link; for the others it counts as done.
 */
export const STAGE_AFTER: Record<Stage, readonly Stage[]> = {
  download: [],
  probe: ['download'],
  preview: ['probe'],
  thumbnails: ['preview'],
  keyframes: ['thumbnails'],
  visual: ['keyframes'],
  speech: ['probe'],
  descriptions: ['visual', 'speech'],
  complete: ['descriptions'],
};

/** The job that runs one stage of a media (ingest.job.ts registers one per stage). */
export const stageJob = (stage: Stage) => `ingest.${stage}`;

/** Stages that keep a core busy (ffmpeg, the models, pocketsphinx): at most `heavyAtOnce` of them run at once in a process. */
export const HEAVY_STAGES: ReadonlySet<Stage> = new Set(['preview', 'thumbnails', 'keyframes', 'visual', 'speech']);

/** Relative cost of each stage, for one progress figure (0..1) across them. */
const WEIGHT: Record<Stage, number> = {
  download: 10,
  probe: 1,
  preview: 10,
  thumbnails: 4,
  keyframes: 15,
  visual: 40,
  speech: 25,
  descriptions: 1,
  complete: 1,
};
const TOTAL = Object.values(WEIGHT).reduce((a, b) => a + b, 0);

export const SCENE_THRESHOLD = 0.3;
export const MAX_KEYFRAME_GAP = 2;
export const STRIP_FRAMES = 60;
export const STRIP_FRAME_WIDTH = 140;
const VISUAL_BATCH = 8;

export interface IngestDeps {
  media: MediaRepository;
  index: IndexRepository;
  blobs: BlobStore;
  models: IndexModels;
  tools: IngestTools;
  billing: IngestBilling;
  /** Where the next stages are queued. */
  queue: JobQueue;
  workDir: string;
  /** Heavy stages (HEAVY_STAGES) running at once in this process (default 2: one per core on the target machine). */
  heavyAtOnce?: number;
  /** Fetches a media imported from a link and stores it as its original (the `download` stage). */
  download?: (media: MediaRow, work: string, onProgress: (f: number) => void) => Promise<MediaRow>;
  /** Stage starts and ends: after a crash they show where a media's ingest resumed. */
  log?: { info(o: object, msg: string): void };
}

/**
 * Turns an uploaded file into a searchable media: probe, HLS preview, thumbnails, shots and
 * keyframes, what is seen, what is said, shot descriptions, then the credit charge. `start` is the
 * media's ingest job; each stage then runs as its own job (`runStage`), and queues the stages it
 * unblocks when it is done, so a crash mid-stage resumes that stage only.
 */
export class IngestService {
  private readonly heavy: ReturnType<typeof pLimit>;

  constructor(private readonly d: IngestDeps) {
    this.heavy = pLimit(Math.max(1, d.heavyAtOnce ?? 2));
  }

  private readonly expand = cachedExpander((l) => this.d.models.expandLabel(l));

  /** Writes the shot index (each shot's best score per word) of a media from its keyframes' labels. */
  private async indexShotTerms(mediaId: string, libraryId: string) {
    const byShot = new Map<number, FrameLabels[]>();
    for (const f of await this.d.index.keyframes(mediaId)) (byShot.get(f.shot_idx) ?? byShot.set(f.shot_idx, []).get(f.shot_idx)!).push(f);
    const rows = [...byShot].flatMap(([shotIdx, frames]) =>
      [...shotTermScores(frames, this.expand)].map(([term, score]) => ({ shotIdx, term, score })),
    );
    await this.d.index.replaceShotTerms(mediaId, libraryId, rows);
  }

  /** Media indexed before the shot index existed get their rows (run once at start; idempotent). */
  async backfillShotTerms(): Promise<number> {
    const pending = await this.d.index.mediaWithoutShotTerms();
    for (const m of pending) await this.indexShotTerms(m.id, m.library_id);
    return pending.length;
  }

  /**
   * Transcript segments indexed without their spoken forms (before migration 0012), or under older
   * rules, get them (run once at start; idempotent). Until then they are found by their text.
   */
  async backfillSpokenForms(): Promise<number> {
    let total = 0;
    for (let n = await this.d.index.renormaliseSpoken(); n > 0; n = await this.d.index.renormaliseSpoken()) total += n;
    return total;
  }

  /**
   * The media's ingest job (queued by an upload, a link import or a retry): the media goes to
   * processing and the stages that can run are queued. Shared samples take a twin's index instead.
   */
  async start(mediaId: string): Promise<void> {
    const media = await this.d.media.transition(mediaId, ['queued', 'processing'], { status: 'processing', error_message: null });
    if (!media) return; // deleted, cancelled or already done
    const { done } = await this.d.index.state(mediaId);
    if (done.length) this.d.log?.info({ mediaId, done }, 'ingest resumed');
    if (media.blob_shared && (await this.reuseTwin(media))) return;
    await this.advance(media, new Set(done));
  }

  /**
   * Queues the stages not done whose predecessors are: all of them when a media (re)starts, or only
   * those that follow `after` when that stage is done (the other lane's next stage is its own to queue).
   */
  private async advance(media: MediaRow, done: ReadonlySet<string>, after?: Stage) {
    const external = media.origin.source === 'external';
    const isDone = (s: Stage) => done.has(s) || (s === 'download' && !external);
    for (const stage of STAGES)
      if (!isDone(stage) && (!after || STAGE_AFTER[stage].includes(after)) && STAGE_AFTER[stage].every(isDone))
        await this.d.queue.send(stageJob(stage), { mediaId: media.id }, { singletonKey: media.id });
  }

  /**
   * One stage's job: runs `stage` of a media still processing, records it done with its time, and
   * queues the stages it unblocks. A failure ends the media's ingest with the stage named; a crash
   * leaves the job to be retried, which runs this stage again (each stage is idempotent).
   */
  async runStage(stage: Stage, mediaId: string, opts: { retry?: boolean } = {}): Promise<void> {
    let media = await this.d.media.byId(mediaId);
    if (!media || media.status !== 'processing') return; // deleted, failed in the other lane, or done
    const { done } = await this.d.index.state(mediaId);
    if (opts.retry) this.d.log?.info({ mediaId, stage, done }, 'ingest resumed');
    if (!done.includes(stage)) {
      const run = () => this.runOnce(stage, media!);
      const next = HEAVY_STAGES.has(stage) ? await this.heavy(run) : await run();
      if (!next) return;
      media = next;
    }
    // The other lane may have finished meanwhile: read what is done now. (Also when this job found
    // its stage done: a crash may have come between recording it and queueing what follows.)
    await this.advance(media, new Set((await this.d.index.state(mediaId)).done), stage);
  }

  /** Runs one stage and records it; null when the stage failed (the media then carries the reason). */
  private async runOnce(stage: Stage, media: MediaRow): Promise<MediaRow | null> {
    const mediaId = media.id;
    const { done } = await this.d.index.state(mediaId);
    // Progress: finished stages count whole, this one by how far it got. Two lanes write it, so it only rises.
    const base = STAGES.reduce(
      (sum, s) => sum + (done.includes(s) || (s === 'download' && media.origin.source !== 'external') ? WEIGHT[s] : 0),
      0,
    );
    let lastWrite = 0;
    const progress = async (f: number, force = false) => {
      if (!force && Date.now() - lastWrite < 500) return;
      lastWrite = Date.now();
      await this.d.media.raiseProgress(mediaId, Math.min(0.99, (base + WEIGHT[stage] * f) / TOTAL));
    };
    await progress(0, true);
    this.d.log?.info({ mediaId, stage }, 'ingest stage started');
    await holdAt(`ingest:${stage}`, media.filename, { mediaId });
    const work = path.join(this.d.workDir, `${mediaId}-${stage}`);
    fs.mkdirSync(work, { recursive: true });
    const t0 = performance.now();
    let next: MediaRow;
    try {
      next = (await this.stage(stage, media, work, (f) => void progress(f).catch(() => undefined))) ?? media;
    } catch (err) {
      await this.fail(mediaId, stage, err as Error);
      return null;
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
    const ms = Math.round(performance.now() - t0);
    await this.d.index.markDone(mediaId, stage, ms);
    this.d.log?.info({ mediaId, stage, ms }, 'ingest stage done');
    return next;
  }

  /** Ends a media's ingest after a failed stage, with a reason the user can act on. */
  private async fail(mediaId: string, stage: Stage, err: Error) {
    if (err instanceof NotMediaError) {
      await this.d.media.transition(mediaId, ['processing'], { status: 'invalid', error_message: err.message, progress: 0 });
    } else if (err instanceof InsufficientCreditsError) {
      await this.d.media.transition(mediaId, ['processing'], {
        status: 'errored',
        error_message: `Not enough credits to index this media: it needs ${err.cost} credits. Top up or upgrade your plan, then retry.`,
      });
    } else if (stage === 'download') {
      // Nothing was indexed, so nothing is charged: the media is failed with the reason.
      await this.d.media.transition(mediaId, ['processing'], { status: 'failed', error_message: err.message.slice(0, 500), progress: 0 });
    } else {
      await this.d.media.transition(mediaId, ['processing'], {
        status: 'errored',
        error_message: `Processing failed at the ${stage} stage: ${err.message.slice(0, 300)}`,
      });
    }
  }

  /**
   * Shared files (the demo library's samples) are indexed once: later copies take the index and
   * derived files of an already indexed twin instead of running the models again.
   */
  private async reuseTwin(media: MediaRow): Promise<boolean> {
    const twin = await this.d.index.indexedTwin(media.blob_key, media.id);
    if (!twin) return false;
    const state = twin.ingest;
    const keys = [
      ...(state.hls
        ? ['hls/playlist.m3u8', ...Array.from({ length: state.hls.segments }, (_, i) => `hls/seg_${String(i).padStart(5, '0')}.ts`)]
        : []),
      'strip.webp',
      'poster.webp',
      ...(await this.d.index.keyframes(twin.id)).map((k) => parseDerivedKey(blobKeys.keyframe(twin.id, k.t))!.rest),
    ];
    for (const k of keys) {
      const from = `${blobKeys.derived(twin.id)}${k}`;
      if (await this.d.blobs.exists(from))
        await this.d.blobs.put(`${blobKeys.derived(media.id)}${k}`, await readAll(await this.d.blobs.read(from)));
    }
    await this.d.index.copyIndex(twin.id, media.id, media.library_id);
    await this.d.media.update(media.id, {
      kind: twin.kind,
      duration: twin.duration,
      width: twin.width,
      height: twin.height,
      frame_count: twin.frame_count,
      probe: JSON.stringify(twin.probe),
      has_preview: twin.has_preview,
      ingest: JSON.stringify({ ...state, charged: 0 }),
    });
    await this.d.media.transition(media.id, ['processing'], { status: 'completed', progress: 1 });
    return true;
  }

  private downloadStage(media: MediaRow, work: string, onProgress: (f: number) => void) {
    if (!this.d.download) throw new Error('link import is not configured');
    return this.d.download(media, work, onProgress);
  }

  /** The media's probe, which every stage after `probe` reads (that stage always runs first). */
  private probeOf(media: MediaRow): StoredProbe {
    if (!media.probe) throw new Error('the media has not been probed');
    return media.probe;
  }

  private async stage(stage: Stage, media: MediaRow, work: string, onProgress: (f: number) => void): Promise<MediaRow | void> {
    // Before the download there is no original to read yet.
    const input = stage === 'download' ? '' : await this.d.blobs.toolInput(media.blob_key);
    switch (stage) {
      case 'download':
        return this.downloadStage(media, work, onProgress);
      case 'probe': {
        const p = await this.d.tools.probe(input);
        // Check credits before any heavy work; the charge itself happens once, at the end.
        if (!media.blob_shared) {
          const cost = ingestCost(p.duration);
          const balance = await this.d.billing.balance(media.user_id);
          if (!canAfford(balance, cost)) throw new InsufficientCreditsError(balance, cost);
        }
        return this.d.media.update(media.id, {
          kind: p.kind,
          duration: p.duration,
          width: p.width,
          height: p.height,
          frame_count: p.frameCount,
          probe: JSON.stringify(p),
        });
      }
      case 'preview': {
        const p = this.probeOf(media);
        if (p.kind === 'image') return;
        const dir = path.join(work, 'hls');
        const r = await this.d.tools.makeHls(input, dir, p, onProgress);
        for (const f of fs.readdirSync(dir))
          await this.d.blobs.put(
            blobKeys.hls(media.id, f),
            fs.readFileSync(path.join(dir, f)),
            f.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t',
          );
        await this.d.index.patchState(media.id, { hls: { segments: r.segments, start: r.start } });
        return this.d.media.update(media.id, { has_preview: true });
      }
      case 'thumbnails': {
        const p = this.probeOf(media);
        const count = p.kind === 'image' ? 1 : Math.max(1, Math.min(STRIP_FRAMES, Math.ceil(p.duration)));
        const file = path.join(work, 'strip.webp');
        const { interval } = await this.d.tools.thumbnailStrip(input, file, {
          duration: Math.max(p.duration, 0.04),
          count,
          width: STRIP_FRAME_WIDTH,
        });
        await this.d.blobs.put(blobKeys.strip(media.id), fs.readFileSync(file), 'image/webp');
        const poster = path.join(work, 'poster.webp');
        fs.writeFileSync(poster, await this.d.tools.stillWebp(input, p.kind === 'image' ? 0 : Math.min(1, p.duration / 2), 280, 40));
        await this.d.blobs.put(blobKeys.poster(media.id), fs.readFileSync(poster), 'image/webp');
        // Last: the media's `thumbnails` (set from this) tell the app its poster exists (contract hasPoster).
        const height = Math.round((STRIP_FRAME_WIDTH * p.height) / Math.max(1, p.width) / 2) * 2;
        await this.d.index.patchState(media.id, { strip: { interval, columns: count, count, width: STRIP_FRAME_WIDTH, height } });
        return;
      }
      case 'keyframes': {
        const p = this.probeOf(media);
        const dir = path.join(work, 'kf');
        const frames = await this.d.tools.extractKeyframes(
          input,
          dir,
          { duration: p.duration, threshold: SCENE_THRESHOLD, maxGap: MAX_KEYFRAME_GAP },
          onProgress,
        );
        if (!frames.length) throw new Error('no frame could be decoded');
        // Shots: a new one starts at every scene change.
        const shots: Array<{ start: number; end: number }> = [];
        const withShot = frames.map((f, i) => {
          if (i === 0 || f.scene > SCENE_THRESHOLD) shots.push({ start: i === 0 ? 0 : f.t, end: p.duration });
          if (shots.length > 1) shots[shots.length - 2]!.end = shots[shots.length - 1]!.start;
          return { t: f.t, shotIdx: shots.length - 1, file: f.file };
        });
        await this.d.index.replaceShots(media.id, shots);
        for (const f of withShot) await this.d.blobs.put(blobKeys.keyframe(media.id, f.t), fs.readFileSync(f.file), 'image/jpeg');
        await this.d.index.replaceKeyframes(media.id, media.library_id, withShot);
        // The poster becomes a representative keyframe, not the opening's bars or title card (posterFrame.ts).
        const poster = p.kind === 'image' ? null : await representativePoster(frames, p.duration);
        if (poster) await this.d.blobs.put(blobKeys.poster(media.id), poster, 'image/webp');
        return;
      }
      case 'visual': {
        const visual = this.d.models.visual;
        if (!visual) {
          await this.d.index.patchState(media.id, { missing: this.d.models.missing });
          return;
        }
        const pending = await this.d.index.pendingKeyframes(media.id);
        const total = pending.length;
        const missing = new Set<string>();
        for (let i = 0; i < pending.length; i += VISUAL_BATCH) {
          const batch = pending.slice(i, i + VISUAL_BATCH);
          const images: Buffer[] = [];
          for (const k of batch) images.push(await readAll(await this.d.blobs.read(blobKeys.keyframe(media.id, k.t))));
          const feats = await visual.analyze(images);
          for (let j = 0; j < batch.length; j++) {
            const f = feats[j]!;
            f.missing.forEach((m) => missing.add(m));
            const labels = [...f.objects.map((o) => o.label), ...f.classes.map((c) => c.label), ...f.colours.map((c) => c.name)];
            const words = ocrIndexWords(f.text);
            const terms = [
              ...new Set(
                [...labels.flatMap((l) => this.d.models.expandLabel(l)), ...words]
                  .flatMap((t) => t.toLowerCase().split(/[^a-z0-9]+/))
                  .filter(Boolean),
              ),
            ];
            await this.d.index.saveFeatures(batch[j]!.id, {
              objects: f.objects,
              classes: f.classes,
              colours: f.colours,
              ocr: words.join(' '),
              terms,
              embedding: f.embedding,
              clip: f.clip,
            });
          }
          onProgress(Math.min(1, (i + batch.length) / Math.max(1, total)));
        }
        if (missing.size) await this.d.index.patchState(media.id, { missing: [...missing] });
        return;
      }
      case 'speech': {
        const p = this.probeOf(media);
        if (p.kind === 'image' || !p.audioCodec) return;
        if (!this.d.models.speech) return;
        const wav = await this.d.tools.extractAudio(input, path.join(work, 'audio.wav'), p.duration);
        if (!wav) return;
        const segments = await this.d.models.speech.transcribe(wav, { onProgress });
        await this.d.index.replaceTranscript(media.id, media.library_id, segments);
        return;
      }
      case 'descriptions': {
        const frames = await this.d.index.keyframes(media.id);
        for (const shot of await this.d.index.shots(media.id)) {
          const inShot = frames.filter((f) => f.shot_idx === shot.idx);
          await this.d.index.setShotDescription(media.id, shot.idx, describeShot(inShot));
        }
        await this.indexShotTerms(media.id, media.library_id);
        return;
      }
      case 'complete': {
        if (!media.blob_shared) {
          const p = this.probeOf(media);
          const cost = ingestCost(p.duration);
          // One key per media: a retried job, or a retry after a crash, never charges twice.
          await this.d.billing.charge(media.user_id, cost, `ingest:${media.id}`, `Indexing ${media.name}`);
          await holdAt('ingest:charged', media.filename, { mediaId: media.id });
          await this.d.index.patchState(media.id, { charged: cost });
        }
        return this.d.media.transition(media.id, ['processing'], { status: 'completed', progress: 1 });
      }
    }
  }
}

type FrameFeatures = { objects: unknown; classes: unknown; colours: unknown; ocr: string };

/**
 * An honest one-line description of a shot from what the index saw in its keyframes: the objects
 * most often detected, the likeliest image classes, dominant colours and any on-screen text.
 */
export function describeShot(frames: FrameFeatures[]): string {
  const count = (items: Array<{ label: string; score: number }>, min: number) => {
    const m = new Map<string, number>();
    for (const it of items) if (it.score >= min) m.set(it.label, (m.get(it.label) ?? 0) + it.score);
    return [...m.entries()].sort((a, b) => b[1] - a[1]).map(([l]) => l);
  };
  const objects = count(
    frames.flatMap((f) => f.objects as Array<{ label: string; score: number }>),
    0.4,
  ).slice(0, 4);
  const classes = count(
    frames.flatMap((f) => f.classes as Array<{ label: string; score: number }>),
    0.25,
  ).slice(0, 2);
  const colours = count(
    frames.flatMap((f) => (f.colours as Array<{ name: string; fraction: number }>).map((c) => ({ label: c.name, score: c.fraction }))),
    0.15,
  ).slice(0, 3);
  const text = [...new Set(frames.flatMap((f) => f.ocr.split(' ').filter(Boolean)))].slice(0, 8);
  const parts: string[] = [];
  if (objects.length) parts.push(`Seen: ${objects.join(', ')}`);
  if (classes.length) parts.push(`Looks like: ${classes.join(', ')}`);
  if (colours.length) parts.push(`Colours: ${colours.join(', ')}`);
  if (text.length) parts.push(`Text on screen: "${text.join(' ')}"`);
  return parts.join('. ');
}
