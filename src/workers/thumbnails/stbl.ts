/**
 * A track's sample tables read straight from the moov bytes into typed arrays, and a copy of the
 * moov without them for mp4box. mp4box turns every sample of every track into an object when it
 * parses a moov (216,000 objects for a 2-hour 30 fps video track, before the audio's); all the
 * thumbnail worker needs from it is the codec configuration, so it gets a moov whose sample tables
 * are empty and the table is read here, from stts/ctts/stss/stsz/stz2/stsc/stco/co64.
 */
import { Mp4FormatError } from './mp4Boxes';

/** A box inside a buffer: [start, end), its payload starting at start + headerSize. */
export interface Box {
  type: string;
  start: number;
  end: number;
  headerSize: number;
  /** Whether the header holds a 64-bit size (32-bit size field 1). */
  large: boolean;
}

/** The boxes in `bytes` [from, to), in order. Bytes too few for a header at the end are left (QuickTime ends some lists with 4 zero bytes). */
export function childBoxes(bytes: Uint8Array, from: number, to: number): Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: Box[] = [];
  let pos = from;
  while (pos + 8 <= to) {
    const size32 = view.getUint32(pos);
    const type = String.fromCharCode(bytes[pos + 4]!, bytes[pos + 5]!, bytes[pos + 6]!, bytes[pos + 7]!);
    let size = size32;
    let headerSize = 8;
    if (size32 === 1) {
      if (pos + 16 > to) throw new Mp4FormatError(`Truncated header of '${type}' at ${pos}`);
      size = view.getUint32(pos + 8) * 2 ** 32 + view.getUint32(pos + 12);
      headerSize = 16;
    } else if (size32 === 0) size = to - pos; // runs to the end of its parent
    if (type === 'uuid') headerSize += 16;
    if (size < headerSize || pos + size > to) throw new Mp4FormatError(`Box '${type}' at ${pos} has an invalid size ${size}`);
    boxes.push({ type, start: pos, end: pos + size, headerSize, large: size32 === 1 });
    pos += size;
  }
  return boxes;
}

const childrenOf = (bytes: Uint8Array, box: Box) => childBoxes(bytes, box.start + box.headerSize, box.end);
const child = (bytes: Uint8Array, box: Box | undefined, type: string) =>
  box ? childrenOf(bytes, box).find((b) => b.type === type) : undefined;

/** A track's samples in decode order; times in the track's timescale (mdhd). */
export interface TrackSamples {
  timescale: number;
  count: number;
  /** Absolute file offset. */
  offset: Float64Array;
  size: Uint32Array;
  dts: Float64Array;
  cts: Float64Array;
  duration: Float64Array;
  /** 1 for a sync sample (every sample when the track has no stss). */
  isSync: Uint8Array;
}

/** Big-endian reads over a buffer, and the payload of a full box checked to hold what is read of it. */
class Reader {
  readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  /** Where the fields of full box `box` start (after version and flags); throws unless `length` bytes of them are inside the box. */
  fields(box: Box, length: number): number {
    const at = box.start + box.headerSize + 4;
    if (at + length > box.end) throw new Mp4FormatError(`The '${box.type}' box is too short for its entries`);
    return at;
  }
  version = (box: Box) => this.bytes[box.start + box.headerSize]!;
  u32 = (at: number) => this.view.getUint32(at);
  u64 = (at: number) => this.view.getUint32(at) * 2 ** 32 + this.view.getUint32(at + 4);
  /** A table box's entry count (its first field) and where its entries of `entrySize` bytes start, checked to fit the box. */
  table(box: Box, entrySize: number): { n: number; at: number } {
    const at = this.fields(box, 4);
    const n = this.u32(at);
    this.fields(box, 4 + n * entrySize);
    return { n, at: at + 4 };
  }
}

/** The trak of `trackId` (tkhd track_ID) in a moov box (`moov` holds the whole box, header included). */
function findTrak(r: Reader, trackId: number): Box | undefined {
  const moov = r.bytes;
  const [top] = childBoxes(moov, 0, moov.length);
  if (!top || top.type !== 'moov') throw new Mp4FormatError('Not a moov box');
  return childrenOf(moov, top).find((trak) => {
    if (trak.type !== 'trak') return false;
    const tkhd = child(moov, trak, 'tkhd');
    if (!tkhd) return false;
    const v1 = r.version(tkhd) === 1;
    return r.u32(r.fields(tkhd, v1 ? 20 : 12) + (v1 ? 16 : 8)) === trackId;
  });
}

/**
 * The samples of track `trackId` from its sample tables, as mp4box computes them for
 * `getTrackSamplesInfo` — including its rules for odd files: a negative stts delta counts as 1, ctts
 * offsets are signed in either version, and the last sample lasts until the media duration (mdhd)
 * rather than its stts delta. Where mp4box would produce NaN (tables shorter than stsz), times
 * continue with the last delta and no composition offset; a chunk missing from stco/co64 throws.
 */
export function readTrackSamples(moov: Uint8Array, trackId: number): TrackSamples {
  const r = new Reader(moov);
  const { view } = r;
  const trak = findTrak(r, trackId);
  if (!trak) throw new Mp4FormatError(`No track ${trackId} in the moov box`);
  const mdia = child(moov, trak, 'mdia');
  const mdhd = child(moov, mdia, 'mdhd');
  const stbl = child(moov, child(moov, mdia, 'minf'), 'stbl');
  if (!mdhd || !stbl) throw new Mp4FormatError(`Track ${trackId} has no ${mdhd ? 'sample table' : 'media header'}`);
  const v1 = r.version(mdhd) === 1;
  const header = r.fields(mdhd, v1 ? 28 : 16);
  const timescale = r.u32(header + (v1 ? 16 : 8));
  const mediaDuration = v1 ? r.u64(header + 20) : r.u32(header + 12);

  const boxes = new Map(childrenOf(moov, stbl).map((b) => [b.type, b]));
  const stsz = boxes.get('stsz') ?? boxes.get('stz2');
  const stsc = boxes.get('stsc');
  const stco = boxes.get('stco') ?? boxes.get('co64');
  const stts = boxes.get('stts');
  if (!stsz || !stsc || !stco || !stts) throw new Mp4FormatError(`Track ${trackId} lacks a sample table box`);

  // Sizes: stsz (one size for all, or one each), or stz2 (4, 8 or 16 bits each).
  const sz = r.fields(stsz, 8);
  const count = r.u32(sz + 4);
  const size = new Uint32Array(count);
  if (stsz.type === 'stsz') {
    const fixed = r.u32(sz);
    if (fixed !== 0) size.fill(fixed);
    else {
      r.fields(stsz, 8 + 4 * count);
      for (let i = 0, at = sz + 8; i < count; i++, at += 4) size[i] = view.getUint32(at);
    }
  } else {
    const bits = moov[sz + 3]!;
    if (bits !== 4 && bits !== 8 && bits !== 16) throw new Mp4FormatError(`stz2 field size ${bits}`);
    r.fields(stsz, 8 + Math.ceil((count * bits) / 8));
    const at = sz + 8;
    if (bits === 16) for (let i = 0; i < count; i++) size[i] = view.getUint16(at + 2 * i);
    else if (bits === 8) for (let i = 0; i < count; i++) size[i] = moov[at + i]!;
    else for (let i = 0; i < count; i++) size[i] = (moov[at + (i >> 1)]! >> (i & 1 ? 0 : 4)) & 15; // the first of two in the high nibble
  }

  // Offsets: stsc runs of chunks holding the same number of samples, chunk offsets from stco/co64.
  const wide = stco.type === 'co64';
  const chunks = r.table(stco, wide ? 8 : 4);
  const runs = r.table(stsc, 12);
  const offset = new Float64Array(count);
  let s = 0;
  for (let e = 0; e < runs.n && s < count; e++) {
    const firstChunk = r.u32(runs.at + 12 * e);
    const perChunk = r.u32(runs.at + 12 * e + 4);
    const nextFirst = e + 1 < runs.n ? r.u32(runs.at + 12 * (e + 1)) : Infinity;
    if (perChunk === 0) continue;
    for (let c = firstChunk; c < nextFirst && s < count; c++) {
      if (c < 1 || c > chunks.n) throw new Mp4FormatError(`Track ${trackId}: sample ${s + 1} lies in chunk ${c} of ${chunks.n}`);
      let at = wide ? r.u64(chunks.at + 8 * (c - 1)) : view.getUint32(chunks.at + 4 * (c - 1));
      const last = Math.min(count, s + perChunk);
      for (; s < last; s++) {
        offset[s] = at;
        at += size[s]!;
      }
    }
  }
  if (s < count) throw new Mp4FormatError(`Track ${trackId}: its chunks hold ${s} of its ${count} samples`);

  // Decode times and durations.
  const dts = new Float64Array(count);
  const duration = new Float64Array(count);
  const deltas = r.table(stts, 8);
  let t = 0;
  let delta = 0;
  s = 0;
  for (let e = 0; e < deltas.n && s < count; e++) {
    const last = Math.min(count, s + view.getUint32(deltas.at + 8 * e));
    const d = view.getInt32(deltas.at + 8 * e + 4);
    delta = d < 0 ? 1 : d;
    for (; s < last; s++) {
      dts[s] = t;
      duration[s] = delta;
      t += delta;
    }
  }
  for (; s < count; s++) {
    dts[s] = t;
    duration[s] = delta;
    t += delta;
  }
  if (count > 0) duration[count - 1] = Math.max(mediaDuration - dts[count - 1]!, 0);

  // Composition times.
  const cts = new Float64Array(dts);
  const ctts = boxes.get('ctts');
  if (ctts) {
    const offsets = r.table(ctts, 8);
    s = 0;
    for (let e = 0; e < offsets.n && s < count; e++) {
      const last = Math.min(count, s + view.getUint32(offsets.at + 8 * e));
      const shift = view.getInt32(offsets.at + 8 * e + 4);
      for (; s < last; s++) cts[s] = dts[s]! + shift;
    }
  }

  // Sync samples.
  const isSync = new Uint8Array(count);
  const stss = boxes.get('stss');
  if (!stss) isSync.fill(1);
  else {
    const syncs = r.table(stss, 4);
    for (let e = 0; e < syncs.n; e++) {
      const number = view.getUint32(syncs.at + 4 * e);
      if (number >= 1 && number <= count) isSync[number - 1] = 1;
    }
  }
  return { timescale, count, offset, size, dts, cts, duration, isSync };
}

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl']);
/** Payload bytes (after the 8-byte header) of the empty stand-ins for the tables mp4box requires: version, flags, zero counts. */
const EMPTIED: Record<string, number> = { stts: 8, stsc: 8, stco: 8, co64: 8, stsz: 12, stz2: 12 };
/** Optional per-sample boxes, left out. */
const DROPPED = new Set(['ctts', 'stss', 'stps', 'sdtp', 'sbgp', 'subs', 'stdp', 'padb']);

/**
 * A copy of a moov box with boxes replaced as `replace` says, given each box inside moov, trak,
 * mdia, minf and stbl and the type of its parent: the box's new bytes, null to leave it out, or
 * undefined to keep it (and look inside it if it is one of those). The sizes of the boxes that
 * held replaced ones are rewritten, in the header form each had: a 64-bit size stays 64-bit, and a
 * size 0 ("to the end") becomes explicit.
 */
export function rewriteMoov(moov: Uint8Array, replace: (box: Box, parent: string) => Uint8Array | null | undefined): Uint8Array {
  const parts: Uint8Array[] = [];
  const emit = (box: Box, parent: string): number => {
    const replaced = parent ? replace(box, parent) : undefined;
    if (replaced !== undefined) {
      if (replaced) parts.push(replaced);
      return replaced?.length ?? 0;
    }
    if (!CONTAINERS.has(box.type)) {
      parts.push(moov.subarray(box.start, box.end));
      return box.end - box.start;
    }
    const header = moov.slice(box.start, box.start + box.headerSize);
    parts.push(header);
    let length = header.length;
    const children = childrenOf(moov, box);
    for (const c of children) length += emit(c, box.type);
    const tail = children.length ? children[children.length - 1]!.end : box.start + box.headerSize;
    if (tail < box.end) {
      parts.push(moov.subarray(tail, box.end)); // a few bytes too short for a box, kept as they were
      length += box.end - tail;
    }
    const view = new DataView(header.buffer);
    if (box.large) {
      view.setUint32(8, Math.floor(length / 2 ** 32));
      view.setUint32(12, length % 2 ** 32);
    } else if (length > 0xffffffff) throw new Mp4FormatError(`Box '${box.type}' too large for its header`);
    else view.setUint32(0, length);
    return length;
  };
  const [top] = childBoxes(moov, 0, moov.length);
  if (!top || top.type !== 'moov') throw new Mp4FormatError('Not a moov box');
  const length = emit(top, '');
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A box of `type` with `payload` bytes (or that many zero bytes). */
export function makeBox(type: string, payload: Uint8Array | number = 0): Uint8Array {
  const length = typeof payload === 'number' ? payload : payload.length;
  const out = new Uint8Array(8 + length);
  new DataView(out.buffer).setUint32(0, out.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  if (typeof payload !== 'number') out.set(payload, 8);
  return out;
}

/**
 * A copy of a moov box in which every track's sample tables are empty (stts, stsc, stsz/stz2,
 * stco/co64 with no entries; ctts, stss, sdtp, sbgp and the like left out), without the movie's
 * and the tracks' metadata (udta, meta): what mp4box needs to give the codec configuration, the
 * edit list and the timescales, without building per-sample lists.
 */
export function withoutSampleTables(moov: Uint8Array): Uint8Array {
  return rewriteMoov(moov, (box, parent) => {
    if (parent === 'moov' || parent === 'trak') return box.type === 'udta' || box.type === 'meta' ? null : undefined;
    if (parent !== 'stbl') return undefined;
    if (DROPPED.has(box.type)) return null;
    const payload = EMPTIED[box.type];
    if (payload === undefined) return undefined;
    const empty = makeBox(box.type, payload);
    if (box.type === 'stz2') empty[15] = 16; // a valid field size: mp4box complains about 0
    return empty;
  });
}
