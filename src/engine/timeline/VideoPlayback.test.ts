import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeVideo } from '../../../tests/browser/drivers/FakeVideo';
import { plainHost } from '../../../tests/browser/drivers/PlainHost';
import type { EngineState } from './types';
import { EMULATED_TICK_MS, VideoPlayback } from './VideoPlayback';

const FPS = 25;
const DURATION = 10;

/** A playback part on a plain state object, as the engine would host it. */
function setup(initial: Partial<EngineState> = {}) {
  const host = plainHost(FPS, DURATION, initial);
  const playback = new VideoPlayback(host);
  return {
    playback,
    teardown: host.teardown,
    get state() {
      return host.state();
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('video playback', () => {
  it('seeks to a frame boundary and sends the element to the middle of that frame', () => {
    const t = setup();
    const video = new FakeVideo(DURATION);
    t.playback.attach(video.asElement());
    t.playback.seekTo(1.013, true);
    expect(t.state.frame).toBe(25);
    expect(t.state.time).toBe(1);
    expect(video.currentTime).toBeCloseTo(1.02, 6);
  });

  it('shows the last frame for the end boundary and keeps the playhead at the end', async () => {
    const t = setup();
    const video = new FakeVideo(DURATION);
    t.playback.attach(video.asElement());
    t.playback.seekTo(DURATION, true);
    expect(t.state.frame).toBe(DURATION * FPS);
    // The element is sent into the last frame, not past the end.
    expect(video.currentTime).toBeCloseTo(DURATION - 1 / FPS + 0.5 / FPS, 6);
    await Promise.resolve(); // seeked: the element reports the last frame
    expect(t.state.frame).toBe(DURATION * FPS);
  });

  it("says it is playing by the element's own state, before the element's play and pause events arrive", () => {
    const t = setup();
    const video = new FakeVideo(DURATION);
    t.playback.attach(video.asElement());
    t.playback.runShuttle(1);
    expect(t.playback.isPlaying).toBe(true);
    // A pause from outside (a click on the picture) whose 'pause' event has not been handled yet.
    video.paused = true;
    expect(t.state.playing).toBe(true);
    expect(t.playback.isPlaying).toBe(false);
    // Reverse shuttle pauses the element but plays.
    t.playback.runShuttle(-1);
    expect(t.playback.isPlaying).toBe(true);
    t.playback.runShuttle(0);
    expect(t.playback.isPlaying).toBe(false);
  });

  it('follows the element frame by frame while it plays, and stops with it', () => {
    const t = setup();
    const video = new FakeVideo(DURATION);
    t.playback.attach(video.asElement());
    t.playback.runShuttle(1);
    expect(t.state).toMatchObject({ playing: true, shuttle: 1 });
    video.advance(0.5);
    expect(t.state.frame).toBe(12);
    video.advance(0.5);
    expect(t.state.frame).toBe(25);
    t.playback.runShuttle(0);
    expect(video.paused).toBe(true);
    expect(t.state).toMatchObject({ playing: false, shuttle: 0 });
  });

  it('steps frames paused, from the current frame', () => {
    const t = setup();
    const video = new FakeVideo(DURATION);
    t.playback.attach(video.asElement());
    t.playback.seekTo(2, true);
    t.playback.runShuttle(1);
    t.playback.stepFrames(-3);
    expect(video.paused).toBe(true);
    expect(t.state.frame).toBe(47);
    t.playback.stepFrames(5);
    expect(t.state.frame).toBe(52);
  });

  it('plays in reverse by stepping on a timer (J), down to the start', () => {
    vi.useFakeTimers();
    const t = setup();
    t.playback.seekTo(1, true);
    t.playback.shuttle(-1);
    expect(t.state).toMatchObject({ playing: true, shuttle: -1 });
    vi.advanceTimersByTime(EMULATED_TICK_MS * 10);
    expect(t.state.time).toBeLessThan(1);
    expect(t.state.time).toBeGreaterThan(0.4);
    vi.advanceTimersByTime(2000);
    expect(t.state).toMatchObject({ time: 0, playing: false, shuttle: 0 });
  });

  it('starting again at the very end goes back to the start first', () => {
    const t = setup();
    const video = new FakeVideo(DURATION);
    t.playback.attach(video.asElement());
    t.playback.seekTo(DURATION, true);
    t.playback.runShuttle(1);
    expect(t.state.frame).toBe(0);
    expect(video.paused).toBe(false);
  });

  it('lets go of the element: its events no longer move the playhead, and no frame callback is left', () => {
    const t = setup();
    const video = new FakeVideo(DURATION);
    t.playback.attach(video.asElement());
    void video.play();
    expect(video.pendingFrameCallbacks).toBe(1);
    t.playback.attach(null);
    expect(video.pendingFrameCallbacks).toBe(0);
    expect(t.state.playing).toBe(false);
    video.advance(2);
    expect(t.state.frame).toBe(0);
    t.teardown.dispose();
    expect(t.teardown.size).toBe(0);
  });
});
