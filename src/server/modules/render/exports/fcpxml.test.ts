import { describe, expect, it } from 'vitest';
import { readFcpxml } from '../../../../../tests/fixtures/editorFormats';
import { rationalTime, writeFcpxml } from './fcpxml';
import { COUNTER_MERGE, MIXED, TALK } from './testTimelines';

describe('FCPXML', () => {
  it('writes frame-aligned rational times at the 29.97 source frame duration, the clips contiguous in one spine', () => {
    const r = readFcpxml(writeFcpxml(MIXED));
    expect(Number(r.version)).toBeGreaterThanOrEqual(1.9);
    expect(r.sequenceFrameDuration).toBe('1001/30000s');
    expect(r.tcFormat).toBe('DF');
    expect(r.clips).toEqual([
      { src: TALK.fileName, assetFrameDuration: '1001/30000s', startFrames: 1798, offsetFrames: 0, durationFrames: 92 },
      // 50 frames at 25 fps are 60 at 29.97 (two seconds either way)
      { src: 'counter.mp4', assetFrameDuration: '1/25s', startFrames: 50, offsetFrames: 92, durationFrames: 60 },
      { src: TALK.fileName, assetFrameDuration: '1001/30000s', startFrames: 18_000, offsetFrames: 152, durationFrames: 30 },
    ]);
    expect(r.durationFrames).toBe(182);
  });

  it('names a file with characters to escape exactly (a relative URL of the name), one asset per original', () => {
    const text = writeFcpxml(MIXED);
    expect(text.match(/<asset /g)).toHaveLength(2);
    expect(text).toContain('src="Talk%20%26%20%22notes%22%20%3Cdraft%3E.mov"');
    expect(text).toContain('<!DOCTYPE fcpxml>');
  });

  it('writes 25 fps as 1/25s, whole seconds plainly', () => {
    const r = readFcpxml(writeFcpxml(COUNTER_MERGE));
    expect(r.sequenceFrameDuration).toBe('1/25s');
    expect(r.tcFormat).toBe('NDF');
    expect(r.clips.map((c) => [c.startFrames, c.durationFrames])).toEqual([
      [50, 50],
      [185, 20],
    ]);
    expect(rationalTime(50, { num: 25, den: 1 })).toBe('2s');
    expect(rationalTime(5, { num: 30000, den: 1001 })).toBe('1001/6000s');
    expect(rationalTime(0, { num: 30000, den: 1001 })).toBe('0s');
  });

  it('the reader rejects what breaks the rules (so its passes mean something)', () => {
    const text = writeFcpxml(MIXED);
    expect(() => readFcpxml(text.replace('version="1.9"', 'version="1.8"'))).toThrow(/older than 1.9/);
    expect(() => readFcpxml(text.replace('start="899899/15000s"', 'start="899900/15000s"'))).toThrow(/not on a frame/);
    expect(() => readFcpxml(text.replace('offset="23023/7500s"', 'offset="3s"'))).toThrow(/gap or overlap/);
    expect(() => readFcpxml(text.replace('duration="91091/15000s"', 'duration="6s"'))).toThrow(/not the clips' sum/);
    expect(() => readFcpxml(text.replace(/ref="r\d"/, 'ref="r99"'))).toThrow(/does not resolve/);
  });
});
