import { describe, expect, it } from 'vitest';
import { readOtio } from '../../../../../tests/fixtures/editorFormats';
import { writeOtio } from './otio';
import { COUNTER_MERGE, MIXED, TALK } from './testTimelines';

describe('OpenTimelineIO', () => {
  it("writes a Timeline.1 of Video and Audio tracks, each Clip.2's source range at its original's rate and its file by name", () => {
    const r = readOtio(writeOtio(MIXED));
    expect(r.name).toBe('Best bits');
    const ntsc = 30000 / 1001;
    const talk = (start: number, duration: number) => ({
      name: 'Talk & "notes" <draft>',
      targetUrl: TALK.fileName,
      rate: ntsc,
      start,
      duration,
    });
    const counter = { name: 'counter', targetUrl: 'counter.mp4', rate: 25, start: 50, duration: 50 };
    expect(r.tracks.Video).toEqual([talk(1798, 92), counter, talk(18_000, 30)]);
    // the counter has no sound: a gap of its length in the audio track
    expect(r.tracks.Audio).toEqual([talk(1798, 92), { gap: 50, rate: 25 }, talk(18_000, 30)]);
  });

  it('leaves the audio track out when no original has sound', () => {
    const r = readOtio(writeOtio(COUNTER_MERGE));
    expect(Object.keys(r.tracks)).toEqual(['Video']);
    expect(r.tracks.Video!.map((c) => ('start' in c ? [c.start, c.duration, c.rate] : c))).toEqual([
      [50, 50, 25],
      [185, 20, 25],
    ]);
  });

  it('the reader rejects what breaks the schema (so its passes mean something)', () => {
    const text = writeOtio(COUNTER_MERGE);
    expect(() => readOtio(text.replace('"Clip.2"', '"Clip.1x"'))).toThrow(/expected Clip.2/);
    expect(() => readOtio(text.replace('"value": 185', '"value": 290'))).toThrow(/outside the media/);
    expect(() => readOtio(text.replace('"target_url": "counter.mp4"', '"target_url": ""'))).toThrow(/target_url/);
  });
});
