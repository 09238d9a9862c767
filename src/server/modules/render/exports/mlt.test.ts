import { describe, expect, it } from 'vitest';
import { readMlt } from '../../../../../tests/fixtures/editorFormats';
import { writeMlt } from './mlt';
import { COUNTER_MERGE, MIXED, TALK } from './testTimelines';

describe('MLT XML', () => {
  it('profiles the first clip (size and rate) and plays each clip from its original by name, out inclusive', () => {
    const r = readMlt(writeMlt(COUNTER_MERGE));
    expect(r).toMatchObject({ width: 640, height: 360, rate: { num: 25, den: 1 } });
    expect(r.entries).toEqual([
      { resource: 'counter.mp4', in: 50, out: 99 },
      { resource: 'counter.mp4', in: 185, out: 204 },
    ]);
  });

  it("counts a clip of another rate in the profile's frames, names escaped", () => {
    const text = writeMlt(MIXED);
    const r = readMlt(text);
    expect(r).toMatchObject({ width: 1280, height: 720, rate: { num: 30000, den: 1001 } });
    expect(r.entries).toEqual([
      { resource: TALK.fileName, in: 1798, out: 1889 },
      // 2 s to 4 s of the 25 fps counter: frames 60 to 119 at 29.97
      { resource: 'counter.mp4', in: 60, out: 119 },
      { resource: TALK.fileName, in: 18_000, out: 18_029 },
    ]);
    expect(text).toContain('<property name="resource">Talk &amp; &quot;notes&quot; &lt;draft&gt;.mov</property>');
    // one producer per original, the tractor marked as Shotcut's timeline
    expect(text.match(/<property name="mlt_service">avformat<\/property>/g)).toHaveLength(2);
    expect(text).toMatch(/<tractor[^>]*>\s*<property name="shotcut">1<\/property>/);
  });
});
