import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOX_PHRASE, makeSpeechSequence, makeSpeechWav } from '../../../../tests/fixtures/makeMedia';
import { removeDir, tempDir } from '../../../../tests/fixtures/modelsDir';
import { createSpeechToText } from './index';
import { chunkSamples, cutNear, groupSegments, parseContinuous, parseV5, splitAtPauses } from './pocketsphinx';

const whole = (samples: Int16Array, rate: number) => ({ samples, rate, offset: 0, total: samples.length });

/** Share of the expected words found in order-free comparison (pocketsphinx hears "jumps" as "jumped"). */
const overlap = (heard: string[], said: string[]) => said.filter((w) => heard.includes(w)).length / said.length;

describe('pocketsphinx speech to text', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('stt');
  });
  afterAll(() => removeDir(dir));

  it('transcribes a flite sentence with word times inside the seconds it was spoken', async () => {
    const wav = await makeSpeechWav(dir, FOX_PHRASE, { leadSeconds: 2, tailSeconds: 1 });
    const progress: number[] = [];
    const t = performance.now();
    const segments = await createSpeechToText().transcribe(wav.path, { onProgress: (f) => progress.push(f) });
    const seconds = (performance.now() - t) / 1000;
    const words = segments.flatMap((s) => s.words);
    expect(
      overlap(
        words.map((w) => w.word),
        FOX_PHRASE.split(' '),
      ),
    ).toBeGreaterThanOrEqual(0.75);
    for (const w of words) {
      expect(w.start).toBeGreaterThanOrEqual(wav.speechStart - 0.3);
      expect(w.end).toBeLessThanOrEqual(wav.speechEnd + 0.3);
      expect(w.end).toBeGreaterThan(w.start);
    }
    const fox = words.find((w) => w.word === 'fox')!;
    expect(fox.start).toBeGreaterThan(wav.speechStart + 0.5); // fourth word: well after the start
    expect(segments[0].text).toContain('brown fox');
    expect(progress.at(-1)).toBe(1);
    console.log(
      `[timing] pocketsphinx: ${seconds.toFixed(2)} s for ${wav.duration.toFixed(1)} s of audio (one short file: model loading dominates)`,
    );
  }, 30_000);

  it('cuts long audio at pauses, decodes the chunks, and keeps times and sentences apart (real-time factor printed)', async () => {
    const phrases = [
      'the quick brown fox jumps over the lazy dog',
      'please open the window and let some fresh air in',
      'the children played football in the park',
      'the train leaves the station at noon',
    ];
    const seq = await makeSpeechSequence(dir, [...phrases, ...phrases], 2);
    const t = performance.now();
    const segments = await createSpeechToText({ chunkSeconds: 15, parallel: 2 }).transcribe(seq.path);
    const seconds = (performance.now() - t) / 1000;
    // Every sentence comes back as its own segment, at its own time, with most of its words.
    for (const span of seq.spans) {
      const seg = segments.find((s) => s.start < span.end && s.end > span.start);
      expect(seg, `${span.phrase} at ${span.start.toFixed(1)} s`).toBeDefined();
      expect(Math.abs(seg!.start - span.start)).toBeLessThan(0.5);
      expect(overlap(seg!.text.split(' '), span.phrase.split(' '))).toBeGreaterThanOrEqual(0.6);
    }
    console.log(
      `[timing] pocketsphinx: real-time factor ${(seconds / seq.duration).toFixed(3)} (${seconds.toFixed(1)} s for ${seq.duration.toFixed(0)} s, 15 s chunks, 2 processes)`,
    );
  }, 60_000);

  it('groups words into segments at pauses and at twelve words', () => {
    const w = (word: string, start: number) => ({ word, start, end: start + 0.3 });
    const words = [w('a', 0), w('b', 0.35), w('c', 1.5), ...Array.from({ length: 14 }, (_, i) => w(`x${i}`, 3 + i * 0.35))];
    const segs = groupSegments(words, 0.6, 12);
    expect(segs.map((s) => s.words.length)).toEqual([2, 1, 12, 2]);
    expect(segs[0]).toMatchObject({ start: 0, end: 0.65, text: 'a b' });
  });

  it("reads both CLIs' outputs and drops silences, noises and pronunciation variants", () => {
    const v08 = [
      'the quick(2) brown',
      '<s> 0.100 0.120 0.999900',
      'the(2) 0.130 0.280 0.692088',
      '<sil> 0.29 0.5 1',
      '[NOISE] 0.5 0.6 1',
      'quick 0.290 0.560 0.128859',
      '</s> 2.9 2.96 1',
    ].join('\n');
    expect(parseContinuous(v08)).toEqual([
      { word: 'the', start: 0.13, end: 0.28 },
      { word: 'quick', start: 0.29, end: 0.56 },
    ]);
    const v5 =
      '{"b":0.000,"d":1.200,"p":1.000,"t":"go forward","w":[{"b":0.000,"d":0.100,"p":1.000,"t":"<sil>"},{"b":0.100,"d":0.400,"p":0.990,"t":"go"},{"b":0.500,"d":0.700,"p":0.980,"t":"forward(2)"}]}';
    expect(parseV5(v5)).toEqual([
      { word: 'go', start: 0.1, end: 0.5 },
      { word: 'forward', start: 0.5, end: 1.2 },
    ]);
  });

  it('cuts in the quiet between words, never inside a loud stretch', () => {
    const rate = 16000;
    const samples = new Int16Array(rate * 40);
    // Loud everywhere except a 0.5 s gap at 31 s.
    for (let i = 0; i < samples.length; i++) samples[i] = i > rate * 31 && i < rate * 31.5 ? 0 : Math.round(8000 * Math.sin(i / 5));
    const chunks = splitAtPauses(whole(samples, rate), 25);
    expect(chunks).toHaveLength(2);
    const cut = chunks[0][1] / rate;
    expect(cut).toBeGreaterThan(31);
    expect(cut).toBeLessThan(31.5);
    expect(chunks[1][1]).toBe(samples.length);
  });

  it('finds each cut from the audio around its mark alone: the same pieces as the sequential search, whole or chunk by chunk', () => {
    const rate = 16000;
    // 7 minutes of noise at random loudness with short random quiet stretches (a pause every few seconds).
    let seed = 41;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const samples = new Int16Array(rate * 421);
    let level = 4000;
    for (let i = 0; i < samples.length; i++) {
      if (i % 1600 === 0) level = rand() < 0.06 ? 40 + rand() * 200 : 1000 + rand() * 12000;
      samples[i] = Math.round((rand() * 2 - 1) * level);
    }
    const audio = whole(samples, rate);
    for (const target of [25, 30]) {
      const pieces = splitAtPauses(audio, target);
      expect(pieces).toEqual(sequentialSplit(samples, rate, target));
      expect(pieces.length).toBeGreaterThan(10);
      for (const [, end] of pieces.slice(0, -1)) expect(cutNear(audio, Math.round(end / rate / target) * target)).toBe(end);
    }
    // Chunks of the ingest grid (multiples of the piece length) hold the whole file's pieces, each
    // once, whether a chunk has all the audio or only the window it reads (chunkSamples).
    for (const grid of [30, 60, 120]) {
      const ranges = Array.from({ length: Math.ceil(421 / grid) }, (_, k) => ({
        from: k * grid,
        to: (k + 1) * grid >= 421 ? Infinity : (k + 1) * grid,
      }));
      const chunks = ranges.map((chunk) => splitAtPauses(audio, 30, chunk));
      expect(chunks.flat()).toEqual(splitAtPauses(audio, 30));
      const windowed = ranges.map((chunk) => {
        const [start, end] = chunkSamples(samples.length, rate, chunk);
        expect(end - start).toBeLessThan((grid + 21) * rate);
        return splitAtPauses({ samples: samples.subarray(start, end), rate, offset: start, total: samples.length }, 30, chunk);
      });
      expect(windowed).toEqual(chunks);
    }
  });
});

/** splitAtPauses as it was before chunked ingest: each cut searched after the one before (the reference for the local search). */
function sequentialSplit(samples: Int16Array, rate: number, target: number): Array<[number, number]> {
  const total = samples.length;
  if (total <= rate * target * 1.5) return [[0, total]];
  const frame = Math.round(rate * 0.01);
  const energy = new Float64Array(Math.ceil(total / frame));
  for (let f = 0; f < energy.length; f++) {
    let s = 0;
    for (let i = f * frame; i < Math.min(total, (f + 1) * frame); i++) s += samples[i]! * samples[i]!;
    energy[f] = s;
  }
  const win = 30;
  const cuts: number[] = [0];
  for (let mark = target; mark * rate < total - rate * target * 0.5; mark += target) {
    const centre = Math.round((mark * rate) / frame);
    const lo = Math.max(Math.round(cuts[cuts.length - 1]! / frame) + win, centre - 1000);
    const hi = Math.min(energy.length - win, centre + 1000);
    let best = centre;
    let bestE = Infinity;
    let run = 0;
    for (let f = lo; f < lo + win && f < energy.length; f++) run += energy[f]!;
    for (let f = lo; f + win < hi; f++) {
      if (run < bestE) {
        bestE = run;
        best = f + win / 2;
      }
      run += energy[f + win]! - energy[f]!;
    }
    const cut = Math.min(total, Math.round(best) * frame);
    if (cut > cuts[cuts.length - 1]!) cuts.push(cut);
  }
  cuts.push(total);
  return cuts.slice(1).map((end, i) => [cuts[i]!, end]);
}
