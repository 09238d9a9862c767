import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Log } from 'mp4box';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD_BYTES, Mp4FormatError, readMovieBoxes } from './mp4Boxes';
import { concat, descriptionOf, parseMovie } from './movieIndex';
import { childBoxes, makeBox, readTrackSamples, rewriteMoov, withoutSampleTables, type Box } from './stbl';

Log.setLogLevel(Log.error);

const join = (...parts: Uint8Array[]) => parts.reduce((a, b) => concat(a, b), new Uint8Array(0));
/** Big-endian 32-bit fields (negative numbers as two's complement). */
const u32 = (...values: number[]) => {
  const out = new Uint8Array(4 * values.length);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setUint32(4 * i, v >>> 0));
  return out;
};
const u64 = (...values: number[]) => u32(...values.flatMap((v) => [Math.floor(v / 2 ** 32), v % 2 ** 32]));
const box = (type: string, ...children: Uint8Array[]) => makeBox(type, join(...children));
const full = (type: string, version: number, ...fields: Uint8Array[]) => box(type, new Uint8Array([version, 0, 0, 0]), ...fields);

/** A trak with a v0 tkhd, a v1 mdhd (timescale 1000, `duration`) and the given stbl children. */
function trak(id: number, duration: number, ...stbl: Uint8Array[]) {
  return box(
    'trak',
    full('tkhd', 0, u32(0, 0, id, 0, 0)),
    box(
      'mdia',
      full('mdhd', 1, u64(0, 0), u32(1000), u64(duration), u32(0)),
      full('hdlr', 0, u32(0), new TextEncoder().encode('vide'), u32(0, 0, 0, 0)),
      box('minf', box('stbl', full('stsd', 0, u32(0)), ...stbl)),
    ),
  );
}

/** `moov` with the header of every box on the way to the sample tables (moov, trak, mdia, minf, stbl) made 64-bit. */
function widen(moov: Uint8Array): Uint8Array {
  const rewrite = (b: Box): Uint8Array => {
    if (!['moov', 'trak', 'mdia', 'minf', 'stbl'].includes(b.type)) return moov.subarray(b.start, b.end);
    const body = join(...childBoxes(moov, b.start + b.headerSize, b.end).map(rewrite));
    return join(u32(1), new TextEncoder().encode(b.type), u64(16 + body.length), body);
  };
  return rewrite(childBoxes(moov, 0, moov.length)[0]!);
}

/** Packs 4-bit sizes two to a byte, the first in the high nibble. */
const nibbles = (sizes: number[]) =>
  new Uint8Array(Array.from({ length: Math.ceil(sizes.length / 2) }, (_, i) => (sizes[2 * i]! << 4) | (sizes[2 * i + 1] ?? 0)));

const arrays = (s: ReturnType<typeof readTrackSamples>) => ({
  count: s.count,
  timescale: s.timescale,
  offset: Array.from(s.offset),
  size: Array.from(s.size),
  dts: Array.from(s.dts),
  cts: Array.from(s.cts),
  duration: Array.from(s.duration),
  isSync: Array.from(s.isSync),
});

describe('reading sample tables from the moov bytes', () => {
  /**
   * Track 2 of 7 samples: 4-bit stz2 sizes (an odd count), co64 offsets past 4 GiB in chunks of 2,
   * 3 and 2 samples, ctts version 1 with negative offsets, no stss, and an mdhd duration that
   * outlasts the stts (the last sample lasts until it). Track 1 is a decoy with other tables.
   */
  const SIZES = [9, 3, 4, 15, 7, 1, 2];
  const G = 2 ** 32;
  const decoy = trak(
    1,
    100,
    full('stts', 0, u32(1, 100, 100)),
    full('stsc', 0, u32(1, 1, 1, 1)),
    full('stsz', 0, u32(5, 1)),
    full('stco', 0, u32(1, 0)),
  );
  const moov = box(
    'moov',
    full('mvhd', 0, u32(0, 0, 1000, 300)),
    decoy,
    trak(
      2,
      300,
      full('stts', 0, u32(2, 3, 40, 4, 40)),
      full('ctts', 1, u32(4, 1, 0, 1, 80, 2, -40, 3, 0)),
      full('stz2', 0, u32(4, SIZES.length), nibbles(SIZES)),
      full('stsc', 0, u32(3, 1, 2, 1, 2, 3, 1, 3, 2, 1)),
      full('co64', 0, u32(3), u64(G + 100, 5 * G + 8, 2 ** 40)),
    ),
  );

  it('reads stz2, co64, ctts version 1 and a missing stss', () => {
    expect(arrays(readTrackSamples(moov, 2))).toEqual({
      count: 7,
      timescale: 1000,
      offset: [G + 100, G + 109, 5 * G + 8, 5 * G + 12, 5 * G + 27, 2 ** 40, 2 ** 40 + 1],
      size: SIZES,
      dts: [0, 40, 80, 120, 160, 200, 240],
      cts: [0, 120, 40, 80, 160, 200, 240],
      duration: [40, 40, 40, 40, 40, 40, 60],
      isSync: [1, 1, 1, 1, 1, 1, 1],
    });
    expect(arrays(readTrackSamples(moov, 1))).toMatchObject({ count: 1, offset: [0], size: [5], duration: [100] });
  });

  it('reads stsz, stco, stss, 8- and 16-bit stz2, and a negative stts delta as mp4box does (1)', () => {
    const tables = (sizes: Uint8Array) =>
      box(
        'moov',
        trak(
          7,
          0,
          full('stts', 0, u32(2, 2, 10, 1, -5)),
          sizes,
          full('stsc', 0, u32(1, 1, 3, 1)),
          full('stco', 0, u32(1, 1000)),
          full('stss', 0, u32(2, 1, 3)),
        ),
      );
    const expected = {
      offset: [1000, 1300, 1302],
      size: [300, 2, 7],
      dts: [0, 10, 20],
      cts: [0, 10, 20],
      duration: [10, 10, 0],
      isSync: [1, 0, 1],
    };
    expect(arrays(readTrackSamples(tables(full('stsz', 0, u32(0, 3, 300, 2, 7))), 7))).toMatchObject(expected);
    expect(arrays(readTrackSamples(tables(full('stz2', 0, u32(16, 3), new Uint8Array([1, 44, 0, 2, 0, 7]))), 7))).toMatchObject(expected);
    const eight = readTrackSamples(tables(full('stz2', 0, u32(8, 3), new Uint8Array([200, 2, 7]))), 7);
    expect(Array.from(eight.size)).toEqual([200, 2, 7]);
    const fixed = readTrackSamples(tables(full('stsz', 0, u32(4, 3))), 7);
    expect(Array.from(fixed.offset)).toEqual([1000, 1004, 1008]);
    // The delta of -5 counts as 1 (it only shows in the last sample's start: the last one lasts until mdhd's duration).
    const negative = readTrackSamples(
      box(
        'moov',
        trak(
          7,
          100,
          full('stts', 0, u32(2, 1, 10, 2, -5)),
          full('stsz', 0, u32(1, 3)),
          full('stsc', 0, u32(1, 1, 3, 1)),
          full('stco', 0, u32(1, 0)),
        ),
      ),
      7,
    );
    expect(Array.from(negative.dts)).toEqual([0, 10, 11]);
  });

  it('refuses tables that do not add up', () => {
    const broken =
      (...stbl: Uint8Array[]) =>
      () =>
        readTrackSamples(box('moov', trak(1, 0, full('stts', 0, u32(1, 3, 1)), ...stbl)), 1);
    // Three samples, but no chunks.
    expect(broken(full('stsz', 0, u32(1, 3)), full('stsc', 0, u32(0)), full('stco', 0, u32(0)))).toThrow(/chunks hold 0 of its 3/);
    // Chunks of one sample, but only two chunk offsets.
    expect(broken(full('stsz', 0, u32(1, 3)), full('stsc', 0, u32(1, 1, 1, 1)), full('stco', 0, u32(2, 0, 1)))).toThrow(/chunk 3 of 2/);
    // A size table cut short.
    expect(broken(full('stsz', 0, u32(0, 3, 1, 1)), full('stsc', 0, u32(1, 1, 3, 1)), full('stco', 0, u32(1, 0)))).toThrow(Mp4FormatError);
    expect(broken(full('stsz', 0, u32(1, 3)), full('stsc', 0, u32(1, 1, 3, 1)))).toThrow(/lacks a sample table box/);
    expect(() => readTrackSamples(moov, 9)).toThrow(/No track 9/);
  });
});

describe('the moov without sample tables', () => {
  const moov = box(
    'moov',
    full('mvhd', 0, u32(0, 0, 1000, 300)),
    trak(
      1,
      300,
      full('stts', 0, u32(1, 3, 40)),
      full('ctts', 0, u32(1, 3, 0)),
      full('stsz', 0, u32(0, 3, 1, 2, 3)),
      full('stsc', 0, u32(1, 1, 3, 1)),
      full('co64', 0, u32(1), u64(2 ** 33)),
      full('stss', 0, u32(1, 1)),
      full('sdtp', 0, new Uint8Array(3)),
      full('sgpd', 1, new TextEncoder().encode('roll'), u32(2, 1), new Uint8Array([0, 1])),
    ),
    box('udta', box('name', u32(1, 2, 3))),
  );
  /** Types of the boxes along the path (each a child of the previous one). */
  const stblOf = (bytes: Uint8Array) => {
    let inside: Box = childBoxes(bytes, 0, bytes.length)[0]!;
    for (const type of ['trak', 'mdia', 'minf', 'stbl'])
      inside = childBoxes(bytes, inside.start + inside.headerSize, inside.end).find((b) => b.type === type)!;
    return inside;
  };
  /** Walks every container down to stbl, checking that each one's children fill it exactly. */
  const checkSizes = (bytes: Uint8Array) => {
    const walk = (b: Box) => {
      const children = childBoxes(bytes, b.start + b.headerSize, b.end);
      expect(children.length ? children[children.length - 1]!.end : b.start + b.headerSize).toBe(b.end);
      for (const c of children) if (['trak', 'mdia', 'minf', 'stbl'].includes(c.type)) walk(c);
    };
    const [top] = childBoxes(bytes, 0, bytes.length);
    expect(top!.end).toBe(bytes.length);
    walk(top!);
  };

  it('empties the required tables, leaves out the optional ones and the metadata, and fixes every size', () => {
    const trimmed = withoutSampleTables(moov);
    checkSizes(trimmed);
    const stbl = stblOf(trimmed);
    const children = childBoxes(trimmed, stbl.start + stbl.headerSize, stbl.end);
    expect(children.map((b) => [b.type, b.end - b.start])).toEqual([
      ['stsd', 16],
      ['stts', 16],
      ['stsz', 20],
      ['stsc', 16],
      ['co64', 16],
      ['sgpd', 26],
    ]);
    // Every count is zero.
    for (const b of children.slice(1, 5)) expect(Array.from(trimmed.subarray(b.start + 8, b.end)).every((x) => x === 0)).toBe(true);
    expect(childBoxes(trimmed, 8, trimmed.length).map((b) => b.type)).toEqual(['mvhd', 'trak']);
    expect(readTrackSamples(trimmed, 1).count).toBe(0); // an empty track, still well formed
  });

  it('keeps 64-bit headers 64-bit with the new sizes, and makes a size-0 header explicit', () => {
    const wide = widen(moov);
    expect(wide.length).toBe(moov.length + 5 * 8);
    expect(arrays(readTrackSamples(wide, 1))).toEqual(arrays(readTrackSamples(moov, 1)));
    const trimmed = withoutSampleTables(wide);
    checkSizes(trimmed);
    expect(trimmed.length).toBe(withoutSampleTables(moov).length + 5 * 8);
    const stbl = stblOf(trimmed);
    expect(stbl.large).toBe(true);
    expect(childBoxes(trimmed, 0, trimmed.length)[0]).toMatchObject({ type: 'moov', large: true, headerSize: 16 });

    // moov's size field 0: "to the end of the file".
    const open = moov.slice();
    new DataView(open.buffer).setUint32(0, 0);
    const explicit = withoutSampleTables(open);
    expect(new DataView(explicit.buffer).getUint32(0)).toBe(explicit.length);
    expect(explicit).toEqual(withoutSampleTables(moov));
  });
});

describe('rewritten tables of a real file, against mp4box', () => {
  let moov: Uint8Array;
  let ftyp: Uint8Array;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-stbl-'));
    const file = path.join(dir, 'audio.mp4');
    execFileSync('/usr/bin/ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=64x36:r=25:d=2'],
      ...['-f', 'lavfi', '-i', 'sine=d=2:sample_rate=8000', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-b:a', '16k', file],
    ]);
    const bytes = new Uint8Array(fs.readFileSync(file));
    const boxes = await readMovieBoxes((start, end) => Promise.resolve(bytes.slice(start, end)), bytes.slice(0, HEAD_BYTES), bytes.length);
    moov = boxes.moov;
    ftyp = boxes.ftyp!;
  }, 60_000);
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The video track's samples as mp4box reads them from `moov`, and as we do. */
  const both = (m: Uint8Array) => {
    const parsed = parseMovie(concat(ftyp, m));
    const samples = parsed.file.getTrackSamplesInfo(parsed.track.id);
    return {
      mp4box: {
        count: samples.length,
        timescale: parsed.track.timescale,
        offset: samples.map((s) => s.offset),
        size: samples.map((s) => s.size),
        dts: samples.map((s) => s.dts),
        cts: samples.map((s) => s.cts),
        duration: samples.map((s) => s.duration),
        isSync: samples.map((s) => (s.is_sync ? 1 : 0)),
      },
      ours: arrays(readTrackSamples(m, parsed.track.id)),
    };
  };
  /** Reads a table box's u32 fields after version and flags. */
  const fields = (b: Box) =>
    Array.from({ length: (b.end - b.start - 12) / 4 }, (_, i) =>
      new DataView(moov.buffer, moov.byteOffset).getUint32(b.start + 12 + 4 * i),
    );

  it('co64 offsets past 4 GiB, 16-bit stz2 sizes, ctts version 1 with negative offsets, no stss', () => {
    const rewritten = rewriteMoov(moov, (b, parent) => {
      if (parent !== 'stbl') return undefined;
      const f = fields(b);
      if (b.type === 'stco') return full('co64', 0, u32(f[0]!), u64(...f.slice(1).map((o) => o + 3 * 2 ** 32)));
      if (b.type === 'stsz' && f[0] === 0)
        return full('stz2', 0, u32(16, f[1]!), new Uint8Array(new Uint16Array(f.slice(2).map((s) => ((s & 0xff) << 8) | (s >> 8))).buffer));
      if (b.type === 'ctts') return full('ctts', 1, u32(f[0]!, ...f.slice(1).map((v, i) => (i % 2 ? v - 2048 : v))));
      if (b.type === 'stss') return null;
      return undefined;
    });
    const { mp4box, ours } = both(rewritten);
    expect(ours).toEqual(mp4box);
    expect(Math.min(...ours.offset)).toBeGreaterThan(3 * 2 ** 32);
    expect(Math.min(...ours.cts.map((c, i) => c - ours.dts[i]!))).toBeLessThan(0);
    expect(ours.isSync.every((x) => x === 1)).toBe(true);
    // The size table of this file is all below 65536 bytes, as 16-bit stz2 needs.
    expect(ours.size).toEqual(both(moov).ours.size);
  });

  it('64-bit container headers: the same samples, and the same decoder configuration once trimmed', () => {
    const wide = widen(moov);
    const { mp4box, ours } = both(wide);
    expect(ours).toEqual(mp4box);
    expect(ours).toEqual(both(moov).ours);
    const view = (bytes: Uint8Array<ArrayBuffer>) => {
      const m = parseMovie(bytes);
      return {
        codec: m.track.codec,
        edits: m.track.edits,
        size: m.entry.size,
        description: descriptionOf(m.entry, bytes),
        timescale: m.track.timescale,
      };
    };
    expect(view(concat(ftyp, withoutSampleTables(wide)))).toEqual(view(concat(ftyp, moov)));
  });
});
