import { describe, expect, it } from 'vitest';
import { timecodeFrames } from '../../../../../tests/fixtures/editorFormats';
import { convertFrames, frameAt, sourceRate, timecode } from './timeline';

describe('sourceRate', () => {
  it('declares a constant rate as the standard rate it is, NTSC ones as n*1000/1001', () => {
    expect(sourceRate({ frameRate: 30000 / 1001, maxFrameRate: 30000 / 1001 })).toEqual({ num: 30000, den: 1001 });
    expect(sourceRate({ frameRate: 29.969, maxFrameRate: 30000 / 1001 })).toEqual({ num: 30000, den: 1001 });
    expect(sourceRate({ frameRate: 23.976, maxFrameRate: null })).toEqual({ num: 24000, den: 1001 });
    expect(sourceRate({ frameRate: 59.94, maxFrameRate: 59.94 })).toEqual({ num: 60000, den: 1001 });
    expect(sourceRate({ frameRate: 25.0004, maxFrameRate: 25 })).toEqual({ num: 25, den: 1 });
    expect(sourceRate({ frameRate: 30, maxFrameRate: 30 })).toEqual({ num: 30, den: 1 });
    expect(sourceRate({ frameRate: 12.5, maxFrameRate: 12.5 })).toEqual({ num: 25, den: 2 });
  });

  it('declares a variable rate as its nominal rate', () => {
    // a phone's 30 fps recording that dropped frames: every frame time fits 30
    expect(sourceRate({ frameRate: 29.41, maxFrameRate: 30 })).toEqual({ num: 30, den: 1 });
    // a screen recording whose frame times fit no plausible rate: the standard rate nearest its average
    expect(sourceRate({ frameRate: 28.2, maxFrameRate: 90 })).toEqual({ num: 30, den: 1 });
    expect(sourceRate({ frameRate: 23.1, maxFrameRate: 1000 / 3 })).toEqual({ num: 24, den: 1 });
    expect(sourceRate(null)).toEqual({ num: 30, den: 1 });
  });
});

describe('frames', () => {
  it('takes the frames whose time is in [start, end), as the renderer cuts them', () => {
    const r25 = { num: 25, den: 1 };
    expect([frameAt(0.52, r25), frameAt(1, r25), frameAt(0.49, r25), frameAt(0, r25)]).toEqual([13, 25, 13, 0]);
    const ntsc = { num: 30000, den: 1001 };
    expect(frameAt(1.001, ntsc)).toBe(30);
    expect(frameAt(1.0011, ntsc)).toBe(31);
    expect(convertFrames(50, r25, ntsc)).toBe(60);
    expect(convertFrames(30, ntsc, { num: 60, den: 1 })).toBe(60);
  });
});

describe('timecode', () => {
  it('counts non-drop frames at the whole rate', () => {
    expect(timecode(90_000, { num: 25, den: 1 })).toBe('01:00:00:00');
    expect(timecode(1799, { num: 30, den: 1 })).toBe('00:00:59:29');
    expect(timecode(86_399, { num: 24000, den: 1001 })).toBe('00:59:59:23');
  });

  it('skips frame numbers 00 and 01 (00-03 at 59.94) each minute but every tenth in drop-frame', () => {
    const ntsc = { num: 30000, den: 1001 };
    expect(timecode(1799, ntsc)).toBe('00:00:59;29');
    expect(timecode(1800, ntsc)).toBe('00:01:00;02');
    expect(timecode(17_982, ntsc)).toBe('00:10:00;00');
    expect(timecode(107_892, ntsc)).toBe('01:00:00;00');
    expect(timecode(3599, { num: 60000, den: 1001 })).toBe('00:00:59;59');
    expect(timecode(3600, { num: 60000, den: 1001 })).toBe('00:01:00;04');
  });

  it('reads back to the same frame through an independent reader, at every rate', () => {
    for (const [rate, base] of [
      [{ num: 30000, den: 1001 }, 30],
      [{ num: 60000, den: 1001 }, 60],
      [{ num: 25, den: 1 }, 25],
    ] as const)
      for (let n = 0; n < 250_000; n += 37) expect(timecodeFrames(timecode(n, rate), base)).toBe(n);
  });
});
