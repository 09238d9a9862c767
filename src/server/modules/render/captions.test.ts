import { describe, expect, it } from 'vitest';
import { CAPTION_MAX_LINE_CHARS, CAPTION_MAX_SECONDS, CAPTION_MIN_SECONDS } from '../../../contract';
import {
  assEscape,
  breakLines,
  compilationCues,
  cuesToAss,
  cuesToSrt,
  cuesToVtt,
  segmentWords,
  type CaptionSegment,
  type TimedWord,
} from './captions';

/** Words said one after another, `step` apart, each lasting 80% of it. */
const said = (text: string, start: number, step = 0.3): TimedWord[] =>
  text.split(' ').map((word, i) => ({ word, start: start + i * step, end: start + i * step + step * 0.8 }));
const segment = (text: string, start: number, step = 0.3): CaptionSegment => {
  const words = said(text, start, step);
  return { start, end: words[words.length - 1]!.end, text, words };
};
const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1e-6);

describe('segmentWords: the words of a line as it reads now', () => {
  it('keeps the recogniser words and times of an uncorrected line', () => {
    const s = segment('the quick brown fox', 2);
    expect(segmentWords(s)).toEqual(s.words);
  });

  it('keeps the times of the words a correction kept, and gives typed words the time of those they replace', () => {
    const s = { ...segment('the quick brown fox jumps', 2), text: 'The quick, red fox jumps!' };
    const w = segmentWords(s);
    expect(w.map((x) => x.word)).toEqual(['The', 'quick,', 'red', 'fox', 'jumps!']);
    const heard = s.words as TimedWord[];
    close(w[0]!.start, heard[0]!.start);
    close(w[1]!.end, heard[1]!.end);
    // 'red' replaced 'brown': its time
    close(w[2]!.start, heard[2]!.start);
    close(w[2]!.end, heard[2]!.end);
    close(w[4]!.start, heard[4]!.start);
  });

  it('shares a replaced word’s time among the words typed for it, by length, in order', () => {
    const s = { ...segment('we met at noon', 0, 0.5), text: 'we met at twelve o’clock' };
    const w = segmentWords(s);
    expect(w.map((x) => x.word)).toEqual(['we', 'met', 'at', 'twelve', 'o’clock']);
    const noon = (s.words as TimedWord[])[3]!;
    close(w[3]!.start, noon.start);
    close(w[4]!.end, noon.end);
    expect(w[3]!.end).toBeLessThanOrEqual(w[4]!.start + 1e-9);
    expect(w[4]!.end - w[4]!.start).toBeGreaterThan(w[3]!.end - w[3]!.start);
  });

  it('places an inserted word in the gap after the word before it, and spreads a line without word times over its span', () => {
    const s = { ...segment('call stella now', 0, 1), text: 'please call stella right now' };
    const w = segmentWords(s);
    expect(w.map((x) => x.word)).toEqual(['please', 'call', 'stella', 'right', 'now']);
    // 'please' before the first heard word: from the segment's start to it (0..0): never after 'call'
    expect(w[0]!.end).toBeLessThanOrEqual(w[1]!.start + 1e-9);
    // 'right' between 'stella' (ends 1.8) and 'now' (starts 2)
    expect(w[3]!.start).toBeGreaterThanOrEqual(1.8 - 1e-9);
    expect(w[3]!.end).toBeLessThanOrEqual(2 + 1e-9);

    const plain = segmentWords({ start: 10, end: 12, text: 'aa bb', words: [] });
    expect(plain).toEqual([
      { word: 'aa', start: 10, end: 11 },
      { word: 'bb', start: 11, end: 12 },
    ]);
    expect(segmentWords({ start: 0, end: 1, text: '  ', words: [] })).toEqual([]);
  });

  it('ignores malformed word entries', () => {
    const w = segmentWords({
      start: 0,
      end: 2,
      text: 'hello world',
      words: [null, { word: 'hello' }, 'x', { word: 'world', start: 1, end: 1.5 }],
    });
    expect(w[1]).toEqual({ word: 'world', start: 1, end: 1.5 });
  });
});

describe('breakLines', () => {
  it('keeps a short cue on one line and balances two lines, preferring a break after punctuation', () => {
    expect(breakLines(said('a short line', 0))).toEqual(['a short line']);
    const lines = breakLines(said('when the sun went down, the valley turned a deep red', 0))!;
    expect(lines).toEqual(['when the sun went down,', 'the valley turned a deep red']);
    const even = breakLines(said('one two three four five six seven eight nine ten eleven twelve', 0))!;
    expect(even).toHaveLength(2);
    expect(Math.abs(even[0]!.length - even[1]!.length)).toBeLessThanOrEqual(8);
    for (const l of [...lines, ...even]) expect(l.length).toBeLessThanOrEqual(CAPTION_MAX_LINE_CHARS);
  });

  it('answers null when the words do not fit two lines', () => {
    expect(breakLines(said('x'.repeat(30) + ' ' + 'y'.repeat(30) + ' ' + 'z'.repeat(30), 0))).toBeNull();
  });
});

describe('compilationCues', () => {
  const speech = [
    segment('the quick brown fox jumps over the lazy dog', 1),
    segment('please call stella and ask her to bring these things', 12),
  ];

  it('cuts words to each clip, moves them to the compilation clock and never lets a cue cross a cut', () => {
    const cues = compilationCues([
      { start: 0, end: 2.2, segments: speech },
      { start: 11.5, end: 13.1, segments: speech },
    ]);
    // Clip 1 (0..2.2): words whose middle is before 2.2 (the, quick, brown, fox; 'jumps' at 2.2..2.44 is not).
    expect(cues[0]!.words.map((w) => w.word)).toEqual(['the', 'quick', 'brown', 'fox']);
    close(cues[0]!.start, 1);
    expect(cues[0]!.end).toBeLessThanOrEqual(2.2 + 1e-9);
    // Clip 2 starts at 2.2 on the compilation clock; 'please' said at 12 is at 2.2 + 0.5.
    const second = cues.filter((c) => c.start >= 2.2);
    expect(second[0]!.words[0]).toMatchObject({ word: 'please' });
    close(second[0]!.start, 2.7);
    expect(second.flatMap((c) => c.words.map((w) => w.word))).toEqual(['please', 'call', 'stella', 'and']);
    for (const c of second) expect(c.end).toBeLessThanOrEqual(2.2 + 1.6 + 1e-9);
    // Nothing overlaps.
    cues.slice(1).forEach((c, i) => expect(c.start).toBeGreaterThanOrEqual(cues[i]!.end - 1e-9));
  });

  it('keeps a cue at least the minimum time (unless the clip ends first) and at most the maximum', () => {
    const short = compilationCues([{ start: 0, end: 10, segments: [segment('hi', 1)] }]);
    close(short[0]!.end - short[0]!.start, CAPTION_MIN_SECONDS);
    const clipped = compilationCues([{ start: 0, end: 1.4, segments: [segment('hi', 1)] }]);
    close(clipped[0]!.end, 1.4);
    // slow speech: 20 words 0.5 s apart never stay more than the maximum on screen
    const slow = compilationCues([{ start: 0, end: 30, segments: [segment('word '.repeat(20).trim(), 0, 0.5)] }]);
    for (const c of slow) expect(c.end - c.start).toBeLessThanOrEqual(CAPTION_MAX_SECONDS + 1e-9);
    expect(slow.length).toBeGreaterThan(1);
  });

  it('starts a new cue after a long pause and at most two lines of 42 characters each', () => {
    const text =
      'it was the best of times, it was the worst of times, it was the age of wisdom, it was the age of foolishness, it was the epoch of belief';
    const cues = compilationCues([{ start: 0, end: 60, segments: [segment(text, 0, 0.25), segment('and then silence', 20)] }]);
    for (const c of cues) {
      expect(c.lines.length).toBeLessThanOrEqual(2);
      for (const l of c.lines) expect(l.length).toBeLessThanOrEqual(CAPTION_MAX_LINE_CHARS);
    }
    expect(cues.flatMap((c) => c.words.map((w) => w.word)).join(' ')).toBe(`${text} and then silence`);
    expect(cues[cues.length - 1]!.lines).toEqual(['and then silence']);
    // a cue that had to stop for room ends at a comma where one is in its second half
    expect(cues[0]!.lines.join(' ')).toMatch(/,$/);
  });

  it('has no cues where nothing is said', () => {
    expect(compilationCues([{ start: 5, end: 11.9, segments: speech }])).toEqual([]);
    expect(compilationCues([{ start: 0, end: 8, segments: [] }])).toEqual([]);
  });
});

describe('writers', () => {
  const cues = compilationCues([{ start: 0, end: 10, segments: [segment('a <b> & c --> {d} \\N e', 1)] }]);

  it('writes SRT and WebVTT (WebVTT escaping its markup characters)', () => {
    expect(cuesToSrt(cues)).toBe('1\n00:00:01,000 --> 00:00:03,340\na <b> & c --> {d} \\N e\n');
    expect(cuesToVtt(cues)).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:03.340\na &lt;b&gt; &amp; c --&gt; {d} \\N e\n');
  });

  it('escapes ASS text so braces and backslashes stay text', () => {
    expect(assEscape('{\\b1}x\\N')).toBe('\\{\\\u2060b1\\}x\\\u2060N');
  });

  it('writes ASS at the output size for each style, fonts sized from its height and fitting its width', () => {
    for (const [w, h] of [
      [1280, 720],
      [720, 1280],
    ] as const) {
      const bar = cuesToAss(cues, 'bar', w, h);
      expect(bar).toContain(`PlayResX: ${w}\nPlayResY: ${h}`);
      expect(bar).toMatch(/Style: Caption,DejaVu Sans,\d+,/);
      // the bar: a drawing as wide as the picture, inside it
      const m = /\\pos\(0,(\d+)\)\\p1.*m 0 0 l (\d+) 0 \d+ (\d+) 0/.exec(bar)!;
      expect(Number(m[2])).toBe(w);
      expect(Number(m[1]) + Number(m[3])).toBeLessThanOrEqual(h);
      const size = Number(/Style: Caption,DejaVu Sans,(\d+),/.exec(bar)![1]);
      expect(size * 0.56 * CAPTION_MAX_LINE_CHARS).toBeLessThanOrEqual(w);
      expect(size).toBeGreaterThanOrEqual(Math.min(h * 0.05, w / 26) - 1);
    }
    // words: an event per word, the spoken one coloured
    const words = cuesToAss(cues, 'words', 720, 1280);
    const events = words.split('\n').filter((l) => l.startsWith('Dialogue:'));
    expect(events).toHaveLength(cues[0]!.words.length);
    expect(events[1]).toContain('a {\\c&H00D4FF&}<b>{\\c&HFFFFFF&}');
    // a word longer than the style's line is drawn smaller, to stay inside a narrow picture
    const long = compilationCues([{ start: 0, end: 10, segments: [segment('internationalisation matters', 1)] }]);
    const shrunk = cuesToAss(long, 'words', 720, 1280);
    const size = Number(/Style: Caption,DejaVu Sans,(\d+),/.exec(shrunk)![1]);
    const fs = Number(/\\fs(\d+)/.exec(shrunk)![1]);
    expect(fs * 0.56 * 'internationalisation'.length).toBeLessThanOrEqual(720);
    expect(fs).toBeLessThan(size);
    expect(events.some((e) => e.includes('\\fs'))).toBe(false);
    // subtitle: outlined text, no bar
    const plain = cuesToAss(cues, 'subtitle', 1280, 720);
    expect(plain).not.toContain('\\p1');
    expect(plain.split('\n').filter((l) => l.startsWith('Dialogue:'))).toHaveLength(1);
  });
});
