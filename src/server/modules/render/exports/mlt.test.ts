import { describe, expect, it } from 'vitest';
import { readMlt } from '../../../../../tests/fixtures/editorFormats';
import { writeMlt } from './mlt';
import { COUNTER, COUNTER_MERGE, MIXED, TALK } from './testTimelines';

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

  it('crops to a cropping aspect as the render does: a 9:16 canvas, each clip scaled to fill it, its window followed by keyframes', () => {
    const r = readMlt(
      writeMlt({
        title: 'Short',
        aspect: '9:16',
        clips: [
          // the window panning from the left third to the right, a cut to the middle at 2 s, then still
          {
            source: TALK,
            in: 1798,
            out: 1918,
            framing: {
              width: 0.3164,
              height: 1,
              points: [
                { t: 0, x: 0.3, y: 0.5 },
                { t: 1, x: 0.7, y: 0.5 },
                { t: 2, x: 0.7, y: 0.5 },
                { t: 2, x: 0.5, y: 0.5 },
              ],
            },
          },
          // a window the user fixed at the far left: kept inside the picture
          { source: TALK, in: 18_000, out: 18_030, framing: { width: 0.3164, height: 1, points: [{ t: 0, x: 0, y: 0.5 }] } },
          // a clip without a crop: fitted into the canvas, as MLT shows any clip
          { source: COUNTER, in: 50, out: 100 },
        ],
      }),
    );
    // The short side of the first original (720) and its rate.
    expect(r).toMatchObject({ width: 720, height: 1280, rate: { num: 30000, den: 1001 } });
    // The 1280x720 talk scaled so its 405 px window fills 720 px: 2275.5 x 1280.
    const scale = 720 / (0.3164 * 1280);
    const w = 1280 * scale;
    const at = (x: number) => 360 - x * w;
    const [pan, fixed, plain] = r.entries;
    expect(pan!.rect!.map((k) => k.frame)).toEqual([0, 30, 59, 60]);
    for (const [k, x] of pan!.rect!.map((k, i) => [k, [0.3, 0.7, 0.7, 0.5][i]!] as const)) {
      expect(k.x).toBeCloseTo(at(x), 1);
      expect(Math.abs(k.y)).toBeLessThan(0.05);
      expect(k.w).toBeCloseTo(w, 1);
      expect(k.h).toBeCloseTo(1280, 1);
    }
    expect(fixed!.rect).toHaveLength(1);
    expect(fixed!.rect![0]!.x).toBe(0);
    expect(plain!.rect).toBeUndefined();
  });
});
