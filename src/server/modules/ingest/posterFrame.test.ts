import { describe, expect, it } from 'vitest';
import type { FrameStats } from '../../adapters/media/frameStats';
import { choosePosterFrame, openingEnd, POSTER } from './posterFrame';

/** Keyframes whose `file` names the stats a fake measure answers for them. */
const SCENE: FrameStats = { stdev: 45, detail: 0.5 };
const BARS: FrameStats = { stdev: 75, detail: 0.15 };
const TITLE: FrameStats = { stdev: 30, detail: 0.07 };
const BLACK: FrameStats = { stdev: 0, detail: 0 };
const DIM_SCENE: FrameStats = { stdev: 20, detail: 0.3 };

function video(...parts: Array<[number, FrameStats]>) {
  const stats = new Map(parts.map(([t, s]) => [String(t), s]));
  const measured: number[] = [];
  const measure = (file: string) => {
    measured.push(Number(file));
    return Promise.resolve(stats.get(file)!);
  };
  return { frames: parts.map(([t]) => ({ t, file: String(t) })), measure, measured };
}

describe('choosePosterFrame', () => {
  it('passes over the opening: a tenth of the video, at most 10 s', () => {
    expect(openingEnd(16)).toBeCloseTo(1.6);
    expect(openingEnd(600)).toBe(10);
    expect(openingEnd(0)).toBe(0);
  });

  it('takes the first keyframe with detail after the opening, passing over bars, black and a title card', async () => {
    const v = video([0, BARS], [2, BARS], [3, BLACK], [4, TITLE], [6, TITLE], [7, SCENE], [9, SCENE], [11, SCENE]);
    expect((await choosePosterFrame(v.frames, 16, v.measure))!.t).toBe(7);
    // Nothing in the opening is looked at, and measuring stops soon after the scene.
    expect(v.measured).not.toContain(0);
    expect(v.measured.length).toBeLessThanOrEqual(6);
  });

  it('a scene that starts at once is taken from the end of the opening', async () => {
    const v = video([0, SCENE], [2, SCENE], [4, SCENE], [6, SCENE]);
    expect((await choosePosterFrame(v.frames, 20, v.measure))!.t).toBe(2);
  });

  it('follows a fade in while the next keyframes show clearly more contrast', async () => {
    const v = video([0, BLACK], [2, DIM_SCENE], [4, { stdev: 35, detail: 0.4 }], [6, SCENE], [8, SCENE]);
    expect((await choosePosterFrame(v.frames, 12, v.measure))!.t).toBe(6);
  });

  it('without a scene, takes the first frame that is not near-uniform, else the one with most contrast', async () => {
    const screens = video([0, BLACK], [3, BLACK], [5, TITLE], [7, TITLE]);
    expect((await choosePosterFrame(screens.frames, 30, screens.measure))!.t).toBe(5);
    const dark = video([0, BLACK], [2, { stdev: 3, detail: 0 }], [4, { stdev: 6, detail: 0.01 }], [6, BLACK]);
    expect((await choosePosterFrame(dark.frames, 8, dark.measure))!.t).toBe(4);
  });

  it('a short clip with no keyframe after its opening looks at all of them', async () => {
    const v = video([0, SCENE]);
    expect((await choosePosterFrame(v.frames, 2, v.measure))!.t).toBe(0);
  });

  it('looks at no more than a bounded number of keyframes', async () => {
    const v = video(...Array.from({ length: 200 }, (_, i) => [i * 2, TITLE] as [number, FrameStats]));
    expect((await choosePosterFrame(v.frames, 400, v.measure))!.t).toBe(10);
    expect(v.measured.length).toBe(POSTER.maxMeasured);
  });

  it('a keyframe that cannot be read is skipped; no keyframes, no poster', async () => {
    const v = video([0, BARS], [2, SCENE], [4, SCENE]);
    const failing = (file: string) => (file === '2' ? Promise.reject(new Error('truncated')) : v.measure(file));
    expect((await choosePosterFrame(v.frames, 10, failing))!.t).toBe(4);
    expect(await choosePosterFrame([], 10, v.measure)).toBeNull();
  });
});
