import {
  createThumbnailSource,
  discardSpareThumbnailWorker,
  prestartThumbnailWorker,
  type ThumbnailSourceStats,
  type WorkerThumbnailSource,
} from '../../../../src/workers/thumbnails/thumbnailSource';
import { HEAD_BYTES, readMovieBoxes } from '../../../../src/workers/thumbnails/mp4Boxes';
import { indexMovie } from '../../../../src/workers/thumbnails/movieIndex';
import { RangeReader } from '../../../../src/workers/thumbnails/rangeReader';
import { syncAtOrBefore, timestampUs } from '../../../../src/workers/thumbnails/sampleTable';

/**
 * Drives createThumbnailSource for tests/browser/thumbnails.test.ts and tests/bench/thumbnails.bench.ts.
 * Workers are counted through a wrapped constructor and fetches are recorded, so a test can see
 * what the source started and asked for.
 */

let liveWorkers = 0;
const NativeWorker = window.Worker;
window.Worker = class CountedWorker extends NativeWorker {
  constructor(url: string | URL, options?: WorkerOptions) {
    super(url, options);
    liveWorkers++;
  }
  override terminate() {
    liveWorkers--;
    super.terminate();
  }
};

const fetchedUrls: string[] = [];
const nativeFetch = window.fetch.bind(window);
window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
  fetchedUrls.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  return nativeFetch(input, init);
};

export interface CreateOptions {
  sourceUrl: string | null;
  /** The server's thumbnail track (keyframe tiles come from it when given). */
  trackUrl?: string | null;
  /** The server thumbnail path; `?t=<seconds>` is appended. */
  thumbnailPath: string;
  duration: number;
  frameRate: number;
  maxBatch?: number;
}

export interface GetRequest {
  time: number;
  precision: 'keyframe' | 'exact';
  width: number;
  height: number;
  /** Abort right after calling get(), before the batch can start. */
  abort?: boolean;
}

export type GetResult =
  | { ok: true; width: number; height: number; frame: number; rgb: [number, number, number]; ms: number }
  | { ok: false; name: string; message: string; ms: number };

interface Handle {
  source: WorkerThumbnailSource;
  fallbacks: string[];
  bitmaps: ImageBitmap[];
}

const handles = new Map<number, Handle>();
let nextHandle = 1;
const probe = new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true })!;

/**
 * The frame number drawn into the test media: 10 stripes across the top third of the picture,
 * white for a set bit (bit 0 on the left). Read from the tile at the centre of each stripe.
 */
function readPicture(bitmap: ImageBitmap): { frame: number; rgb: [number, number, number] } {
  probe.canvas.width = bitmap.width;
  probe.canvas.height = bitmap.height;
  probe.drawImage(bitmap, 0, 0);
  const px = probe.getImageData(0, 0, bitmap.width, bitmap.height).data;
  const at = (x: number, y: number) => {
    const i = (Math.floor(y) * bitmap.width + Math.floor(x)) * 4;
    return [px[i]!, px[i + 1]!, px[i + 2]!] as [number, number, number];
  };
  let frame = 0;
  for (let bit = 0; bit < 10; bit++) {
    const [r, g, b] = at(((bit + 0.5) * bitmap.width) / 10, bitmap.height / 6);
    if ((r + g + b) / 3 > 128) frame |= 1 << bit;
  }
  return { frame, rgb: at(bitmap.width / 2, bitmap.height / 2) };
}

function handle(id: number) {
  const h = handles.get(id);
  if (!h) throw new Error(`No source ${id}`);
  return h;
}

/** Starts get() for every request in the same tick (one batch), then waits for them all. */
async function getMany(id: number, requests: GetRequest[]): Promise<GetResult[]> {
  const h = handle(id);
  const t0 = performance.now();
  const pending = requests.map((r) => {
    const controller = new AbortController();
    const p = h.source.get({ time: r.time, precision: r.precision, width: r.width, height: r.height, signal: controller.signal });
    if (r.abort) controller.abort();
    return p;
  });
  return Promise.all(
    pending.map((p) =>
      p.then(
        (bitmap): GetResult => {
          h.bitmaps.push(bitmap);
          return { ok: true, width: bitmap.width, height: bitmap.height, ...readPicture(bitmap), ms: performance.now() - t0 };
        },
        (e: unknown): GetResult => ({
          ok: false,
          name: e instanceof Error || e instanceof DOMException ? e.name : 'unknown',
          message: e instanceof Error || e instanceof DOMException ? e.message : String(e),
          ms: performance.now() - t0,
        }),
      ),
    ),
  );
}

/**
 * Calls get() for each request in a tick of its own (a microtask apart), as a scroll brings tiles in
 * one at a time, then waits for them all.
 */
async function getOneByOne(id: number, requests: GetRequest[]): Promise<GetResult[]> {
  const all: Promise<GetResult[]>[] = [];
  for (const r of requests) {
    all.push(getMany(id, [r]));
    await Promise.resolve();
  }
  return (await Promise.all(all)).flat();
}

export interface ViewsResult {
  /** Wall time of each view (batch) from the get() calls to the last picture. */
  batchMs: number[];
  thumbnails: number;
  failed: number;
  totalMs: number;
}

/**
 * Timeline-like load: each view's tiles are requested in one tick, as the engine does on a view
 * update, and the next view starts when the previous one is painted. No pixels are read back.
 */
async function runViews(
  id: number,
  views: number[][],
  precision: 'keyframe' | 'exact',
  width: number,
  height: number,
  /** 0: each view waits for the previous one to be painted; else a new view every `everyMs` (a fling). */
  everyMs = 0,
): Promise<ViewsResult> {
  const h = handle(id);
  const batchMs: number[] = [];
  let thumbnails = 0;
  let failed = 0;
  const start = performance.now();
  const view = async (times: number[]) => {
    const t0 = performance.now();
    const settled = await Promise.allSettled(
      times.map((time) => h.source.get({ time, precision, width, height, signal: new AbortController().signal })),
    );
    batchMs.push(performance.now() - t0);
    thumbnails += settled.length;
    failed += settled.filter((s) => s.status === 'rejected').length;
  };
  if (everyMs === 0) for (const times of views) await view(times);
  else {
    const all: Promise<void>[] = [];
    for (const times of views) {
      all.push(view(times));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    await Promise.all(all);
  }
  return { batchMs, thumbnails, failed, totalMs: performance.now() - start };
}

export interface DecodeFloor {
  keyframes: number;
  /** Reading their bytes (cold, by byte ranges, six requests at a time). */
  bytesMs: number;
  /** Decoding them with the bytes in memory, `lanes` decoders side by side, every picture closed unseen. */
  decodeMs: number;
}

/**
 * The floor under keyframe thumbnails, for the benchmark: the keyframes shown at `times` decoded by
 * bare VideoDecoders (no queue, worker, scaling or transfer), split between `lanes` decoders as the
 * worker splits a batch. What the worker's pipeline could reach at best on this machine right now.
 */
async function decodeFloor(url: string, times: number[], lanes: number): Promise<DecodeFloor> {
  const reader = new RangeReader(url);
  const head = await reader.read(0, HEAD_BYTES);
  const { ftyp, moov } = await readMovieBoxes((s, e) => reader.read(s, e), head, reader.size ?? head.length);
  const movie = indexMovie(ftyp, moov);
  const t = movie.table;
  const samples = [...new Set(times.map((s) => syncAtOrBefore(t, s)))].sort((a, b) => a - b);
  const b0 = performance.now();
  const ranges = samples.map((i) => ({ start: t.offset[i]!, end: t.offset[i]! + t.size[i]! }));
  await reader.prefetch(ranges, 64 * 1024, 6);
  const chunks = await Promise.all(
    samples.map(async (i, k) => {
      const data = await reader.read(ranges[k]!.start, ranges[k]!.end);
      return new EncodedVideoChunk({ type: 'key', timestamp: timestampUs(t, i), data });
    }),
  );
  const bytesMs = performance.now() - b0;
  const config: VideoDecoderConfig = {
    codec: movie.codec,
    codedWidth: movie.codedWidth,
    codedHeight: movie.codedHeight,
    optimizeForLatency: true,
  };
  if (movie.description) config.description = movie.description;
  const decoders = Array.from({ length: lanes }, () => {
    const decoder = new VideoDecoder({ output: (frame) => frame.close(), error: () => undefined });
    decoder.configure(config);
    return decoder;
  });
  // A first picture costs each decoder its set-up; the worker warms its decoders at open, so this does too.
  await Promise.all(
    decoders.map((d) => {
      d.decode(chunks[0]!);
      return d.flush();
    }),
  );
  const d0 = performance.now();
  await Promise.all(
    decoders.map(async (decoder, lane) => {
      for (let i = lane; i < chunks.length; i += lanes) {
        while (decoder.decodeQueueSize > 4) await new Promise((resolve) => decoder.addEventListener('dequeue', resolve, { once: true }));
        decoder.decode(chunks[i]!);
      }
      await decoder.flush();
    }),
  );
  const decodeMs = performance.now() - d0;
  decoders.forEach((d) => d.close());
  return { keyframes: chunks.length, bytesMs, decodeMs };
}

const driver = {
  create(o: CreateOptions): number {
    const id = nextHandle++;
    const fallbacks: string[] = [];
    const source = createThumbnailSource({
      sourceUrl: o.sourceUrl,
      trackUrl: o.trackUrl ?? null,
      serverThumbnailUrl: (t) => `${o.thumbnailPath}?token=preview-token&t=${t.toFixed(3)}`,
      duration: o.duration,
      frameRate: o.frameRate,
      onFallback: (reason) => fallbacks.push(reason),
      ...(o.maxBatch ? { maxBatch: o.maxBatch } : {}),
    });
    handles.set(id, { source, fallbacks, bitmaps: [] });
    return id;
  },
  get: (id: number, r: GetRequest) => getMany(id, [r]).then((results) => results[0]!),
  getMany,
  getOneByOne,
  runViews,
  decodeFloor,
  /** Opens the media ahead of any get(), as the dialog does; resolves with the time it took. */
  async prepare(id: number): Promise<{ mode: 'worker' | 'server'; ms: number }> {
    const t0 = performance.now();
    const mode = await handle(id).source.prepare();
    return { mode, ms: performance.now() - t0 };
  },
  /** get() then destroy() in the same tick: what the pending get answers. */
  async getThenDestroy(id: number, r: GetRequest): Promise<GetResult> {
    const p = getMany(id, [r]);
    handle(id).source.destroy();
    return (await p)[0]!;
  },
  stats: (id: number): ThumbnailSourceStats => handle(id).source.stats(),
  fallbacks: (id: number) => [...handle(id).fallbacks],
  /** Destroys the source; reports live workers after it and how many bitmaps it handed out are now closed (width 0). */
  destroy(id: number) {
    const h = handle(id);
    h.source.destroy();
    return { liveWorkers, handedOut: h.bitmaps.length, closed: h.bitmaps.filter((b) => b.width === 0).length };
  },
  liveWorkers: () => liveWorkers,
  /** Starts the spare worker as the app shell does when idle after sign-in. */
  prestart: () => prestartThumbnailWorker(),
  /** Stops the spare worker (the next source starts its own, cold). */
  discardSpare: () => discardSpareThumbnailWorker(),
  fetchedUrls: () => [...fetchedUrls],
  devicePixelRatio: () => window.devicePixelRatio,
};

export type ThumbnailsDriver = typeof driver;
(window as unknown as { thumbs: ThumbnailsDriver }).thumbs = driver;
document.body.dataset.ready = 'true';
