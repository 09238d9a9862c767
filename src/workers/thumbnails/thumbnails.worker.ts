/// <reference lib="webworker" />
import { Log } from 'mp4box';
import { TIMELINE } from '../../contract/timeline';
import { domPort, serveRpc, withTransfer, type RpcEndpoint } from '../rpc';
import { HEAD_BYTES, readMovieBoxes } from './mp4Boxes';
import { indexMovie } from './movieIndex';
import { RangeReader } from './rangeReader';
import { planBatch, planRanges, splitLanes, timestampUs, type GopPlan, type SampleTable } from './sampleTable';
import type { BatchStats, FrameRequest, FrameResult, SourceInfo, SourceRole, ThumbnailsProtocol } from './thumbnails.protocol';
import { copyRect, isScalableFormat, scaleToRgba } from './frameScaler';
import { coverRect } from './tileGeometry';

// Decoding runs here so that demuxing, decoding and scaling never take frames from the timeline.

Log.setLogLevel(Log.error);

/** Decode requests allowed to wait in a decoder before we wait for its `dequeue` event. */
const MAX_DECODE_QUEUE = 4;
/** Samples this close in the file are fetched with one request (B-frames, a small audio chunk between). */
const COALESCE_GAP = 64 * 1024;
/** Range requests one batch keeps in flight (Chromium allows 6 HTTP/1.1 connections to a host). */
const PARALLEL_FETCHES = 6;
/**
 * Decoders one batch runs side by side, each on its own share of the GOPs: a software decoder
 * decodes one picture at a time, so a second one keeps the second core busy.
 */
const LANES = Math.max(1, Math.min(2, navigator.hardwareConcurrency || 1));
/**
 * The first request for the server's thumbnail track asks for this much, which holds the whole of a
 * track of up to ~13 minutes of media, index and pictures: every tile is one of its pictures, and each
 * then decodes from memory instead of waiting for range requests (each costs Chromium several ms of
 * CPU, and waiting for them cost the first view ~50 ms). A larger track is read by ranges beyond its
 * first 2 MB; an original is only ever read by the ranges its tiles need.
 */
const READ_WHOLE_BYTES = 2 * 1024 * 1024;
/** Idle decoders kept configured for the next batches. */
const MAX_IDLE_DECODERS = 4;

interface Source {
  reader: RangeReader;
  table: SampleTable;
  config: VideoDecoderConfig;
  info: SourceInfo;
  idle: DecoderSlot[];
}

/** The open sources by role (the original, the server's thumbnail track). */
const sources = new Map<SourceRole, Source>();
/** Ids of the requests of running batches, and those of them cancelled. */
const active = new Set<number>();
const cancelled = new Set<number>();

/** A decoder whose output goes to whichever batch holds it. */
interface DecoderSlot {
  decoder: VideoDecoder;
  /** Takes a decoded frame; the frame is closed when the returned promise (if any) settles. */
  onFrame: (frame: VideoFrame) => void | Promise<void>;
  failure: Error | null;
  /** Wakes a batch waiting for `dequeue`, which a failed decoder never sends. */
  wake: () => void;
}

function newSlot(config: VideoDecoderConfig): DecoderSlot {
  const slot: DecoderSlot = {
    onFrame: (frame) => frame.close(),
    failure: null,
    wake: () => undefined,
    decoder: new VideoDecoder({
      output: (frame) => {
        let pending: void | Promise<void> = undefined;
        try {
          pending = slot.onFrame(frame);
        } finally {
          if (pending) void pending.finally(() => frame.close());
          else frame.close();
        }
      },
      error: (e) => {
        slot.failure = e instanceof Error ? e : new Error(String(e));
        slot.wake();
      },
    }),
  };
  slot.decoder.configure(config);
  return slot;
}

function closeSlot(slot: DecoderSlot) {
  slot.onFrame = (frame) => frame.close();
  if (slot.decoder.state !== 'closed') slot.decoder.close();
}

function closeSource(role: SourceRole) {
  const source = sources.get(role);
  if (!source) return;
  source.idle.forEach(closeSlot);
  source.idle.length = 0;
  source.reader.clear();
  sources.delete(role);
}

async function openSource(url: string, role: SourceRole): Promise<SourceInfo> {
  closeSource(role);
  const t0 = performance.now();
  const reader = new RangeReader(url);
  // A track is asked for whole with its head (one request where it is small, moov first as the server writes it).
  const head = await reader.read(0, role === 'track' ? READ_WHOLE_BYTES : HEAD_BYTES);
  const size = reader.size ?? head.length;
  const { ftyp, moov } = await readMovieBoxes((start, end) => reader.read(start, end), head, size);
  const t1 = performance.now();
  const movie = indexMovie(ftyp, moov);
  const { table } = movie;
  // optimizeForLatency: frames come out as soon as decoded instead of after the reorder window.
  const config: VideoDecoderConfig = {
    codec: movie.codec,
    codedWidth: movie.codedWidth,
    codedHeight: movie.codedHeight,
    optimizeForLatency: true,
  };
  if (movie.description) config.description = movie.description;
  const t2 = performance.now();
  let decodable = false;
  if (typeof VideoDecoder !== 'undefined' && typeof OffscreenCanvas !== 'undefined') {
    try {
      decodable = (await VideoDecoder.isConfigSupported(config)).supported === true;
    } catch {
      decodable = false; // a codec string WebCodecs cannot even parse (e.g. 'mp4v.20.9')
    }
  }
  const t3 = performance.now();
  const seconds = movie.duration;
  const info: SourceInfo = {
    codec: movie.codec,
    width: movie.width,
    height: movie.height,
    duration: seconds,
    frameRate: seconds > 0 ? table.count / seconds : 0,
    sampleCount: table.count,
    syncSampleCount: table.syncs.length,
    keyframeTimes: Array.from(table.syncByPts, (i) => table.pts[i]! / table.timescale),
    decodable,
    bytesRead: reader.bytesRead,
    openMs: { boxes: t1 - t0, index: t2 - t1, supported: t3 - t2, warmUp: 0, total: 0 },
  };
  const source: Source = { reader, table, config, info, idle: [] };
  sources.set(role, source);
  if (decodable) {
    for (let i = 0; i < LANES; i++) source.idle.push(newSlot(config));
    await warmUp(source);
  }
  info.openMs.warmUp = performance.now() - t3;
  info.openMs.total = performance.now() - t0;
  return info;
}

/**
 * Has each idle decoder decode the first keyframe, and drops the picture: a decoder's first picture
 * takes ~30 ms longer than the next ones (measured), which the first view should not wait for. The
 * open waits for it (the dialog opens the media while the timeline mounts). Only decoders still idle
 * once the bytes are here are used; a batch that takes one queues its chunks behind the warm-up.
 */
async function warmUp(src: Source) {
  const first = src.table.syncs[0];
  if (first === undefined) return;
  let data: Uint8Array;
  try {
    data = await src.reader.read(src.table.offset[first]!, src.table.offset[first]! + src.table.size[first]!);
  } catch {
    return; // the first batch will report what is wrong with the source
  }
  const flushed = src.idle.map((slot, i) => {
    if (slot.decoder.state !== 'configured' || slot.failure) return undefined;
    // One picture is also drawn as a timeline tile: the first batch's drawing then runs compiled code
    // on a canvas that exists (measured: the first tiles of a fresh worker took ~3.5 ms each, later ones ~0.7).
    if (i === 0)
      slot.onFrame = (frame) =>
        drawTile(frame, TIMELINE.thumbnailFrameWidth, TIMELINE.thumbnailRowHeight).then(
          (bitmap) => bitmap.close(),
          () => undefined,
        );
    slot.decoder.decode(new EncodedVideoChunk({ type: 'key', timestamp: timestampUs(src.table, first), data }));
    return slot.decoder.flush().catch(() => undefined); // a decoder that fails here fails its first batch too
  });
  await Promise.all(flushed);
  for (const slot of src.idle) slot.onFrame = (frame) => frame.close();
}

/** Canvases by pixel size, reused: transferToImageBitmap hands over the pixels and leaves the canvas blank. */
const canvases = new Map<string, OffscreenCanvasRenderingContext2D>();
function contextFor(width: number, height: number) {
  const key = `${width}x${height}`;
  let ctx = canvases.get(key);
  if (!ctx) {
    const c = new OffscreenCanvas(width, height).getContext('2d', { alpha: false });
    if (!c) throw new Error('No 2D context on OffscreenCanvas');
    ctx = c;
    canvases.set(key, ctx);
  }
  return ctx;
}

/** Picture buffers for `VideoFrame.copyTo`, reused: a 720p frame is 1.4 MB to allocate and zero. */
const buffers: Uint8Array[] = [];
const MAX_BUFFERS = 4;

/**
 * The tile for a frame: cover-cropped and scaled to `width` x `height`. 8-bit frames are scaled
 * from their planes (frameScaler: ~0.5 ms for 720p to 140x90); other formats are drawn by the
 * canvas, which converts the whole picture first (~5 ms without a GPU).
 */
async function drawTile(frame: VideoFrame, width: number, height: number): Promise<ImageBitmap> {
  const r = coverRect(frame.displayWidth, frame.displayHeight, width, height);
  const visible = frame.visibleRect;
  if (visible && isScalableFormat(frame.format)) {
    const kx = visible.width / frame.displayWidth;
    const ky = visible.height / frame.displayHeight;
    const source = { x: visible.x + r.x * kx, y: visible.y + r.y * ky, width: r.width * kx, height: r.height * ky };
    const copied = copyRect(source, visible);
    const size = frame.allocationSize({ rect: copied });
    let buffer = buffers.pop();
    if (!buffer || buffer.length < size) buffer = new Uint8Array(size);
    try {
      const planes = await frame.copyTo(buffer, { rect: copied });
      const rgba = scaleToRgba({
        format: frame.format,
        data: buffer,
        planes,
        copied,
        source,
        width,
        height,
        matrix: frame.colorSpace.matrix,
        fullRange: frame.colorSpace.fullRange,
      });
      const ctx = contextFor(width, height);
      ctx.putImageData(new ImageData(rgba, width, height), 0, 0);
      return ctx.canvas.transferToImageBitmap();
    } finally {
      if (buffers.length < MAX_BUFFERS) buffers.push(buffer);
    }
  }
  const ctx = contextFor(width, height);
  ctx.drawImage(frame, r.x, r.y, r.width, r.height, 0, 0, width, height);
  return ctx.canvas.transferToImageBitmap();
}

/** Resolves on the decoder's next `dequeue` event, or when it fails. */
const dequeued = (slot: DecoderSlot) =>
  new Promise<void>((resolve) => {
    slot.wake = resolve;
    slot.decoder.addEventListener('dequeue', () => resolve(), { once: true });
  });

async function decodeBatch(src: Source, requests: FrameRequest[]): Promise<{ results: FrameResult[]; stats: BatchStats }> {
  const { table, reader } = src;
  const byId = new Map(requests.map((r) => [r.id, r]));
  const done = new Map<number, FrameResult>();
  const began = performance.now();
  const stats: BatchStats = { chunksDecoded: 0, gops: 0, bytesRead: 0, rangeRequests: 0, waitBytesMs: 0, drawMs: 0, totalMs: 0 };
  const bytesBefore = reader.bytesRead;
  const requestsBefore = reader.requests;
  const isCancelled = (id: number) => cancelled.has(id) || done.has(id);
  for (const r of requests) active.add(r.id);

  const plans = planBatch(table, requests);
  // Frames wanted, by timestamp; every other frame a decoder outputs is closed unseen.
  const wanted = new Map<number, number[]>();
  /** Tiles being drawn (copying a frame's planes is asynchronous); the batch waits for them. */
  const drawing = new Set<Promise<void>>();
  const onFrame = (frame: VideoFrame): Promise<void> | undefined => {
    const ids = wanted.get(frame.timestamp);
    if (!ids) return undefined;
    wanted.delete(frame.timestamp);
    const draw = (async () => {
      for (const id of ids) {
        if (isCancelled(id)) continue;
        const r = byId.get(id)!;
        const t0 = performance.now();
        try {
          done.set(id, { id, status: 'ok', bitmap: await drawTile(frame, r.width, r.height) });
        } catch (e) {
          done.set(id, { id, status: 'error', message: e instanceof Error ? e.message : String(e) });
        }
        stats.drawMs += performance.now() - t0;
      }
    })();
    drawing.add(draw);
    void draw.finally(() => drawing.delete(draw));
    return draw;
  };
  const live = (p: GopPlan) => p.targets.some((t) => !isCancelled(t.id));

  /** Feeds a lane's GOPs to one decoder, then flushes it; GOPs are independent, so lanes run side by side. */
  const runLane = async (slot: DecoderSlot, lane: GopPlan[]) => {
    let fed = 0;
    /** Chunks given to the decoder since its last flush. */
    let unflushed = 0;
    for (const plan of lane) {
      if (!live(plan)) continue;
      stats.gops++;
      for (const t of plan.targets) {
        const ts = timestampUs(table, t.sample);
        wanted.set(ts, [...(wanted.get(ts) ?? []), t.id]);
      }
      // Chromium's decoder starts on a picture only once two more chunks are queued behind it (measured:
      // a keyframe fed alone comes out 10 ms after the second chunk after it). Between GOPs, when this
      // lane would now wait for bytes, a flush lets the decoder work on what it holds meanwhile; with
      // the bytes at hand it keeps its pipeline (flushing after every GOP measured slower).
      if (unflushed > 0 && !reader.cached(table.offset[plan.start]!, table.offset[plan.start]! + table.size[plan.start]!)) {
        slot.decoder.flush().catch(() => undefined);
        unflushed = 0;
      }
      for (let i = plan.start; i <= plan.end; i++) {
        // Every GOP starts at a sync sample, so the decoder can leave one half-way for the next.
        if (!live(plan)) break;
        const t0 = performance.now();
        const data = await reader.read(table.offset[i]!, table.offset[i]! + table.size[i]!);
        stats.waitBytesMs += performance.now() - t0;
        while (slot.decoder.decodeQueueSize > MAX_DECODE_QUEUE && !slot.failure) await dequeued(slot);
        if (slot.failure) throw slot.failure;
        slot.decoder.decode(
          new EncodedVideoChunk({
            type: i === plan.start || table.isSync[i] ? 'key' : 'delta',
            timestamp: timestampUs(table, i),
            duration: Math.round((table.duration[i]! * 1e6) / table.timescale),
            data,
          }),
        );
        fed++;
        unflushed++;
        stats.chunksDecoded++;
      }
    }
    // The last pictures come out with the final flush.
    if (fed > 0) await slot.decoder.flush();
    if (slot.failure) throw slot.failure;
  };

  const abort = new AbortController();
  const prefetch = reader.prefetch(planRanges(table, plans), COALESCE_GAP, PARALLEL_FETCHES, abort.signal).catch(() => undefined);
  const lanes = splitLanes(plans, LANES);
  const slots = lanes.map(() => {
    const slot = src.idle.pop() ?? newSlot(src.config);
    slot.onFrame = onFrame;
    return slot;
  });
  const settled = await Promise.allSettled(lanes.map((lane, i) => runLane(slots[i]!, lane)));
  await Promise.all(drawing);
  abort.abort();
  await prefetch;
  const failure = settled.find((r) => r.status === 'rejected');
  if (failure) {
    const e: unknown = failure.reason;
    const message = e instanceof Error ? e.message : String(e);
    for (const r of requests) if (!done.has(r.id) && !cancelled.has(r.id)) done.set(r.id, { id: r.id, status: 'error', message });
  }
  settled.forEach((r, i) => {
    const slot = slots[i]!;
    if (r.status === 'fulfilled' && src.idle.length < MAX_IDLE_DECODERS && [...sources.values()].includes(src)) {
      slot.onFrame = (frame) => frame.close();
      src.idle.push(slot);
    } else closeSlot(slot);
  });
  stats.bytesRead = reader.bytesRead - bytesBefore;
  stats.rangeRequests = reader.requests - requestsBefore;
  stats.totalMs = performance.now() - began;

  const results = requests.map((r): FrameResult => {
    const result = done.get(r.id);
    const wasCancelled = cancelled.delete(r.id);
    active.delete(r.id);
    if (result?.status === 'ok' && wasCancelled) {
      result.bitmap.close();
      return { id: r.id, status: 'cancelled' };
    }
    if (result) return result;
    if (wasCancelled) return { id: r.id, status: 'cancelled' };
    return { id: r.id, status: 'error', message: 'The decoder produced no frame for this time' };
  });
  return { results, stats };
}

serveRpc<ThumbnailsProtocol>(domPort(self as unknown as RpcEndpoint), {
  open: ({ url, role }) => openSource(url, role),
  thumbnails: async ({ requests, role }) => {
    const source = sources.get(role);
    if (!source) throw new Error(`No ${role === 'track' ? 'thumbnail track' : 'media'} is open`);
    if (!source.info.decodable) throw new Error(`The codec ${source.info.codec} cannot be decoded here`);
    const out = await decodeBatch(source, requests);
    const bitmaps = out.results.flatMap((r) => (r.status === 'ok' ? [r.bitmap] : []));
    return withTransfer(out, bitmaps);
  },
  cancel: ({ ids }) => {
    const running = ids.filter((id) => active.has(id));
    for (const id of running) cancelled.add(id);
    return { cancelled: running.length };
  },
  close: () => {
    for (const role of [...sources.keys()]) closeSource(role);
    return { closed: true };
  },
});
