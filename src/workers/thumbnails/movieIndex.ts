/**
 * What the thumbnail worker knows of a movie once its moov is read: the video track's decoder
 * configuration (from mp4box) and its sample table (read from the moov's tables by stbl.ts).
 */
import {
  createFile,
  DataStream,
  Endianness,
  MP4BoxBuffer,
  type ISOFile,
  type Movie,
  type MultiBufferStream,
  type Track,
  type VisualSampleEntry,
} from 'mp4box';
import { Mp4FormatError, syntheticFtyp } from './mp4Boxes';
import { buildSampleTableFromColumns, type SampleTable } from './sampleTable';
import { readTrackSamples, withoutSampleTables } from './stbl';

export interface MovieIndex {
  codec: string;
  /** Display size (track header, else the sample entry). */
  width: number;
  height: number;
  /** The sample entry's size, which the decoder is configured with. */
  codedWidth: number;
  codedHeight: number;
  /** The avcC/hvcC/vpcC/av1C payload WebCodecs takes as `description`. */
  description: Uint8Array | undefined;
  table: SampleTable;
  /** Seconds: the video samples' durations summed (mp4box's `samples_duration`). */
  duration: number;
}

/** mp4box's view of `ftyp` + `moov` bytes: the movie, its first video track and that track's first sample entry. */
export interface ParsedMovie {
  file: ISOFile;
  movie: Movie;
  track: Track;
  entry: VisualSampleEntry;
}

export function parseMovie(movieBytes: Uint8Array<ArrayBuffer>): ParsedMovie {
  const file = createFile();
  let movie: Movie | undefined;
  let parseError: string | undefined;
  file.onReady = (info) => (movie = info);
  file.onError = (module, message) => (parseError = `${module}: ${message}`);
  file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(movieBytes.buffer, 0));
  file.flush();
  if (!movie) throw new Mp4FormatError(parseError ?? 'The movie header could not be read');
  const track = movie.videoTracks[0];
  if (!track) throw new Mp4FormatError('The media has no video track');
  const entry = file.getTrackById(track.id).mdia.minf.stbl.stsd.entries[0] as VisualSampleEntry;
  return { file, movie, track, entry };
}

/** The avcC/hvcC/vpcC/av1C payload WebCodecs takes as `description` (the box without its header). */
export function descriptionOf(entry: VisualSampleEntry, movieBytes: Uint8Array): Uint8Array | undefined {
  if (entry.avcC || entry.hvcC) {
    const stream = new DataStream(undefined, 0, Endianness.BIG_ENDIAN);
    // avcC's typings ask for a MultiBufferStream, but its write only uses DataStream methods.
    if (entry.avcC) entry.avcC.write(stream as MultiBufferStream);
    else entry.hvcC!.write(stream);
    return new Uint8Array(stream.buffer, 8);
  }
  // mp4box cannot write these two back; their bytes are where it parsed them in the buffer we gave it.
  const raw = entry.vpcC ?? entry.av1C;
  if (raw?.start !== undefined && raw.hdr_size !== undefined) return movieBytes.slice(raw.start + raw.hdr_size, raw.start + raw.size);
  return undefined;
}

/** The edit list's media_time of the first non-empty edit, and the seconds of empty edits before it. */
export function editShift(track: Track, movieTimescale: number): { shift: number; emptySeconds: number } {
  let emptySeconds = 0;
  for (const edit of track.edits ?? []) {
    if (edit.media_time === -1) emptySeconds += edit.segment_duration / (track.movie_timescale || movieTimescale);
    else return { shift: edit.media_time, emptySeconds };
  }
  return { shift: 0, emptySeconds };
}

export function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * Indexes a movie from its `ftyp` (null for old QuickTime files) and `moov` boxes. mp4box gets
 * them with the sample tables emptied, since building its per-sample objects is what made long
 * files slow to open; sample offsets are absolute, so where moov sat in the file does not matter.
 */
export function indexMovie(ftyp: Uint8Array | null, moov: Uint8Array): MovieIndex {
  const movieBytes = concat(ftyp ?? syntheticFtyp(), withoutSampleTables(moov));
  const { movie, track, entry } = parseMovie(movieBytes);
  const samples = readTrackSamples(moov, track.id);
  const { shift, emptySeconds } = editShift(track, movie.timescale);
  const table = buildSampleTableFromColumns(samples, samples.timescale, shift, emptySeconds);
  let ticks = 0;
  for (let i = 0; i < table.count; i++) ticks += table.duration[i]!;
  const width = track.video?.width || entry.width;
  const height = track.video?.height || entry.height;
  return {
    codec: track.codec,
    width,
    height,
    codedWidth: entry.width || width,
    codedHeight: entry.height || height,
    description: descriptionOf(entry, movieBytes),
    table,
    duration: ticks / samples.timescale,
  };
}
