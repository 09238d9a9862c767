// The ingest service without ffmpeg, the models, a blob store or a database: each is a small fake,
// and the queue is driven by hand, one stage job at a time, so the order of stages, the two lanes,
// failures and re-runs are checked exactly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAll, type BlobStore } from '../../adapters/blobs/blobStore';
import type { ProbeResult } from '../../adapters/media/ffprobe';
import type { IndexRepository } from './index.repository';
import type { MediaRepository, MediaRow } from '../libraries/media.repository';
import { IngestService, STAGES, stageJob, type Stage } from './ingest.service';
import { blobKeys } from '../storage/blobKeys';
import type { IndexModels, IngestTools } from '../ports';

let dir: string;
let jpeg: Buffer;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-ingest-unit-'));
  jpeg = await sharp({ create: { width: 64, height: 36, channels: 3, background: '#3a7' } })
    .jpeg()
    .toBuffer();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const PROBE: ProbeResult = {
  kind: 'video',
  duration: 12,
  width: 640,
  height: 360,
  frameCount: 300,
  videoCodec: 'h264',
  audioCodec: 'aac',
  frameRate: 25,
  maxFrameRate: 25,
  formatName: 'mp4',
  codedWidth: 640,
  codedHeight: 360,
  rotation: 0,
  pixFmt: 'yuv420p',
  interlaced: false,
};

function world(opts: { failAt?: Stage; heavyAtOnce?: number; twin?: MediaRow; trackFails?: boolean } = {}) {
  const media: MediaRow = {
    id: 'm1',
    user_id: 'u1',
    library_id: 'l1',
    status: 'queued',
    progress: 0,
    name: 'clip',
    filename: 'clip.mp4',
    blob_key: 'originals/m1',
    blob_shared: false,
    origin: { source: 'user' },
    ingest: { done: [] },
  } as unknown as MediaRow;
  const ingest = () => media.ingest as unknown as { done: string[]; timings?: Record<string, number>; [k: string]: unknown };
  const keyframes: Array<{
    id: string;
    t: number;
    shot_idx: number;
    embedding?: unknown;
    objects: unknown[];
    classes: unknown[];
    colours: unknown[];
    ocr: string;
  }> = [];
  const shots: Array<{ idx: number; start: number; end: number; description?: string }> = [];
  const charges: string[] = [];
  const copied: Array<[string, string]> = [];
  const ran: Stage[] = [];
  const queued: string[] = [];
  let running = 0;
  let mostAtOnce = 0;

  const tool =
    <T>(stage: Stage, result: () => T) =>
    async (): Promise<T> => {
      ran.push(stage);
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      if (opts.failAt === stage) throw new Error(`${stage} broke`);
      return result();
    };
  const tools: IngestTools = {
    probe: tool('probe', () => PROBE),
    makeHls: (async (_input: string, outDir: string) => {
      await tool('preview', () => null)();
      fs.mkdirSync(outDir, { recursive: true });
      fs.writeFileSync(path.join(outDir, 'playlist.m3u8'), '#EXTM3U');
      return { segments: 1 };
    }) as unknown as IngestTools['makeHls'],
    thumbnailStrip: (async (_input: string, file: string, o: { track?: string }) => {
      await tool('thumbnails', () => null)();
      if (o.track && opts.trackFails) throw new Error('ffmpeg failed (1): no decoder');
      fs.writeFileSync(file, 'webp');
      if (!o.track) return { interval: 1 };
      fs.writeFileSync(o.track, 'mp4');
      return { interval: 1, track: { count: 3, width: 320, height: 180 } };
    }) as unknown as IngestTools['thumbnailStrip'],
    thumbnailTrack: (async (_input: string, file: string) => {
      fs.writeFileSync(file, 'mp4');
      return { count: 3, width: 320, height: 180 };
    }) as unknown as IngestTools['thumbnailTrack'],
    stillWebp: async () => Buffer.from('webp'),
    extractKeyframes: (async (_input: string, outDir: string) => {
      await tool('keyframes', () => null)();
      fs.mkdirSync(outDir, { recursive: true });
      return [0, 4, 8].map((t, i) => {
        const file = path.join(outDir, `${t}.jpg`);
        fs.writeFileSync(file, jpeg);
        return { t, file, scene: i === 2 ? 0.9 : 0 };
      });
    }) as unknown as IngestTools['extractKeyframes'],
    videoOrigin: async () => 0,
    extractAudio: (async (_input: string, wav: string) => {
      fs.writeFileSync(wav, 'RIFF');
      return wav;
    }) as unknown as IngestTools['extractAudio'],
  };
  const models = {
    visual: {
      analyzeChained: async (images: Buffer[]) => {
        await tool('visual', () => null)();
        const features = images.map(() => ({
          objects: [{ label: 'dog', score: 0.9, box: [0, 0, 1, 1] }],
          classes: [],
          embedding: new Float32Array(4),
          colours: [],
          text: [],
          clip: null,
          missing: [],
        }));
        return { features, chain: null };
      },
      embed: async () => new Float32Array(4),
    },
    speech: {
      words: async () => {
        await tool('speech', () => null)();
        return [
          { word: 'a', start: 1, end: 1.5 },
          { word: 'dog', start: 1.5, end: 2 },
        ];
      },
      group: (words: Array<{ word: string; start: number; end: number }>) => [
        { start: words[0]!.start, end: words.at(-1)!.end, text: words.map((w) => w.word).join(' '), words },
      ],
      pieceSeconds: 30,
    },
    expandLabel: (l: string) => [l],
    missing: [],
  } as unknown as IndexModels;

  // Like the database: JSON columns are written as text and read back parsed.
  const write = (patch: Partial<MediaRow>) =>
    Object.assign(media, patch, typeof patch.probe === 'string' ? { probe: JSON.parse(patch.probe) as unknown } : {});
  const mediaRepo = {
    transition: async (_id: string, from: string[], patch: Partial<MediaRow>) => (from.includes(media.status) ? write(patch) : undefined),
    update: async (_id: string, patch: Partial<MediaRow>) => write(patch),
    byId: async () => ({ ...media }),
    raiseProgress: async (_id: string, v: number) => void (media.progress = Math.max(media.progress, v)),
  } as unknown as MediaRepository;
  const index = {
    state: async () => structuredClone(ingest()),
    patchState: async (_id: string, patch: object) => void Object.assign(ingest(), patch),
    markDone: async (_id: string, stage: string, ms?: number) => {
      ingest().done = [...new Set([...ingest().done, stage])];
      if (ms !== undefined) ingest().timings = { ...ingest().timings, [stage]: ms };
    },
    replaceShots: async (_id: string, s: Array<{ start: number; end: number }>) =>
      void shots.splice(0, shots.length, ...s.map((x, idx) => ({ idx, ...x }))),
    shots: async () => shots,
    setShotDescription: async (_id: string, idx: number, description: string) => void (shots[idx]!.description = description),
    replaceKeyframes: async (_id: string, _lib: string, frames: Array<{ t: number; shotIdx: number }>) =>
      void keyframes.splice(
        0,
        keyframes.length,
        ...frames.map((f, i) => ({ id: `k${i}`, t: f.t, shot_idx: f.shotIdx, objects: [], classes: [], colours: [], ocr: '' })),
      ),
    keyframes: async () => keyframes,
    pendingKeyframes: async () => keyframes.filter((k) => !k.embedding),
    saveFeatures: async (id: string, f: { embedding: unknown; objects: unknown[] }) =>
      void Object.assign(
        keyframes.find((k) => k.id === id)!,
        f,
      ),
    replaceTranscript: async () => undefined,
    replaceShotTerms: async () => undefined,
    indexedTwin: async () => opts.twin ?? null,
    copyIndex: async (from: string, to: string) => void copied.push([from, to]),
  } as unknown as IndexRepository;
  const store = new Map<string, Buffer>();
  const blobs = {
    toolInput: async (key: string) => `/fake/${key}`,
    put: async (key: string, body: Buffer | Readable) => void store.set(key, Buffer.isBuffer(body) ? body : await readAll(body)),
    read: async (key: string) => Readable.from([store.get(key)!]),
    exists: async (key: string) => store.has(key),
  } as unknown as BlobStore;

  const service = new IngestService({
    media: mediaRepo,
    index,
    blobs,
    models,
    tools,
    billing: { balance: async () => 1_000_000, charge: async (_u, _a, key) => void charges.push(key) },
    queue: { send: async (name) => void queued.push(name) },
    workDir: dir,
    heavyAtOnce: opts.heavyAtOnce,
    chunking: { seconds: 120, after: 240 },
  });

  /** Runs every queued stage job, lane by lane as a worker pool would, until none is left. */
  async function drain(together = false) {
    for (let rounds = 0; queued.length && rounds < 50; rounds++) {
      const batch = queued.splice(0);
      const jobs = batch.map((name) => service.runStage(name.slice('ingest.'.length) as Stage, media.id));
      if (together) await Promise.all(jobs);
      else for (const j of jobs) await j;
    }
  }
  return { service, media, ingest, ran, queued, charges, copied, shots, drain, store, opts, mostAtOnce: () => mostAtOnce };
}

describe('IngestService, stage by stage', () => {
  it('queues the probe, then both lanes, then descriptions once both are done, and charges once at the end', async () => {
    const w = world();
    await w.service.start('m1');
    expect(w.media.status).toBe('processing');
    expect(w.queued.splice(0)).toEqual([stageJob('probe')]); // an upload is not downloaded
    await w.service.runStage('probe', 'm1');
    expect(w.queued.splice(0)).toEqual([stageJob('preview'), stageJob('speech')]);
    // The speech lane finishes first: nothing more is queued by it, the picture lane still runs.
    await w.service.runStage('speech', 'm1');
    expect(w.queued).toEqual([]);
    for (const s of ['preview', 'thumbnails', 'keyframes'] as const) {
      await w.service.runStage(s, 'm1');
      expect(w.queued.splice(0)).toHaveLength(1);
    }
    await w.service.runStage('visual', 'm1');
    expect(w.queued.splice(0)).toEqual([stageJob('descriptions')]);
    await w.service.runStage('descriptions', 'm1');
    expect(w.queued.splice(0)).toEqual([stageJob('complete')]);
    await w.service.runStage('complete', 'm1');
    expect(w.media.status).toBe('completed');
    expect(w.media.progress).toBe(1);
    expect(w.charges).toEqual(['ingest:m1']);
    expect(w.ran).toEqual(['probe', 'speech', 'preview', 'thumbnails', 'keyframes', 'visual']);
    expect(Object.keys(w.ingest().timings!).sort()).toEqual(
      ['complete', 'descriptions', 'keyframes', 'preview', 'probe', 'speech', 'thumbnails', 'visual'].sort(),
    );
    expect(w.shots.map((s) => s.description)).toEqual([expect.stringMatching(/dog/), expect.stringMatching(/dog/)]);
    expect(w.store.has('derived/m1/poster.webp')).toBe(true);
    // The files the tools made are stored whole (streamed from the work folder).
    expect(w.store.get(blobKeys.hlsPlaylist('m1'))?.toString()).toBe('#EXTM3U');
    expect(w.store.get(blobKeys.keyframe('m1', 4))?.equals(jpeg)).toBe(true);
    expect(w.store.get(blobKeys.strip('m1'))?.toString()).toBe('webp');
    expect(w.store.get(blobKeys.thumbnailTrack('m1'))?.toString()).toBe('mp4');
    expect(w.ingest().track).toEqual({ count: 3, width: 320, height: 180 });
  });

  it('a thumbnail track that cannot be made does not fail the ingest: the media has none', async () => {
    const w = world({ trackFails: true });
    await w.service.start('m1');
    await w.drain();
    expect(w.media.status).toBe('completed');
    expect(w.ingest().track).toBeUndefined();
    expect(w.ingest().strip).toBeTruthy();
    expect(w.store.has(blobKeys.thumbnailTrack('m1'))).toBe(false);
  });

  it('runs a stage job again as a no-op once the stage is done (a duplicate, or a retry after it finished)', async () => {
    const w = world();
    await w.service.start('m1');
    await w.drain();
    expect(w.media.status).toBe('completed');
    const ran = w.ran.length;
    await w.service.runStage('keyframes', 'm1');
    await w.service.runStage('complete', 'm1');
    expect(w.ran.length).toBe(ran);
    expect(w.charges).toEqual(['ingest:m1']);
  });

  it('a stage that fails ends the media with the stage named; the other lane then stops and nothing is charged', async () => {
    const w = world({ failAt: 'keyframes' });
    await w.service.start('m1');
    await w.drain();
    expect(w.media.status).toBe('errored');
    expect(w.media.error_message).toBe('Processing failed at the keyframes stage: keyframes broke');
    expect(w.ingest().done).not.toContain('keyframes');
    expect(w.ran).not.toContain('visual');
    expect(w.charges).toEqual([]);
  });

  it('resumes from the stages recorded as done: a retried media runs only what was left', async () => {
    const w = world({ failAt: 'visual' });
    await w.service.start('m1');
    await w.drain();
    expect(w.media.status).toBe('errored');
    const before = [...w.ran];
    // The user's retry: processing again, the ingest job queued, the broken part fixed meanwhile.
    w.media.status = 'processing';
    w.opts.failAt = undefined;
    await w.service.start('m1');
    expect(w.queued).toEqual([stageJob('visual')]);
    await w.drain();
    expect(w.media.status).toBe('completed');
    expect(before.filter((s) => s === 'keyframes')).toHaveLength(1);
    expect(w.ran.filter((s) => s === 'keyframes')).toHaveLength(1);
  });

  it('runs at most `heavyAtOnce` heavy stages at once when both lanes are ready together', async () => {
    const one = world({ heavyAtOnce: 1 });
    await one.service.start('m1');
    await one.drain(true);
    expect(one.media.status).toBe('completed');
    expect(one.mostAtOnce()).toBe(1);
    const two = world({ heavyAtOnce: 2 });
    await two.service.start('m1');
    await two.drain(true);
    expect(two.media.status).toBe('completed');
    expect(two.mostAtOnce()).toBe(2);
  });

  it("a shared sample takes an indexed twin's derived files and index instead of running the stages, uncharged", async () => {
    const twin = {
      id: 't1',
      kind: 'video',
      duration: 12,
      width: 640,
      height: 360,
      frame_count: 300,
      probe: PROBE,
      has_preview: true,
      ingest: { done: [...STAGES], hls: { segments: 2, start: 1.4 }, track: { count: 3, width: 320, height: 180 }, charged: 120 },
    } as unknown as MediaRow;
    const w = world({ twin });
    Object.assign(w.media, { blob_shared: true });
    const files = {
      [blobKeys.hlsPlaylist('t1')]: '#EXTM3U twin',
      [blobKeys.hls('t1', 'seg_00000.ts')]: 'segment 0',
      [blobKeys.hls('t1', 'seg_00001.ts')]: 'segment 1',
      [blobKeys.strip('t1')]: 'strip',
      [blobKeys.poster('t1')]: 'poster',
      [blobKeys.thumbnailTrack('t1')]: 'track',
    };
    for (const [k, v] of Object.entries(files)) w.store.set(k, Buffer.from(v));
    await w.service.start('m1');
    expect(w.media.status).toBe('completed');
    expect(w.ran).toEqual([]);
    expect(w.queued).toEqual([]);
    expect(w.charges).toEqual([]);
    expect(w.copied).toEqual([['t1', 'm1']]);
    for (const [k, v] of Object.entries(files)) expect(w.store.get(k.replace('/t1/', '/m1/'))?.toString(), k).toBe(v);
    expect(w.media.probe).toEqual(PROBE);
    expect(JSON.parse(w.media.ingest as unknown as string)).toMatchObject({
      hls: { segments: 2, start: 1.4 },
      track: { count: 3, width: 320, height: 180 },
      charged: 0,
    });
  });
});
