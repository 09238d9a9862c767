import { describe, expect, it } from 'vitest';
import { readEdl, timecodeFrames } from '../../../../../tests/fixtures/editorFormats';
import { reelNames, writeEdl } from './edl';
import { COUNTER_MERGE, MIXED, TALK } from './testTimelines';

describe('CMX 3600 EDL', () => {
  it('writes a 29.97 merge in drop-frame: cut events in the columns, record contiguous from 01:00:00;00, source in/out of each original', () => {
    const text = writeEdl(MIXED);
    const r = readEdl(text, 30);
    expect(r.title).toBe('Best bits');
    expect(r.dropFrame).toBe(true);
    expect(r.events.map((e) => [e.number, e.reel, e.channels, e.srcIn, e.srcOut, e.recOut - e.recIn, e.clipName])).toEqual([
      [1, 'TALKNOTE', 'AA/V', '00:00:59;28', '00:01:03;02', 92, TALK.fileName],
      [2, 'COUNTER', 'V', '00:00:02:00', '00:00:04:00', 60, 'counter.mp4'],
      [3, 'TALKNOTE', 'AA/V', '00:10:00;18', '00:10:01;18', 30, TALK.fileName],
    ]);
    // source durations of the 29.97 clips equal their record durations (one rate)
    for (const e of [r.events[0]!, r.events[2]!])
      expect(timecodeFrames(e.srcOut, 30) - timecodeFrames(e.srcIn, 30)).toBe(e.recOut - e.recIn);
    expect(timecodeFrames(r.events[0]!.srcIn, 30)).toBe(1798);
    expect(timecodeFrames(r.events[2]!.srcIn, 30)).toBe(18_000);
    expect(text.split('\n')[3]).toBe('001  TALKNOTE AA/V  C        00:00:59;28 00:01:03;02 01:00:00;00 01:00:03;02');
  });

  it('writes 25 fps as NON-DROP FRAME with colons', () => {
    const r = readEdl(writeEdl(COUNTER_MERGE), 25);
    expect(r.dropFrame).toBe(false);
    expect(r.events.map((e) => [e.srcIn, e.srcOut, e.recIn - r.recordStart, e.recOut - r.recordStart])).toEqual([
      ['00:00:02:00', '00:00:04:00', 0, 50],
      ['00:00:07:10', '00:00:08:05', 50, 70],
    ]);
  });

  it('keeps reel names to 8 characters, distinct for files that share their first eight', () => {
    const reels = reelNames(['interview-day1.mp4', 'interview-day2.mp4', 'été.mov', '---.mp4', 'interview-day1 copy.mp4']);
    expect(reels).toEqual(['INTERVIE', 'INTERV02', 'ETE', 'AX', 'INTERV03']);
    for (const r of reels) expect(r.length).toBeLessThanOrEqual(8);
  });

  it('the reader rejects what breaks the rules (so its passes mean something)', () => {
    const text = writeEdl(MIXED);
    expect(() => readEdl(text.replace('FCM: DROP FRAME', 'FCM: NON-DROP FRAME'), 30)).toThrow(/FCM's mode/);
    expect(() => readEdl(text.replace('01:00:03;02 01:00:05;02', '01:00:03;03 01:00:05;02'), 30)).toThrow(/not where the last ended/);
    expect(() => readEdl(text.replace('TALKNOTE AA/V ', 'TALKNOTES AA/V'), 30)).toThrow();
    expect(() => readEdl(text.replace('00:10:00;18', '00:11:00;00'), 30)).toThrow(/skips/);
    expect(() => readEdl(text.replace(/\* FROM CLIP NAME: counter.mp4\n/, ''), 30)).toThrow(/no clip name/);
  });
});
