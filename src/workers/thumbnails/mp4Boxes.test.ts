import { describe, expect, it } from 'vitest';
import { HEAD_BYTES, Mp4FormatError, parseBoxHeader, PROBE_BYTES, TAIL_BYTES, readMovieBoxes, scanBoxHeaders } from './mp4Boxes';

/** A top-level box header (8 bytes, or 16 with a 64-bit size) followed by `fill` payload bytes of `byte`. */
function box(type: string, payload: number, { large = false, byte = 0 } = {}): Uint8Array {
  const header = large ? 16 : 8;
  const out = new Uint8Array(header + payload).fill(byte);
  const view = new DataView(out.buffer);
  if (large) {
    view.setUint32(0, 1);
    view.setUint32(8, Math.floor((header + payload) / 2 ** 32));
    view.setUint32(12, (header + payload) % 2 ** 32);
  } else view.setUint32(0, header + payload);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  return out;
}

const file = (...boxes: Uint8Array[]) => {
  const out = new Uint8Array(boxes.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of boxes) {
    out.set(b, at);
    at += b.length;
  }
  return out;
};

/** A reader over `bytes` that records every range read. */
function reader(bytes: Uint8Array) {
  const reads: Array<[number, number]> = [];
  const read = (start: number, end: number) => {
    reads.push([start, end]);
    return Promise.resolve(bytes.slice(start, Math.min(end, bytes.length)));
  };
  return { read, reads, head: () => bytes.slice(0, HEAD_BYTES) };
}

describe('top-level MP4 box scanning', () => {
  it('parses 32-bit, 64-bit and to-end-of-file sizes', () => {
    expect(parseBoxHeader(box('ftyp', 24), 0, 0, 100)).toEqual({ type: 'ftyp', start: 0, size: 32, headerSize: 8 });
    expect(parseBoxHeader(box('mdat', 100, { large: true }), 0, 1000, 5000)).toEqual({
      type: 'mdat',
      start: 1000,
      size: 116,
      headerSize: 16,
    });
    const zero = box('mdat', 4);
    new DataView(zero.buffer).setUint32(0, 0);
    expect(parseBoxHeader(zero, 0, 200, 1000)).toEqual({ type: 'mdat', start: 200, size: 800, headerSize: 8 });
  });

  it('needs the whole header, and refuses bytes that are not a box', () => {
    expect(parseBoxHeader(box('ftyp', 24).subarray(0, 6), 0, 0, 100)).toBeNull();
    expect(parseBoxHeader(box('mdat', 100, { large: true }).subarray(0, 12), 0, 0, 200)).toBeNull();
    expect(() => parseBoxHeader(new Uint8Array([0, 0, 0, 16, 0xff, 0xd8, 0xff, 0xe0]), 0, 0, 100)).toThrow(Mp4FormatError);
    const tiny = box('free', 0);
    new DataView(tiny.buffer).setUint32(0, 4);
    expect(() => parseBoxHeader(tiny, 0, 0, 100)).toThrow(/Invalid size/);
  });

  it('lists the boxes of a buffer and where the next one starts', () => {
    const bytes = file(box('ftyp', 24), box('free', 0), box('mdat', 1000));
    const { boxes, next } = scanBoxHeaders(bytes.subarray(0, 60), 0, bytes.length);
    expect(boxes.map((b) => b.type)).toEqual(['ftyp', 'free', 'mdat']);
    expect(next).toBe(bytes.length);
  });

  it('finds a faststart moov in the head without reading more', async () => {
    const moov = box('moov', 5000, { byte: 7 });
    const bytes = file(box('ftyp', 24), moov, box('mdat', 300_000));
    const r = reader(bytes);
    const found = await readMovieBoxes(r.read, r.head(), bytes.length);
    expect(r.reads).toEqual([]);
    expect(found.moov).toEqual(moov);
    expect(found.ftyp?.length).toBe(32);
  });

  it('reads a moov written at the end with one read of the tail, never reading the mdat', async () => {
    const ftyp = box('ftyp', 24);
    const mdat = box('mdat', 3_000_000, { large: true });
    const moov = box('moov', 20_000, { byte: 9 });
    const bytes = file(ftyp, box('free', 0), mdat, moov);
    const r = reader(bytes);
    const found = await readMovieBoxes(r.read, r.head(), bytes.length);
    expect(found.moov).toEqual(moov);
    const moovAt = ftyp.length + 8 + mdat.length;
    expect(r.reads).toEqual([[moovAt, bytes.length]]);
    expect(found.reads).toBe(1);
  });

  it('probes box headers where more than TAIL_BYTES are left, then reads the moov', async () => {
    const moov = box('moov', 20_000, { byte: 9 });
    const bytes = file(box('ftyp', 24), box('mdat', 200_000), box('free', TAIL_BYTES), box('mdat', 200_000), moov);
    const r = reader(bytes);
    const found = await readMovieBoxes(r.read, r.head(), bytes.length);
    expect(found.moov).toEqual(moov);
    // A probe at 'free' (too much left to read), then the tail from the second mdat on, which holds the moov.
    expect(r.reads[0]![1] - r.reads[0]![0]).toBe(PROBE_BYTES);
    expect(r.reads).toHaveLength(2);
    expect(r.reads[1]![1]).toBe(bytes.length);
    expect(r.reads[1]![1] - r.reads[1]![0]).toBeLessThanOrEqual(TAIL_BYTES);
  });

  it('reports files without a moov, or with a truncated one', async () => {
    const none = file(box('ftyp', 24), box('mdat', 100_000));
    await expect(readMovieBoxes(reader(none).read, reader(none).head(), none.length)).rejects.toThrow(/No moov/);
    const cut = file(box('ftyp', 24), box('mdat', 100_000), box('moov', 1000)).subarray(0, 100_500);
    await expect(readMovieBoxes(reader(cut).read, reader(cut).head(), cut.length)).rejects.toThrow(/truncated/);
    const jpeg = new Uint8Array(1000).fill(0xff);
    await expect(readMovieBoxes(reader(jpeg).read, reader(jpeg).head(), jpeg.length)).rejects.toThrow(Mp4FormatError);
  });
});
