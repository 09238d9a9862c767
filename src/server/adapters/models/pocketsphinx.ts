import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BACKGROUND, spawnTool } from '../process/tools';
import { ModelMissingError, ModelRunError, type AudioWindow, type Segment, type SpeechToText } from './types';

export type Word = { word: string; start: number; end: number };

/** Debian's acoustic model folder (package pocketsphinx-en-us), which the CLI uses by default. */
const DEBIAN_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

export interface PocketsphinxOptions {
  /**
   * Processes at once (default 2, or 1 on a single CPU). Each is single-threaded; on 2 vCPUs two
   * at once measured RTF 0.04 against 0.08 for one (30 s chunks, flite speech).
   */
  parallel?: number;
  /** Audio is cut at a quiet moment about this often (default 30 s) so chunks decode in parallel and progress moves. */
  chunkSeconds?: number;
  /** A new segment starts after a pause longer than this (default 0.6 s)... */
  pauseSeconds?: number;
  /** ...or once a segment has this many words (default 12). */
  maxWords?: number;
  /**
   * Search effort. 'fast' evaluates every other frame and the 2 best Gaussians (-ds 2 -topn 2) and
   * caps the active HMMs and words per frame (-maxhmmpf 1500 -maxwpf 5): measured 2.2x quicker on
   * narrated video (10.3 s -> 4.7 s for a minute of audio on an idle core), with
   * the same words on most lines but more slips on short ones. The HMM cap was 3000: 1500 costs
   * 20-23 % less CPU (a minute of flite narration 6.1 -> 4.9 s, of espeak-ng 8.1 -> 6.2 s) for
   * 99 instead of 102 and 16 instead of 18 word pairs right; dropping the second, flat-lexicon
   * pass instead (-fwdflat no) saved as much and lost more (89 of 102). Skipping the lattice's best
   * path (-bestpath no, the forward passes' words are kept) cost 12 % less CPU over three runs of two
   * minutes of flite narration (15.2 -> 13.3 s) for 242 instead of 239 narration words in order there,
   * and 98 instead of 100 and 29 instead of 30 on other text in flite's kal and espeak-ng's voices. 'accurate' is pocketsphinx's default
   * search. Default: accurate for audio up to FAST_SPEECH_AFTER_SECONDS, where a few seconds more
   * do not matter, fast beyond, where speech would otherwise hold back the whole ingest.
   */
  effort?: 'fast' | 'accurate';
  /** Acoustic model folder with en-us/, en-us.lm.bin and cmudict-en-us.dict (default: Debian's). */
  modelDir?: string;
}

/** Which CLI is installed: bookworm's 0.8/5prealpha `pocketsphinx_continuous`, or 5.x's `pocketsphinx`. */
type Cli = { kind: 'continuous'; bin: string } | { kind: 'v5'; bin: string };

function onPath(bin: string): string | null {
  const r = spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** The installed CLI, or a ModelMissingError naming the Debian packages. */
function findPocketsphinx(modelDir = DEBIAN_MODEL_DIR): Cli {
  const continuous = onPath('pocketsphinx_continuous');
  const v5 = continuous ? null : onPath('pocketsphinx');
  const missing: string[] = [];
  if (!continuous && !v5) missing.push('pocketsphinx_continuous');
  if (!fs.existsSync(path.join(modelDir, 'en-us')) && !fs.existsSync(path.join(modelDir, 'en-us.lm.bin'))) missing.push(modelDir);
  if (missing.length)
    throw new ModelMissingError('speech (pocketsphinx)', missing, 'the system (apt-get install pocketsphinx pocketsphinx-en-us)');
  return continuous ? { kind: 'continuous', bin: continuous } : { kind: 'v5', bin: v5! };
}

/** Audio is decoded in pieces of about this many seconds, cut at a pause (splitAtPauses). */
export const SPEECH_PIECE_SECONDS = 30;

/** Audio longer than this is transcribed with pocketsphinx's fast search (see PocketsphinxOptions.effort). */
export const FAST_SPEECH_AFTER_SECONDS = 180;

/** Speech to text with CMU PocketSphinx's CLI over 16 kHz mono WAV, chunked at pauses and decoded in parallel. */
export class PocketsphinxSpeech implements SpeechToText {
  readonly name = 'pocketsphinx';
  private readonly cli: Cli;

  constructor(private readonly opts: PocketsphinxOptions = {}) {
    this.cli = findPocketsphinx(opts.modelDir);
  }

  /** Segments with word timings; `onProgress` gets the share of pieces done. */
  async transcribe(wavPath16kMono: string, opts: { onProgress?(fraction: number): void } = {}): Promise<Segment[]> {
    return this.group(await this.words(wavPath16kMono, opts));
  }

  /**
   * The words heard, in time order, of the whole file or, with `chunk` (seconds on the ingest grid),
   * of the pieces it owns (splitAtPauses): the words of all chunks together are the whole file's.
   * The effort follows the whole file's length, whichever part is decoded.
   */
  async words(
    audio: string | AudioWindow,
    opts: { onProgress?(fraction: number): void; chunk?: { from: number; to: number } } = {},
  ): Promise<Word[]> {
    const wav = typeof audio === 'string' ? wholeWindow(readWav(audio)) : audio;
    const effort = this.opts.effort ?? (wav.total / wav.rate > FAST_SPEECH_AFTER_SECONDS ? 'fast' : 'accurate');
    const pieces = splitAtPauses(wav, this.pieceSeconds, opts.chunk);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-stt-'));
    try {
      let done = 0;
      opts.onProgress?.(0);
      const results = await mapLimit(pieces, this.opts.parallel ?? Math.min(2, os.availableParallelism()), async ([from, to], i) => {
        const file = path.join(tmp, `piece${i}.wav`);
        writeWav(file, wav.samples.subarray(from - wav.offset, to - wav.offset), wav.rate);
        const words = await this.decode(file, effort);
        fs.rmSync(file, { force: true });
        opts.onProgress?.(++done / pieces.length);
        return words.map((w) => ({ ...w, start: w.start + from / wav.rate, end: w.end + from / wav.rate }));
      });
      return results.flat();
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }

  /** Words (of the whole file, in order) into segments, as `transcribe` groups them. */
  group(words: Word[]): Segment[] {
    return groupSegments(words, this.opts.pauseSeconds ?? 0.6, this.opts.maxWords ?? 12);
  }

  /** Seconds of audio decoded as one piece (a chunk of ingest must hold whole pieces: INGEST_CHUNK_SECONDS is a multiple). */
  get pieceSeconds(): number {
    return this.opts.chunkSeconds ?? SPEECH_PIECE_SECONDS;
  }

  private decode(file: string, effortLevel: 'fast' | 'accurate'): Promise<Word[]> {
    const model = this.opts.modelDir
      ? [
          '-hmm',
          path.join(this.opts.modelDir, 'en-us'),
          '-lm',
          path.join(this.opts.modelDir, 'en-us.lm.bin'),
          '-dict',
          path.join(this.opts.modelDir, 'cmudict-en-us.dict'),
        ]
      : [];
    const effort = effortLevel === 'fast' ? ['-ds', '2', '-topn', '2', '-maxhmmpf', '1500', '-maxwpf', '5', '-bestpath', 'no'] : [];
    const args =
      this.cli.kind === 'continuous'
        ? ['-infile', file, '-time', 'yes', '-logfn', '/dev/null', ...effort, ...model]
        : [...model, ...effort, '-loglevel', 'FATAL', 'live', file];
    return new Promise((resolve, reject) => {
      // Speech is indexing: background work, so requests get the CPU first.
      const child = spawnTool(this.cli.bin, args, BACKGROUND.ingest);
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
      child.on('error', (e) => reject(new ModelRunError('speech (pocketsphinx)', e.message)));
      child.on('close', (code) => {
        if (code !== 0) return reject(new ModelRunError('speech (pocketsphinx)', `exit ${code}: ${err.trim().split('\n').pop() ?? ''}`));
        resolve(this.cli.kind === 'continuous' ? parseContinuous(out) : parseV5(out));
      });
    });
  }
}

/** Drops silence, noise and sentence markers; 'the(2)' (an alternative pronunciation) becomes 'the'. */
function cleanToken(t: string): string | null {
  if (/^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(t)) return null;
  const w = t.replace(/\(\d+\)$/, '');
  return w ? w : null;
}

/** `pocketsphinx_continuous -time yes`: a hypothesis line per utterance, then "word start end prob" lines. */
export function parseContinuous(out: string): Word[] {
  const words: Word[] = [];
  for (const line of out.split('\n')) {
    const m = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)$/i.exec(line.trim());
    if (!m) continue;
    const word = cleanToken(m[1]);
    if (word) words.push({ word, start: Number(m[2]), end: Number(m[3]) });
  }
  return words;
}

/** PocketSphinx 5's line-delimited JSON: {"b": start, "d": duration, "t": text, "w": [{"b","d","t"}...]}. */
export function parseV5(out: string): Word[] {
  const words: Word[] = [];
  for (const line of out.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    const utt = JSON.parse(line) as { w?: Array<{ b: number; d: number; t: string }> };
    for (const w of utt.w ?? []) {
      const word = cleanToken(w.t);
      if (word) words.push({ word, start: w.b, end: w.b + w.d });
    }
  }
  return words;
}

/** Words into segments: a new one after a pause longer than `pause` seconds or at `maxWords` words. */
export function groupSegments(words: Word[], pause: number, maxWords: number): Segment[] {
  const segments: Segment[] = [];
  let cur: Word[] = [];
  const flush = () => {
    if (!cur.length) return;
    segments.push({ start: cur[0].start, end: cur[cur.length - 1].end, text: cur.map((w) => w.word).join(' '), words: cur });
    cur = [];
  };
  for (const w of [...words].sort((a, b) => a.start - b.start)) {
    if (cur.length && (w.start - cur[cur.length - 1].end > pause || cur.length >= maxWords)) flush();
    cur.push({ word: w.word, start: round(w.start), end: round(w.end) });
  }
  flush();
  return segments;
}

const round = (t: number) => Math.round(t * 100) / 100;

/** Where a WAV's samples are: `dataOffset` bytes in, `dataBytes` long (null when its header does not say). */
export interface WavLayout {
  rate: number;
  dataOffset: number;
  dataBytes: number | null;
}

/**
 * The layout of a 16 kHz mono 16-bit WAV from its first bytes (the chunks before its samples);
 * other layouts are refused with a message saying what is expected.
 */
export function wavLayout(head: Buffer, name: string): WavLayout {
  if (head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE')
    throw new ModelRunError('speech (pocketsphinx)', `${name} is not a WAV file`);
  let pos = 12;
  let rate = 0;
  let channels = 0;
  let bits = 0;
  while (pos + 8 <= head.length) {
    const id = head.toString('ascii', pos, pos + 4);
    const size = head.readUInt32LE(pos + 4);
    if (id === 'fmt ') {
      channels = head.readUInt16LE(pos + 10);
      rate = head.readUInt32LE(pos + 12);
      bits = head.readUInt16LE(pos + 22);
    } else if (id === 'data') {
      if (channels !== 1 || bits !== 16 || rate !== 16000) {
        throw new ModelRunError(
          'speech (pocketsphinx)',
          `${name} is ${rate} Hz, ${channels} channel(s), ${bits}-bit; expected 16000 Hz mono 16-bit`,
        );
      }
      // ffmpeg writes 0xFFFFFFFF sizes when streaming to a pipe: then what is there is the audio.
      return { rate, dataOffset: pos + 8, dataBytes: size === 0xffffffff ? null : size };
    }
    pos += 8 + size + (size % 2);
  }
  throw new ModelRunError('speech (pocketsphinx)', `${name} has no audio data`);
}

/** Little-endian 16-bit samples of `bytes` (an odd last byte is dropped). */
export function pcmSamples(bytes: Buffer): Int16Array {
  const samples = new Int16Array(Math.floor(bytes.length / 2));
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
  return samples;
}

/** 16-bit PCM samples of a mono WAV. */
function readWav(file: string): { samples: Int16Array; rate: number } {
  const buf = fs.readFileSync(file);
  const layout = wavLayout(buf, file);
  const end = Math.min(buf.length, layout.dataOffset + (layout.dataBytes ?? buf.length));
  return { samples: pcmSamples(buf.subarray(layout.dataOffset, end)), rate: layout.rate };
}

const wholeWindow = (wav: { samples: Int16Array; rate: number }): AudioWindow => ({ ...wav, offset: 0, total: wav.samples.length });

function writeWav(file: string, samples: Int16Array, rate: number): void {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length * 2, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length * 2, 40);
  fs.writeFileSync(file, Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)]));
}

/** Energy frames are 10 ms; a cut is the middle of the quietest 0.3 s within CUT_REACH of its mark. */
const CUT_WINDOW_FRAMES = 30;
const CUT_REACH_FRAMES = 1000;

/**
 * The marks (seconds) near which audio of `total` samples is cut into pieces of about `target`
 * seconds: none when it is short enough to decode whole. Piece i starts at the cut near mark i
 * (piece 0 at 0).
 */
export function pieceMarks(total: number, rate: number, target: number): number[] {
  if (total <= rate * target * 1.5) return [];
  const marks: number[] = [];
  for (let mark = target; mark * rate < total - rate * target * 0.5; mark += target) marks.push(mark);
  return marks;
}

/**
 * The cut near `mark` seconds: the middle of the quietest 0.3 s within 10 s of it, as a sample
 * index. It reads only the samples within 10.3 s of the mark, so a chunk of a long media finds the
 * same cut as a run over the whole file (the energy sums are whole numbers below 2^53: exact).
 */
export function cutNear(audio: AudioWindow, mark: number): number {
  const { samples, rate, offset, total } = audio;
  const frame = Math.round(rate * 0.01);
  const frames = Math.ceil(total / frame);
  const win = CUT_WINDOW_FRAMES;
  const centre = Math.round((mark * rate) / frame);
  const lo = Math.max(0, centre - CUT_REACH_FRAMES);
  const hi = Math.min(frames - win, centre + CUT_REACH_FRAMES);
  const energy = (f: number) => {
    let s = 0;
    for (let i = f * frame; i < Math.min(total, (f + 1) * frame); i++) s += samples[i - offset]! * samples[i - offset]!;
    return s;
  };
  const e = new Float64Array(Math.max(0, Math.min(frames, hi + win) - lo));
  for (let f = lo; f < lo + e.length; f++) e[f - lo] = energy(f);
  let best = centre;
  let bestE = Infinity;
  let run = 0;
  for (let f = lo; f < lo + win && f < frames; f++) run += e[f - lo]!;
  for (let f = lo; f + win < hi; f++) {
    if (run < bestE) {
      bestE = run;
      best = f + win / 2;
    }
    run += e[f + win - lo]! - e[f - lo]!;
  }
  return Math.min(total, Math.round(best) * frame);
}

/**
 * Sample ranges of about `target` seconds, each cut at the quietest 0.3 s within 10 s of the mark,
 * so no word is split across pieces (a cut mid-word would lose it in both). Each cut depends only
 * on the audio around its own mark (cutNear) when `target` is at least 21 s: the search windows of
 * two marks then never overlap. With `chunk` (seconds on the ingest grid), only the pieces whose
 * marks lie in [from, to): a chunked ingest decodes each piece in exactly one chunk.
 */
export function splitAtPauses(audio: AudioWindow, target: number, chunk?: { from: number; to: number }): Array<[number, number]> {
  const { rate, total } = audio;
  const marks = pieceMarks(total, rate, target);
  // Piece i starts at mark i * target (piece 0 at 0) and ends at the next piece's start.
  const first = chunk ? Math.max(0, Math.ceil(chunk.from / target - 1e-9)) : 0;
  const last = chunk ? Math.min(marks.length, Math.ceil(chunk.to / target - 1e-9) - 1) : marks.length;
  const start = (i: number) => (i === 0 ? 0 : i > marks.length ? total : cutNear(audio, marks[i - 1]!));
  const pieces: Array<[number, number]> = [];
  let from = start(first);
  for (let i = first; i <= last; i++) {
    const to = start(i + 1);
    if (to > from) pieces.push([from, to]);
    from = Math.max(from, to);
  }
  return pieces;
}

/**
 * The samples [start, end) of audio `total` samples long that the pieces of `chunk` (seconds on
 * the ingest grid) are found and decoded from: the chunk and the reach of the cuts near its ends
 * (cutNear), in whole energy frames. A chunk reads only these, not the whole audio.
 */
export function chunkSamples(total: number, rate: number, chunk: { from: number; to: number }): [number, number] {
  const frame = Math.round(rate * 0.01);
  const reach = (CUT_REACH_FRAMES + CUT_WINDOW_FRAMES + 2) * frame;
  const start = Math.max(0, Math.floor((chunk.from * rate - reach) / frame) * frame);
  const end = Math.min(total, Math.ceil((Math.min(chunk.to * rate, total) + reach) / frame) * frame);
  return [Math.min(start, end), end];
}

/**
 * Like Promise.all over `items` with at most `limit` running at once, results in order. After a
 * failure no new item starts, and it waits for running ones, so no child process outlives the call.
 */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | null = null;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length && !failure) {
      const i = next++;
      try {
        results[i] = await fn(items[i], i);
      } catch (error) {
        failure ??= { error };
      }
    }
  });
  await Promise.all(workers);
  if (failure) throw (failure as { error: unknown }).error;
  return results;
}
