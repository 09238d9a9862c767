import { ALL_FORMATS, EncodedPacketSink, Input, CustomSource, UrlSource, type EncodedPacket } from 'mediabunny';
import { indexMovie, type MovieIndex } from '../../../../src/workers/thumbnails/movieIndex';
import { HEAD_BYTES, readMovieBoxes } from '../../../../src/workers/thumbnails/mp4Boxes';
import { RangeReader } from '../../../../src/workers/thumbnails/rangeReader';
import { planBatch, planRanges, syncAtOrBefore } from '../../../../src/workers/thumbnails/sampleTable';

/**
 * Opens one media by HTTP byte ranges with the thumbnail worker's own reader (rangeReader, mp4Boxes,
 * movieIndex: the calls thumbnails.worker.ts makes) or with mediabunny, and reads keyframes, for
 * tests/bench/demuxer.bench.ts. One reader instance is held at a time, from open() to drop().
 */

/** `mediabunny+RangeReader`: mediabunny demuxing, its bytes read through our RangeReader (exact ranges, no read-ahead). */
export type ReaderName = 'ours' | 'mediabunny' | 'mediabunny+RangeReader';

/** The worker's batch settings (thumbnails.worker.ts): coalescing gap and range requests in flight. */
const COALESCE_GAP = 64 * 1024;
const PARALLEL_FETCHES = 6;

export interface OpenOptions {
  /**
   * mediabunny only: instead of the full sample index, locate the keyframes at these times (seconds)
   * with metadata-only packet lookups, which is all its lazy index needs to read.
   */
  lazyTimes?: number[];
  /**
   * mediabunny only: list the keyframes (key packet after key packet, metadata only) but not every
   * packet, so the sample count stays unknown.
   */
  keyframesOnly?: boolean;
  /** Count requests and body bytes the reader consumes (through a wrapped fetch); off for timed runs. */
  counted?: boolean;
}

export interface OpenResult {
  ms: number;
  codec: string;
  descriptionBytes: number;
  descriptionHash: string;
  /** Null when the index was not built (mediabunny's lazy open). */
  sampleCount: number | null;
  /** Keyframe presentation times in µs, ascending. */
  keyframeTimesUs: number[] | null;
  /** Lazy open: the keyframe located for each of `lazyTimes`, µs. */
  locatedUs: number[] | null;
}

export interface KeyframesResult {
  ms: number;
  /** For each requested time: the keyframe's presentation time, size and a hash of its bytes. */
  frames: { timeUs: number; bytes: number; hash: string }[];
}

type Held = { kind: 'ours'; reader: RangeReader; movie: MovieIndex } | { kind: 'mediabunny'; input: Input; sink: EncodedPacketSink };

let held: Held | null = null;
const counters = { requests: 0, bytes: 0 };

/** fetch, counting each request and the body bytes its reader pulls (an aborted stream counts what was read). */
const countingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  counters.requests++;
  if (!res.body) return res;
  const counted = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        counters.bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
  );
  return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
};

function fnv1a(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

const us = (seconds: number) => Math.round(seconds * 1e6);

function asBytes(d: AllowSharedBufferSource | undefined): Uint8Array {
  if (!d) return new Uint8Array(0);
  return ArrayBuffer.isView(d) ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength) : new Uint8Array(d);
}

async function openOurs(url: string, counted: boolean): Promise<OpenResult> {
  const t0 = performance.now();
  // As thumbnails.worker.ts openSource: head read, moov found by box hops, index from its tables.
  const reader = new RangeReader(url, counted ? countingFetch : undefined);
  const head = await reader.read(0, HEAD_BYTES);
  const size = reader.size ?? head.length;
  const { ftyp, moov } = await readMovieBoxes((start, end) => reader.read(start, end), head, size);
  const movie = indexMovie(ftyp, moov);
  const { table } = movie;
  const keyframeTimes = Array.from(table.syncByPts, (i) => table.pts[i]! / table.timescale);
  const ms = performance.now() - t0;
  held = { kind: 'ours', reader, movie };
  const description = movie.description ?? new Uint8Array(0);
  return {
    ms,
    codec: movie.codec,
    descriptionBytes: description.length,
    descriptionHash: fnv1a(description),
    sampleCount: table.count,
    keyframeTimesUs: keyframeTimes.map(us),
    locatedUs: null,
  };
}

async function openMediabunny(url: string, o: OpenOptions, overRangeReader: boolean): Promise<OpenResult> {
  const t0 = performance.now();
  let source: UrlSource | CustomSource;
  if (overRangeReader) {
    const reader = new RangeReader(url, o.counted ? countingFetch : undefined);
    source = new CustomSource({
      getSize: async () => {
        const head = await reader.read(0, HEAD_BYTES);
        return reader.size ?? head.length;
      },
      read: (start, end) => reader.read(start, end),
      prefetchProfile: 'none',
    });
  } else source = new UrlSource(url, o.counted ? { fetchFn: countingFetch } : {});
  const input = new Input({ source, formats: ALL_FORMATS });
  const track = await input.getPrimaryVideoTrack();
  if (!track) throw new Error('mediabunny found no video track');
  const config = await track.getDecoderConfig();
  if (!config) throw new Error('mediabunny has no decoder config for the video track');
  const sink = new EncodedPacketSink(track);
  let sampleCount: number | null = null;
  let keyframeTimes: number[] | null = null;
  let located: number[] | null = null;
  if (o.lazyTimes) {
    const packets = await Promise.all(o.lazyTimes.map((t) => sink.getKeyPacket(t, { metadataOnly: true })));
    located = packets.map((p) => (p ? p.timestamp : NaN));
  } else if (o.keyframesOnly) {
    keyframeTimes = [];
    for (let p = await sink.getFirstKeyPacket({ metadataOnly: true }); p; p = await sink.getNextKeyPacket(p, { metadataOnly: true }))
      keyframeTimes.push(p.timestamp);
    keyframeTimes.sort((a, b) => a - b);
  } else {
    // The full index: every packet's metadata in one pass (what computePacketStats does), keyframes kept.
    sampleCount = 0;
    keyframeTimes = [];
    for await (const packet of sink.packets(undefined, undefined, { metadataOnly: true })) {
      sampleCount++;
      if (packet.type === 'key') keyframeTimes.push(packet.timestamp);
    }
    keyframeTimes.sort((a, b) => a - b);
  }
  const ms = performance.now() - t0;
  held = { kind: 'mediabunny', input, sink };
  const description = asBytes(config.description);
  return {
    ms,
    codec: config.codec,
    descriptionBytes: description.length,
    descriptionHash: fnv1a(description),
    sampleCount,
    keyframeTimesUs: keyframeTimes?.map(us) ?? null,
    locatedUs: located?.map(us) ?? null,
  };
}

async function keyframesOurs(h: Extract<Held, { kind: 'ours' }>, times: number[], batch: boolean) {
  const { reader } = h;
  const { table } = h.movie;
  const sampleOf: number[] = [];
  const data = new Map<number, Uint8Array>();
  const bytesOf = (i: number) => reader.read(table.offset[i]!, table.offset[i]! + table.size[i]!);
  const t0 = performance.now();
  if (batch) {
    // As the worker's decodeBatch for keyframe requests: one plan, its ranges prefetched (coalesced,
    // multi-range requests, 6 in flight), each GOP's sync sample read from the reader.
    const plans = planBatch(
      table,
      times.map((time, id) => ({ id, time, precision: 'keyframe' as const })),
    );
    for (const p of plans) for (const t of p.targets) sampleOf[t.id] = t.sample;
    const prefetch = reader.prefetch(planRanges(table, plans), COALESCE_GAP, PARALLEL_FETCHES).catch(() => undefined);
    for (const p of plans) data.set(p.start, await bytesOf(p.start));
    await prefetch;
  } else {
    for (const [id, time] of times.entries()) {
      const i = syncAtOrBefore(table, time);
      sampleOf[id] = i;
      data.set(i, await bytesOf(i));
    }
  }
  const ms = performance.now() - t0;
  return {
    ms,
    frames: sampleOf.map((i) => ({ timeUs: us(table.pts[i]! / table.timescale), bytes: data.get(i)!.length, hash: fnv1a(data.get(i)!) })),
  };
}

async function keyframesMediabunny(h: Extract<Held, { kind: 'mediabunny' }>, times: number[], batch: boolean) {
  const t0 = performance.now();
  let packets: (EncodedPacket | null)[] = [];
  if (batch) packets = await Promise.all(times.map((t) => h.sink.getKeyPacket(t)));
  else for (const t of times) packets.push(await h.sink.getKeyPacket(t));
  const ms = performance.now() - t0;
  return {
    ms,
    frames: packets.map((p) => {
      if (!p) throw new Error('mediabunny found no keyframe');
      return { timeUs: us(p.timestamp), bytes: p.data.length, hash: fnv1a(p.data) };
    }),
  };
}

const driver = {
  /** Opens `url` with a new reader instance (the previous one is dropped first). */
  async open(reader: ReaderName, url: string, o: OpenOptions = {}): Promise<OpenResult> {
    driver.drop();
    return reader === 'ours' ? openOurs(url, o.counted === true) : openMediabunny(url, o, reader === 'mediabunny+RangeReader');
  },
  /** Locates and reads the keyframe at or before each time: in one batch, or one after another. */
  async readKeyframes(times: number[], batch: boolean): Promise<KeyframesResult> {
    if (!held) throw new Error('Nothing is open');
    return held.kind === 'ours' ? keyframesOurs(held, times, batch) : keyframesMediabunny(held, times, batch);
  },
  /** Lets the held reader go (mediabunny's Input is disposed, which aborts its reads). */
  drop() {
    if (held?.kind === 'mediabunny') held.input.dispose();
    if (held?.kind === 'ours') held.reader.clear();
    held = null;
  },
  counters: () => ({ ...counters }),
  resetCounters() {
    counters.requests = 0;
    counters.bytes = 0;
  },
};

export type DemuxerDriver = typeof driver;
(window as unknown as { demux: DemuxerDriver }).demux = driver;
document.body.dataset.ready = 'true';
