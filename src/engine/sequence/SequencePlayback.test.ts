import { describe, expect, it, vi } from 'vitest';
import { testClip as clip } from '../../../tests/fixtures/sequenceClip';
import { SequencePlayback, type SwitchRecord } from './SequencePlayback';

type FrameCallback = (now: number, meta: { mediaTime: number; expectedDisplayTime: number }) => void;

/** A <video> as SequencePlayback uses it: play/pause, seeks that answer `seeked`, frame callbacks fired by the test. */
class FakeVideo extends EventTarget {
  paused = true;
  playbackRate = 1;
  muted = false;
  readyState = 4;
  dataset: Record<string, string> = {};
  style = { visibility: '' };
  plays = 0;
  private time = 0;
  private callbacks = new Map<number, FrameCallback>();
  private ids = 0;
  get currentTime() {
    return this.time;
  }
  set currentTime(t: number) {
    this.time = t;
    setTimeout(() => this.dispatchEvent(new Event('seeked')), 1);
  }
  setAttribute() {}
  play() {
    this.paused = false;
    this.plays++;
    return Promise.resolve();
  }
  pause() {
    this.paused = true;
  }
  requestVideoFrameCallback(cb: FrameCallback) {
    this.callbacks.set(++this.ids, cb);
    return this.ids;
  }
  cancelVideoFrameCallback(id: number) {
    this.callbacks.delete(id);
  }
  get watched() {
    return this.callbacks.size > 0;
  }
  /** The element presents the frame at `mediaTime` (its clock moves there). */
  present(mediaTime: number) {
    this.time = mediaTime;
    const waiting = [...this.callbacks.values()];
    this.callbacks.clear();
    for (const cb of waiting) cb(performance.now(), { mediaTime, expectedDisplayTime: performance.now() });
  }
}

const FRAME = 1 / 25;
const seeked = (v: FakeVideo) => new Promise((resolve) => v.addEventListener('seeked', resolve, { once: true }));

/** Clip a (10..14) then b (20..22) of two 25 fps media; playing, with b preloaded on the back element. */
function playing() {
  const videos = [new FakeVideo(), new FakeVideo()] as const;
  const switches: SwitchRecord[] = [];
  const p = new SequencePlayback({
    videos: videos as unknown as [HTMLVideoElement, HTMLVideoElement],
    urlOf: () => 'blob:media',
    // hls.js is not wanted here: the elements below stand in for attached players.
    attach: () => ({ destroy() {} }),
    onTime: () => undefined,
    onPlaying: () => undefined,
    onSwitch: (r) => switches.push(r),
  });
  p.setClips([clip('a', 10, 14), clip('b', 20, 22)], 0);
  p.play();
  p.preload(1);
  const [front, back] = videos;
  // The front plays on; near its end the back one is set rolling from its preroll.
  for (let t = 10; t < 13.5; t += FRAME) front.present(t);
  expect(back.paused).toBe(false);
  expect(back.watched).toBe(true);
  return { p, front, back, switches };
}

describe('SequencePlayback', () => {
  it('holds the next clip on its first frame and switches to it there', () => {
    const { p, front, back, switches } = playing();
    back.present(19.8);
    back.present(20);
    expect(back.paused).toBe(true);
    front.present(14 - FRAME);
    expect(switches).toMatchObject([{ from: 0, to: 1, lastMediaTime: 14 - FRAME, firstMediaTime: 20 }]);
    p.destroy();
  });

  it('on screen, the next clip shows one frame after the last frame of the one before, not at once', () => {
    // Animation frames that the test runs, at the times it chooses.
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    vi.stubGlobal('document', { hidden: false });
    try {
      const { p, front, back, switches } = playing();
      back.present(20);
      const plays = back.plays;
      const lastAt = performance.now();
      front.present(14 - FRAME);
      // The front clip's last frame is on screen: 40 ms (a 25 fps frame) are its own.
      expect(switches).toEqual([]);
      frames.shift()!(lastAt + 5);
      expect(switches).toEqual([]);
      expect(back.style.visibility).toBe('hidden');
      // Drawn in this animation frame, the first frame of b shows a refresh later: 40 ms after a's last.
      frames.shift()!(lastAt + 26);
      expect(switches).toHaveLength(1);
      expect(switches[0]!.firstFrameAt - switches[0]!.lastFrameAt).toBeGreaterThanOrEqual(40);
      expect(back.style.visibility).toBe('visible');
      expect(back.plays).toBe(plays + 1);
      p.destroy();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a back element whose frame callbacks came late, past the first frame, goes back to it before it is shown', async () => {
    const { p, front, back, switches } = playing();
    // The machine was busy: the first callback at or after the clip's start is four frames in.
    back.present(20 + 4 * FRAME);
    expect(back.paused).toBe(true);
    expect(back.currentTime).toBeCloseTo(20, 6);
    await seeked(back);
    front.present(14 - FRAME);
    expect(switches).toMatchObject([{ from: 0, to: 1, firstMediaTime: 20 }]);
    expect(back.style.visibility).toBe('visible');
    p.destroy();
  });

  it('the same when the front clip had already ended: brought in on its first frame and set playing', async () => {
    const { p, front, back, switches } = playing();
    front.present(14 - FRAME);
    expect(switches).toEqual([]);
    const plays = back.plays;
    back.present(20 + 3 * FRAME);
    expect(switches).toEqual([]);
    await seeked(back);
    expect(switches).toMatchObject([{ from: 0, to: 1, firstMediaTime: 20 }]);
    expect(back.plays).toBe(plays + 1);
    expect(back.paused).toBe(false);
    p.destroy();
  });

  it('a seek while it goes back leaves the sought place alone', async () => {
    const { p, back, switches } = playing();
    back.present(20 + 4 * FRAME);
    p.pause();
    await seeked(back);
    expect(switches).toEqual([]);
    expect(back.paused).toBe(true);
    p.destroy();
  });
});
