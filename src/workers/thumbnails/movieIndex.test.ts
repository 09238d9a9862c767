import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Log } from 'mp4box';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD_BYTES, readMovieBoxes, syntheticFtyp } from './mp4Boxes';
import { concat, descriptionOf, editShift, indexMovie, parseMovie, type ParsedMovie } from './movieIndex';
import { buildSampleTable, type SampleTable } from './sampleTable';
import { childBoxes, readTrackSamples, withoutSampleTables } from './stbl';

/**
 * Real files from ffmpeg: the sample table read from the moov's tables must equal the one built
 * from mp4box's per-sample objects (what the worker did before), and mp4box must still give the
 * decoder configuration from the moov without its sample tables.
 */

Log.setLogLevel(Log.error);

const FFMPEG = '/usr/bin/ffmpeg';
const encoders = execFileSync(FFMPEG, ['-hide_banner', '-encoders'], { encoding: 'utf8' });
const QUIET = ['-hide_banner', '-loglevel', 'error', '-y'];
const VIDEO = ['-f', 'lavfi', '-i', 'testsrc2=s=64x36:r=25:d=2'];
const AUDIO = ['-f', 'lavfi', '-i', 'sine=d=3:sample_rate=8000'];
const X264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'];

interface Case {
  name: string;
  file: string;
  /** ffmpeg argument lists run in turn ('$out' is the file, '$dir' the folder). */
  runs: string[][];
  encoder?: string;
  /** What makes the case worth having, checked on mp4box's view of the full moov. */
  check: (m: ParsedMovie) => void;
}

const stblOf = (m: ParsedMovie) => m.file.getTrackById(m.track.id).mdia.minf.stbl;

const CASES: Case[] = [
  {
    name: 'H.264 with B-frames and an edit list, moov at the end',
    file: 'bframes.mp4',
    runs: [[...VIDEO, ...X264, '$out']],
    check: (m) => {
      expect(stblOf(m).ctts).toBeDefined();
      expect(editShift(m.track, m.movie.timescale).shift).toBeGreaterThan(0);
    },
  },
  {
    name: 'H.264, faststart',
    file: 'faststart.mp4',
    runs: [[...VIDEO, ...X264, '-movflags', '+faststart', '$out']],
    check: (m) => expect(stblOf(m).ctts).toBeDefined(),
  },
  {
    name: 'H.264 without B-frames',
    file: 'no-bframes.mp4',
    runs: [[...VIDEO, ...X264, '-bf', '0', '$out']],
    check: (m) => expect(stblOf(m).ctts).toBeUndefined(),
  },
  {
    name: 'H.264 at a variable frame rate (every fourth frame dropped)',
    file: 'vfr.mp4',
    runs: [[...VIDEO, '-vf', String.raw`select='not(eq(mod(n\,4)\,1))'`, '-fps_mode', 'vfr', ...X264, '$out']],
    check: (m) => expect(stblOf(m).stts.sample_counts.length).toBeGreaterThan(1),
  },
  {
    name: 'MPEG-4 Part 2 with B-frames',
    file: 'mpeg4.mp4',
    runs: [[...VIDEO, '-c:v', 'mpeg4', '-bf', '2', '$out']],
    check: (m) => {
      expect(m.track.codec).toMatch(/^mp4v/);
      expect(stblOf(m).stss!.sample_numbers.length).toBeGreaterThan(1);
    },
  },
  {
    name: 'HEVC',
    file: 'hevc.mp4',
    encoder: 'libx265',
    runs: [[...VIDEO, '-c:v', 'libx265', '-x265-params', 'log-level=none', '-pix_fmt', 'yuv420p', '-tag:v', 'hvc1', '$out']],
    check: (m) => expect(m.entry.hvcC).toBeDefined(),
  },
  {
    name: 'VP9 (its vpcC is read from the bytes mp4box parsed)',
    file: 'vp9.mp4',
    encoder: 'libvpx-vp9',
    runs: [[...VIDEO, '-c:v', 'libvpx-vp9', '-pix_fmt', 'yuv420p', '$out']],
    check: (m) => expect(m.entry.vpcC).toBeDefined(),
  },
  {
    name: 'H.264 interleaved with AAC audio (chunks of several samples, several stsc entries)',
    file: 'audio.mp4',
    runs: [[...VIDEO, ...AUDIO, ...X264, '-c:a', 'aac', '-b:a', '16k', '-shortest', '$out']],
    check: (m) => {
      expect(m.movie.audioTracks).toHaveLength(1);
      expect(stblOf(m).stsc.first_chunk.length).toBeGreaterThan(1);
      expect(Math.max(...stblOf(m).stsc.samples_per_chunk)).toBeGreaterThan(1);
    },
  },
  {
    name: 'QuickTime .mov with PCM audio',
    file: 'audio.mov',
    runs: [[...VIDEO, ...AUDIO, ...X264, '-c:a', 'pcm_s16le', '-shortest', '$out']],
    check: (m) => expect(stblOf(m).stsc.first_chunk.length).toBeGreaterThan(1),
  },
  {
    name: 'video starting after the audio (a leading empty edit)',
    file: 'delayed.mp4',
    runs: [
      [...VIDEO, ...X264, '$dir/plain.mp4'],
      ['-itsoffset', '0.5', '-i', '$dir/plain.mp4', ...AUDIO, '-c:v', 'copy', '-c:a', 'aac', '$out'],
    ],
    check: (m) => expect(editShift(m.track, m.movie.timescale).emptySeconds).toBeCloseTo(0.5, 3),
  },
];

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-movie-index-'));
  for (const c of CASES) {
    if (c.encoder && !encoders.includes(` ${c.encoder} `)) continue;
    for (const run of c.runs) {
      execFileSync(FFMPEG, [...QUIET, ...run.map((a) => a.replace('$out', path.join(dir, c.file)).replace('$dir', dir))]);
    }
  }
}, 120_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** ftyp and moov as the worker reads them. */
async function movieBoxes(file: string) {
  const bytes = new Uint8Array(fs.readFileSync(path.join(dir, file)));
  const read = (start: number, end: number) => Promise.resolve(bytes.slice(start, end));
  return readMovieBoxes(read, bytes.slice(0, HEAD_BYTES), bytes.length);
}

/** What the worker computed before: mp4box's per-sample objects for the whole moov. */
function reference(ftyp: Uint8Array | null, moov: Uint8Array) {
  const bytes = concat(ftyp ?? syntheticFtyp(), moov);
  const parsed = parseMovie(bytes);
  const { file, movie, track, entry } = parsed;
  const samples = file.getTrackSamplesInfo(track.id);
  const { shift, emptySeconds } = editShift(track, movie.timescale);
  const table = buildSampleTable(
    samples.map((s) => ({ offset: s.offset, size: s.size, cts: s.cts, dts: s.dts, duration: s.duration, isSync: s.is_sync })),
    track.timescale,
    shift,
    emptySeconds,
  );
  return { parsed, samples, table, description: descriptionOf(entry, bytes), duration: track.samples_duration / track.timescale };
}

const columns = (t: SampleTable) => ({
  timescale: t.timescale,
  count: t.count,
  offset: Array.from(t.offset),
  size: Array.from(t.size),
  pts: Array.from(t.pts),
  duration: Array.from(t.duration),
  isSync: Array.from(t.isSync),
  byPts: Array.from(t.byPts),
  syncs: Array.from(t.syncs),
  syncByPts: Array.from(t.syncByPts),
});

describe.each(CASES)('$name', (c) => {
  const available = !c.encoder || encoders.includes(` ${c.encoder} `);

  it.skipIf(!available)('is the kind of file the case is about', async () => {
    const { ftyp, moov } = await movieBoxes(c.file);
    c.check(reference(ftyp, moov).parsed);
  });

  it.skipIf(!available)("reads each sample as mp4box's getTrackSamplesInfo does", async () => {
    const { ftyp, moov } = await movieBoxes(c.file);
    const { parsed, samples } = reference(ftyp, moov);
    const mine = readTrackSamples(moov, parsed.track.id);
    expect(mine.count).toBe(samples.length);
    expect(mine.timescale).toBe(parsed.track.timescale);
    expect({
      offset: Array.from(mine.offset),
      size: Array.from(mine.size),
      dts: Array.from(mine.dts),
      cts: Array.from(mine.cts),
      duration: Array.from(mine.duration),
      isSync: Array.from(mine.isSync, (x) => x === 1),
    }).toEqual({
      offset: samples.map((s) => s.offset),
      size: samples.map((s) => s.size),
      dts: samples.map((s) => s.dts),
      cts: samples.map((s) => s.cts),
      duration: samples.map((s) => s.duration),
      isSync: samples.map((s) => s.is_sync),
    });
  });

  it.skipIf(!available)('indexes the movie exactly as the table built from mp4box samples', async () => {
    const { ftyp, moov } = await movieBoxes(c.file);
    const ref = reference(ftyp, moov);
    const index = indexMovie(ftyp, moov);
    expect(columns(index.table)).toEqual(columns(ref.table));
    const width = ref.parsed.track.video?.width || ref.parsed.entry.width;
    const height = ref.parsed.track.video?.height || ref.parsed.entry.height;
    expect({ ...index, table: null }).toEqual({
      codec: ref.parsed.track.codec,
      width,
      height,
      codedWidth: ref.parsed.entry.width || width,
      codedHeight: ref.parsed.entry.height || height,
      description: ref.description,
      table: null,
      duration: ref.duration,
    });
  });

  it.skipIf(!available)('gives mp4box the same codec, sample entry, description and edit list without the sample tables', async () => {
    const { ftyp, moov } = await movieBoxes(c.file);
    const full = concat(ftyp ?? syntheticFtyp(), moov);
    const trimmed = concat(ftyp ?? syntheticFtyp(), withoutSampleTables(moov));
    const before = parseMovie(full);
    const after = parseMovie(trimmed);
    const view = (m: ParsedMovie, bytes: Uint8Array) => ({
      codec: m.track.codec,
      id: m.track.id,
      timescale: m.track.timescale,
      movieTimescale: m.movie.timescale,
      trackMovieTimescale: m.track.movie_timescale,
      edits: m.track.edits,
      video: m.track.video,
      entryType: m.entry.type,
      entrySize: m.entry.size,
      entryWidth: m.entry.width,
      entryHeight: m.entry.height,
      description: descriptionOf(m.entry, bytes),
      tracks: m.movie.tracks.map((t) => [t.id, t.type, t.codec]),
    });
    expect(view(after, trimmed)).toEqual(view(before, full));
    // A description to compare (MPEG-4 Part 2 has none: its configuration is in the bitstream).
    if (!c.file.startsWith('mpeg4')) expect(view(before, full).description?.length).toBeGreaterThan(0);
    // Nothing per sample is left for mp4box to build.
    expect(after.movie.tracks.map((t) => t.nb_samples)).toEqual(after.movie.tracks.map(() => 0));
    expect(trimmed.length).toBeLessThan(full.length);
    expect(childBoxes(trimmed, 0, trimmed.length).map((b) => b.type)).toEqual(['ftyp', 'moov']);
  });
});
