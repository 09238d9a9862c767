import { MSG_MOMENT } from '../../contract';
import { ThumbnailError, type ThumbnailRequest, type ThumbnailSource } from '../../engine/thumbnailSource';
import { createRpcClient, domPort, WorkerRpcError, type RpcClient } from '../rpc';
import { ImageCache } from './imageCache';
import { abortError, ThumbnailQueue } from './thumbnailQueue';
import type { FrameRequest, SourceInfo, SourceRole, ThumbnailsProtocol } from './thumbnails.protocol';
import { coverRect, frameIndexOf, keyframeIndexOf, thumbnailKey, tilePixels } from './tileGeometry';

export interface ThumbnailSourceOptions {
  /** `API.mediaSource(...)?token=…` when `media.capabilities.source`, else null (server thumbnails only). */
  sourceUrl: string | null;
  /** `API.mediaThumbnail(...)?token=…&t=<seconds>`: the server-made fallback picture. */
  serverThumbnailUrl: (seconds: number) => string;
  duration: number;
  frameRate: number;
  /** Told once why thumbnails come from the server (the spec's Safari text when that is the reason). */
  onFallback?(reason: string): void;
  /**
   * `API.mediaThumbnailTrack(...)?token=…` when `media.capabilities.thumbnailTrack`: keyframe tiles
   * are decoded from this small all-keyframe file instead of the original.
   */
  trackUrl?: string | null;
  /** Most thumbnails one queue job asks of the worker; bigger batches mean fewer queue starts, later first pictures. */
  maxBatch?: number;
}

export interface ThumbnailSourceStats {
  mode: 'undecided' | 'worker' | 'server';
  /** Queue jobs run (one per batch of thumbnails). */
  batches: number;
  /** Thumbnails asked of the worker, and what decoding them cost. */
  workerRequests: number;
  chunksDecoded: number;
  /** Media bytes and range requests, including opening the source. */
  bytesRead: number;
  rangeRequests: number;
  /** Summed over batches, in the worker: waiting for media bytes, drawing tiles, whole batches. */
  workerWaitBytesMs: number;
  workerDrawMs: number;
  workerBatchMs: number;
  /** Summed over batches: from the oldest request of the batch being asked for to its queue job starting. */
  queueWaitMs: number;
  /** Summed over batches: the worker call's round trip (the batch in the worker plus messaging and transfer). */
  callMs: number;
  /** Opening on the main thread: from starting the worker to the worker's answer to `open` (its part is in track.openMs with a thumbnail track, else source.openMs). */
  openMs: number;
  /** Where keyframe tiles come from, once decided. */
  keyframesFrom: Route | 'undecided';
  serverThumbnails: number;
  cacheHits: number;
  /** The original, once opened in the worker. */
  source: SourceInfo | null;
  /** The server's thumbnail track, once opened in the worker. */
  track: SourceInfo | null;
}

/** Where a tile's picture comes from: a file decoded in the worker, or the server's picture. */
type Route = SourceRole | 'server';

/** A ThumbnailSource that also reports what it did (for the timeline's diagnostics, tests and benchmarks). */
export interface WorkerThumbnailSource extends ThumbnailSource {
  /** Counters since creation. */
  stats(): ThumbnailSourceStats;
  /**
   * Starts the worker and opens the media now instead of at the first get(): the dialog calls it as
   * it opens, so the file's index is read while the timeline is still being laid out.
   */
  prepare(): Promise<'worker' | 'server'>;
}

const DEFAULT_MAX_BATCH = 24;

/** A started thumbnail worker and its RPC client. */
interface StartedWorker {
  worker: Worker;
  rpc: RpcClient<ThumbnailsProtocol>;
}

/**
 * A worker no source uses, kept for the next one: starting a worker (fetching and compiling its
 * script, mp4box included) took 45-80 ms here, which a timeline opened after another, or after
 * `prestartThumbnailWorker`, does not wait for. At most one is kept, with no file open in it.
 */
let spare: StartedWorker | null = null;

const canDecodeInWorker = () =>
  typeof VideoDecoder !== 'undefined' && typeof OffscreenCanvas !== 'undefined' && typeof Worker !== 'undefined';

function startWorker(): StartedWorker {
  const worker = new Worker(new URL('./thumbnails.worker.ts', import.meta.url), { type: 'module', name: 'thumbnails' });
  const started = { worker, rpc: createRpcClient<ThumbnailsProtocol>(domPort(worker)) };
  // A spare that fails to load is dropped; a source using it has its own listener.
  worker.addEventListener('error', () => {
    if (spare !== started) return;
    spare = null;
    stopStarted(started);
  });
  return started;
}

function stopStarted(s: StartedWorker) {
  s.rpc.dispose();
  s.worker.terminate();
}

/** The spare when there is one, else a new worker. */
function takeWorker(): StartedWorker {
  const s = spare ?? startWorker();
  spare = null;
  return s;
}

/** A worker a source is done with: its files closed, kept as the spare unless there is one. */
function releaseWorker(s: StartedWorker) {
  if (spare) return stopStarted(s);
  spare = s;
  s.rpc.call('close', {}).catch(() => {
    if (spare === s) spare = null;
    stopStarted(s);
  });
}

/**
 * Starts the thumbnail worker ahead of the first timeline (the app calls it when idle after sign-in),
 * so the first moment opened does not wait for the worker's start. Does nothing where no worker can
 * decode, or when a spare is already there.
 */
export function prestartThumbnailWorker(): void {
  if (!spare && canDecodeInWorker()) spare = startWorker();
}

/** Stops the spare worker, if any (for tests and benchmarks that measure a cold start). */
export function discardSpareThumbnailWorker(): void {
  const s = spare;
  spare = null;
  if (s) stopStarted(s);
}

interface Waiter {
  resolve: (bitmap: ImageBitmap) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal;
  onAbort: () => void;
}

/** One thumbnail being made, shared by every get() of the same key. */
interface Pending {
  id: number;
  key: string;
  time: number;
  precision: 'keyframe' | 'exact';
  width: number;
  height: number;
  waiters: Set<Waiter>;
  /** Aborted when the last waiter leaves: stops a server fetch. */
  controller: AbortController;
  inWorker: boolean;
  /** performance.now() when it was first asked for. */
  askedAt: number;
}

const isSafari = () => {
  const ua = globalThis.navigator?.userAgent ?? '';
  return /Safari\//.test(ua) && !/(Chrome|Chromium|CriOS|FxiOS|Edg|Android)/.test(ua);
};

/**
 * Thumbnails for one media: decoded from its original by the WebCodecs worker (byte ranges only),
 * or fetched from the server when the browser or the codec cannot. Requests wait in one list; a
 * thumbnail queue job takes up to `maxBatch` of them when it starts, not when it is queued, so every
 * request made while a job waits for its slot (a view update, the tiles a scroll brings in one by
 * one) rides along with it instead of costing a start of its own. Results land in the image cache,
 * which owns the bitmaps.
 */
export function createThumbnailSource(options: ThumbnailSourceOptions): WorkerThumbnailSource {
  const cache = new ImageCache();
  const queue = new ThumbnailQueue();
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const pending = new Map<string, Pending>();
  /** Requests no job has taken yet, in the order asked (abandoned ones leave at once). */
  let waiting: Pending[] = [];
  /** Queue jobs not started yet: each will take up to maxBatch of `waiting`; aborting one drops it unstarted. */
  const jobs: AbortController[] = [];
  let scheduled = false;
  let toCancel: number[] = [];
  let nextId = 1;
  let destroyed = false;
  let worker: Worker | null = null;
  let rpc: RpcClient<ThumbnailsProtocol> | null = null;
  const counters: ThumbnailSourceStats = {
    mode: 'undecided',
    batches: 0,
    workerRequests: 0,
    chunksDecoded: 0,
    bytesRead: 0,
    rangeRequests: 0,
    workerWaitBytesMs: 0,
    workerDrawMs: 0,
    workerBatchMs: 0,
    queueWaitMs: 0,
    callMs: 0,
    openMs: 0,
    keyframesFrom: 'undecided',
    serverThumbnails: 0,
    cacheHits: 0,
    source: null,
    track: null,
  };

  let toldFallback = false;
  const fallback = (reason: string): 'server' => {
    if (!destroyed && !toldFallback) options.onFallback?.(reason);
    toldFallback = true;
    return 'server';
  };

  let onWorkerError: ((event: ErrorEvent) => void) | null = null;
  /** Lets go of the worker: kept as the spare (`failed`: terminated) after cancelling this source's work in it. */
  const stopWorker = (failed = false) => {
    if (!worker || !rpc) return;
    const started = { worker, rpc };
    if (onWorkerError) worker.removeEventListener('error', onWorkerError);
    onWorkerError = null;
    rpc = null;
    worker = null;
    if (failed) return stopStarted(started);
    const running = [...pending.values()].filter((p) => p.inWorker).map((p) => p.id);
    if (running.length) started.rpc.call('cancel', { ids: running }).catch(() => undefined);
    releaseWorker(started);
  };

  /** Why no worker can decode here at all, or null when one can. */
  const noWorkerReason = () =>
    !canDecodeInWorker() ? (isSafari() ? MSG_MOMENT.thumbnailsSafari : 'This browser cannot decode video in a worker (WebCodecs).') : null;

  /** The worker, started on first use; null once it failed (everything then comes from the server). */
  let workerFailed = false;
  const ensureWorker = (): RpcClient<ThumbnailsProtocol> | null => {
    if (rpc) return rpc;
    if (workerFailed || destroyed) return null;
    const { worker: w, rpc: c } = takeWorker();
    // A worker that fails to load or crashes would otherwise leave its callers waiting forever.
    onWorkerError = (event) => {
      c.failAll(new WorkerRpcError(event.message || 'The thumbnail worker failed.'));
      if (worker !== w) return;
      stopWorker(true);
      workerFailed = true;
      opened.clear();
      routes.keyframe = routes.exact = null;
      if (counters.mode === 'worker') counters.mode = 'server';
      fallback('The thumbnail worker failed.');
    };
    w.addEventListener('error', onWorkerError);
    worker = w;
    rpc = c;
    return c;
  };

  /** Each role's open, once: its info when the worker can decode it, else why not. */
  const opened = new Map<SourceRole, Promise<SourceInfo | string>>();
  const open = (role: SourceRole): Promise<SourceInfo | string> => {
    let p = opened.get(role);
    if (p) return p;
    p = (async (): Promise<SourceInfo | string> => {
      const url = role === 'track' ? (options.trackUrl ?? null) : options.sourceUrl;
      const unable = noWorkerReason();
      if (unable) return unable;
      if (!url) return 'The media source cannot be read by the browser.';
      const c = ensureWorker();
      if (!c) return 'The thumbnail worker failed.';
      const started = performance.now();
      try {
        const info = await c.call('open', { url: new URL(url, globalThis.location?.href).href, role });
        counters.bytesRead += info.bytesRead;
        // The open the first view waits for: the track's when there is one.
        if (role === 'track' || !options.trackUrl) counters.openMs = performance.now() - started;
        if (role === 'track') counters.track = info;
        else counters.source = info;
        if (!info.decodable) return `The video codec ${info.codec} cannot be decoded in this browser.`;
        // Without a track, an original the worker can decode is where keyframe tiles come from too.
        if (role === 'original' && !options.trackUrl) counters.keyframesFrom = 'original';
        return info;
      } catch (e) {
        return `The media source could not be opened: ${e instanceof Error ? e.message : String(e)}`;
      }
    })();
    opened.set(role, p);
    return p;
  };

  /**
   * Where each precision's pictures come from, decided once: keyframe tiles from the server's
   * thumbnail track when there is one (small pictures, ~10x cheaper to decode), else from the
   * original; frame-exact tiles from the original. A role that cannot be used sends its tiles to the
   * server's pictures, and says why once.
   */
  const routes: { keyframe: Promise<Route> | null; exact: Promise<Route> | null } = { keyframe: null, exact: null };
  const route = (precision: 'keyframe' | 'exact'): Promise<Route> => {
    const known = routes[precision];
    if (known) return known;
    const decided = (async (): Promise<Route> => {
      const roles: SourceRole[] = precision === 'keyframe' && options.trackUrl ? ['track', 'original'] : ['original'];
      let why = '';
      for (const role of roles) {
        const info = await open(role);
        if (typeof info !== 'string') return role;
        why ||= info; // the first reason is the one told; the original may still do where the track cannot
      }
      return fallback(why);
    })();
    routes[precision] = decided;
    void decided.then((r) => {
      if (routes[precision] !== decided) return; // the worker failed meanwhile: decided again
      if (r !== 'server') counters.mode = 'worker';
      else if (counters.mode !== 'worker') counters.mode = 'server';
      if (precision === 'keyframe') counters.keyframesFrom = r;
    });
    // No file the worker opened can be decoded: it has nothing to do (every role's answer is kept).
    void decided.then(async (r) => {
      if (r === 'server' && (await Promise.all(opened.values())).every((o) => typeof o === 'string')) stopWorker();
    });
    return decided;
  };

  const chooseMode = async (): Promise<'worker' | 'server'> => ((await route('keyframe')) === 'server' ? 'server' : 'worker');

  const detach = (p: Pending) => {
    if (pending.get(p.key) === p) pending.delete(p.key);
    const waiters = [...p.waiters];
    p.waiters.clear();
    for (const w of waiters) w.signal.removeEventListener('abort', w.onAbort);
    return waiters;
  };

  const deliver = (p: Pending, bitmap: ImageBitmap) => {
    if (destroyed) return void bitmap.close();
    cache.set(p.key, bitmap);
    for (const w of detach(p)) w.resolve(bitmap);
  };

  const fail = (p: Pending, error: unknown) => {
    for (const w of detach(p)) w.reject(error);
  };

  const sendCancels = () => {
    const ids = toCancel;
    toCancel = [];
    if (ids.length && rpc) rpc.call('cancel', { ids }).catch(() => undefined);
  };

  /** The last waiter left: stop the work wherever it is. */
  const abandon = (p: Pending) => {
    detach(p);
    p.controller.abort();
    if (p.inWorker) {
      if (toCancel.push(p.id) === 1) queueMicrotask(sendCancels);
    }
    const at = waiting.indexOf(p);
    if (at >= 0) {
      waiting.splice(at, 1);
      schedule(); // a job left with nothing to take drops out of the queue
    }
  };

  async function serverThumbnail(p: Pending): Promise<void> {
    counters.serverThumbnails++;
    try {
      const res = await fetch(options.serverThumbnailUrl(p.time), { signal: p.controller.signal });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const full = await createImageBitmap(await res.blob());
      let bitmap: ImageBitmap;
      try {
        const r = coverRect(full.width, full.height, p.width, p.height);
        bitmap = await createImageBitmap(full, Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height), {
          resizeWidth: p.width,
          resizeHeight: p.height,
          resizeQuality: 'medium',
        });
      } finally {
        full.close();
      }
      deliver(p, bitmap);
    } catch {
      fail(p, new ThumbnailError(MSG_MOMENT.thumbnailFailed));
    }
  }

  async function runBatch(batch: Pending[]): Promise<void> {
    const live = batch.filter((e) => !e.controller.signal.aborted);
    if (live.length === 0) return;
    counters.batches++;
    const precisions = [...new Set(live.map((e) => e.precision))];
    const routed = new Map(await Promise.all(precisions.map(async (p) => [p, await route(p)] as const)));
    if (destroyed) return;
    const groups = new Map<Route, Pending[]>();
    for (const e of live) {
      const r = routed.get(e.precision)!;
      groups.set(r, [...(groups.get(r) ?? []), e]);
    }
    await Promise.all([...groups].map(([r, group]) => (r === 'server' ? Promise.all(group.map(serverThumbnail)) : inWorker(r, group))));
  }

  /** Decodes a group of tiles from one of the worker's files; what the worker cannot make, the server does. */
  async function inWorker(role: SourceRole, group: Pending[]): Promise<void> {
    const c = rpc;
    if (!c) return void (await Promise.all(group.map(serverThumbnail)));
    const requests: FrameRequest[] = [];
    for (const e of group) {
      if (e.controller.signal.aborted) continue;
      e.inWorker = true;
      requests.push({ id: e.id, time: e.time, precision: e.precision, width: e.width, height: e.height });
    }
    if (requests.length === 0) return;
    counters.workerRequests += requests.length;
    const byId = new Map(group.map((e) => [e.id, e]));
    const retry: Pending[] = [];
    try {
      const called = performance.now();
      const { results, stats } = await c.call('thumbnails', { requests, role });
      counters.callMs += performance.now() - called;
      counters.chunksDecoded += stats.chunksDecoded;
      counters.bytesRead += stats.bytesRead;
      counters.rangeRequests += stats.rangeRequests;
      counters.workerWaitBytesMs += stats.waitBytesMs;
      counters.workerDrawMs += stats.drawMs;
      counters.workerBatchMs += stats.totalMs;
      for (const r of results) {
        const e = byId.get(r.id)!;
        e.inWorker = false;
        if (r.status === 'ok') deliver(e, r.bitmap);
        else if (r.status === 'cancelled') fail(e, abortError());
        else retry.push(e);
      }
    } catch {
      // The worker failed the whole batch (or died): the server can still make these pictures.
      for (const e of group) if (e.inWorker) retry.push(e);
    }
    if (destroyed) return;
    await Promise.all(retry.filter((e) => !e.controller.signal.aborted).map(serverThumbnail));
  }

  /** A queue job: takes what is waiting when its slot comes. */
  const startJob = (controller: AbortController) => async () => {
    const at = jobs.indexOf(controller);
    if (at >= 0) jobs.splice(at, 1);
    const batch = waiting.splice(0, maxBatch);
    if (batch.length) counters.queueWaitMs += performance.now() - Math.min(...batch.map((p) => p.askedAt));
    try {
      await runBatch(batch);
    } catch {
      for (const p of batch) fail(p, new ThumbnailError(MSG_MOMENT.thumbnailFailed)); // a bug: nobody may wait forever
    }
  };

  /** Keeps one queued job for every maxBatch requests waiting: adds the missing ones, drops the ones with nothing left to take. */
  function schedule() {
    if (destroyed) return;
    // A job may start at once (a free slot, the gap passed) and take its share before the next check.
    while (jobs.length < Math.ceil(waiting.length / maxBatch)) {
      const controller = new AbortController();
      jobs.push(controller);
      // Rejects only when dropped unstarted (below, or by destroy, which answers every request itself).
      queue.enqueue(startJob(controller), controller.signal).catch(() => undefined);
    }
    while (jobs.length > Math.ceil(waiting.length / maxBatch)) jobs.pop()!.abort();
  }

  return {
    get(request: ThumbnailRequest): Promise<ImageBitmap> {
      const { signal } = request;
      if (destroyed || signal.aborted) return Promise.reject(abortError());
      const px = tilePixels(request.width, request.height, globalThis.devicePixelRatio);
      // Keyframe tiles are keyed by the keyframes of the file they come from, once that is decided.
      const keyframes =
        counters.keyframesFrom === 'track'
          ? counters.track?.keyframeTimes
          : counters.keyframesFrom === 'original'
            ? counters.source?.keyframeTimes
            : undefined;
      const at =
        request.precision === 'keyframe' && keyframes?.length
          ? (`k${keyframeIndexOf(request.time, keyframes)}` as const)
          : frameIndexOf(request.time, options.frameRate);
      const key = thumbnailKey(at, request.precision, px.width, px.height);
      const hit = cache.get(key);
      if (hit) {
        counters.cacheHits++;
        return Promise.resolve(hit);
      }
      let p = pending.get(key);
      if (!p) {
        const time = Math.min(Math.max(0, request.time), Math.max(0, options.duration));
        p = {
          id: nextId++,
          key,
          time,
          precision: request.precision,
          ...px,
          waiters: new Set(),
          controller: new AbortController(),
          inWorker: false,
          askedAt: performance.now(),
        };
        pending.set(key, p);
        waiting.push(p);
        // The requests of this tick (a view update) are in before a job that starts at once takes them.
        if (!scheduled) {
          scheduled = true;
          queueMicrotask(() => {
            scheduled = false;
            schedule();
          });
        }
      }
      const entry = p;
      return new Promise<ImageBitmap>((resolve, reject) => {
        const waiter: Waiter = {
          resolve,
          reject,
          signal,
          onAbort: () => {
            if (!entry.waiters.delete(waiter)) return;
            reject(abortError());
            if (entry.waiters.size === 0) abandon(entry);
          },
        };
        entry.waiters.add(waiter);
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      });
    },

    destroy() {
      if (destroyed) return;
      destroyed = true;
      queue.dispose();
      stopWorker(); // first: it cancels what is still being decoded for this source
      for (const p of [...pending.values()]) {
        p.controller.abort();
        fail(p, abortError());
      }
      waiting = [];
      jobs.length = 0;
      cache.destroy();
    },

    stats: () => ({ ...counters }),

    prepare: () => (destroyed ? Promise.resolve(counters.mode === 'worker' ? 'worker' : 'server') : chooseMode()),
  };
}
