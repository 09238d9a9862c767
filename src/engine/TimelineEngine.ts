import { TIMELINE } from '../contract';
import { focusedByKeyboard, watchFocusOrigin } from './core/focusOrigin';
import { OnDemandEngine } from './core/OnDemandEngine';
import {
  clampViewStart,
  clampZoom,
  effectiveFrameRate,
  homeEndTime,
  keyCommand,
  markIn,
  markOut,
  markMinFrames,
  normalizeRange,
  panBy as panViewport,
  pxPerSecond,
  rangeFrames,
  rangeSeconds,
  sameRange,
  xAtTime,
  zoomAt,
  type KeyCommand,
  type Viewport,
} from './kernels';
import { readOnePixel } from './render/readback';
import { PlayheadLayer } from './render/PlayheadLayer';
import { RangeLayer } from './render/RangeLayer';
import type { RenderView } from './render/RenderView';
import { RulerLayer } from './render/RulerLayer';
import { ThumbnailLayer } from './render/ThumbnailLayer';
import type { ThumbnailSource } from './thumbnailSource';
import { PointerInput } from './timeline/PointerInput';
import {
  initialEngineState,
  type EngineDebug,
  type EngineState,
  type MomentRange,
  type TimelineEngineOptions,
  type TimelineHost,
} from './timeline/types';
import { VideoPlayback } from './timeline/VideoPlayback';

export type { DragKind, EngineDebug, EngineState, FrameStats, MomentRange, TimelineEngineOptions, TimelineMedia } from './timeline/types';

const ROWS_HEIGHT = TIMELINE.rulerHeight + TIMELINE.thumbnailRowHeight;

/**
 * The timeline: a PixiJS canvas with a ruler, a thumbnail row, the moment range with two handles
 * and a draggable body, and the playhead; keyboard shortcuts; and playback of an attached <video>.
 * It renders only when something changed (or while a drag auto-scrolls at an edge). State is read
 * through getState/subscribe (React: useEngineValue). The facade of its parts: the on-demand core
 * (core/OnDemandEngine), pointer input (timeline/PointerInput), video playback
 * (timeline/VideoPlayback), the layers (render/*) and the pure kernels.
 */
export class TimelineEngine extends OnDemandEngine<EngineState> {
  private readonly fps: number;
  private readonly duration: number;
  private ruler: RulerLayer | null = null;
  private thumbs: ThumbnailLayer | null = null;
  private rangeLayer: RangeLayer | null = null;
  private playhead: PlayheadLayer | null = null;
  private readonly pointer: PointerInput;
  private readonly playback: VideoPlayback;
  private readonly options: TimelineEngineOptions;
  /** What Home and End go to the ends of: the media, or the moment range (setHomeEnd). */
  private homeEnd: 'media' | 'range' = 'media';

  private constructor(options: TimelineEngineOptions) {
    const fps = effectiveFrameRate(options.media.frameRate);
    const duration = Math.max(0, options.media.duration || 0);
    super(initialEngineState(fps, duration, Math.max(1, Math.round(options.container.clientWidth)), TIMELINE.minZoom));
    this.options = options;
    this.fps = fps;
    this.duration = duration;
    const host: TimelineHost = {
      fps,
      duration,
      teardown: this.teardown,
      state: () => this.state,
      viewport: () => this.viewport,
      patch: (p) => this.patch(p),
    };
    this.playback = new VideoPlayback(host);
    this.pointer = new PointerInput({
      ...host,
      canvas: () => this.app?.canvas ?? null,
      seekTo: (seconds, reveal) => this.playback.seekTo(seconds, reveal),
      commitRange: () => this.commitRange(),
      invalidate: () => this.invalidate(),
      requestFrame: () => this.requestFrame(),
      cancelStepFrame: () => this.cancelStepFrame(),
    });
  }

  /** Creates the engine and its canvas inside `options.container` (Pixi initialises asynchronously). */
  static async create(options: TimelineEngineOptions): Promise<TimelineEngine> {
    const engine = new TimelineEngine(options);
    try {
      await engine.init();
    } catch (error) {
      engine.destroy();
      throw error;
    }
    return engine;
  }

  private async init() {
    const canvas = await this.mount({
      container: this.options.container,
      testId: 'timeline-canvas-surface',
      width: this.state.viewWidth,
      height: ROWS_HEIGHT,
      background: 0x141821,
      renderer: this.options.renderer,
      beforeDestroy: () => this.thumbs?.destroy(),
    });
    const app = this.app;
    if (!canvas || !app) return;
    this.ruler = new RulerLayer();
    this.thumbs = new ThumbnailLayer(
      app.renderer,
      this.options.thumbnails ?? null,
      () => this.invalidate(),
      (m) => this.options.onThumbnailError?.(m),
      (fn, ms) => this.teardown.timeout(fn, ms),
    );
    this.rangeLayer = new RangeLayer();
    this.playhead = new PlayheadLayer();
    app.stage.addChild(this.thumbs.container, this.ruler.container, this.rangeLayer.container, this.playhead.graphics);

    if (this.options.range) this.setRange(this.options.range);
    this.pointer.listen(canvas);
    this.teardown.listen(this.options.keyTarget ?? window, 'keydown', (e) => {
      this.handleKey(e as KeyboardEvent);
    });
    // Space presses a control only when the keyboard brought focus to it (kernels/keyboard).
    this.teardown.add(watchFocusOrigin());
    this.resize();
    this.invalidate();
  }

  private get viewport(): Viewport {
    const s = this.state;
    return { duration: this.duration, width: s.viewWidth, zoom: s.zoom, viewStart: s.viewStart };
  }

  // ---------------------------------------------------------------------------------------------
  // Rendering on demand

  protected override stepFrame(now: number): boolean {
    return this.pointer.stepAutoScroll(now);
  }

  private renderView(): RenderView {
    const s = this.state;
    return {
      width: s.viewWidth,
      rulerHeight: TIMELINE.rulerHeight,
      rowHeight: TIMELINE.thumbnailRowHeight,
      duration: this.duration,
      fps: this.fps,
      viewStart: s.viewStart,
      pxPerSecond: pxPerSecond(this.viewport),
      time: s.time,
      range: s.range,
      activeHandle: s.dragging === 'start' || s.dragging === 'end' ? s.dragging : this.pointer.hoverHandle,
    };
  }

  protected draw() {
    const app = this.app;
    if (!app || !this.ruler || !this.thumbs || !this.rangeLayer || !this.playhead) return;
    const t0 = performance.now();
    const view = this.renderView();
    this.thumbs.update(view);
    this.ruler.update(view);
    this.rangeLayer.update(view);
    this.playhead.update(view);
    const t1 = performance.now();
    app.render();
    const t2 = performance.now();
    let gpuSyncMs: number | null = null;
    let roundTripMs: number | null = null;
    if (this.options.syncGpu) {
      if (readOnePixel(app.renderer)) {
        const t3 = performance.now();
        gpuSyncMs = t3 - t1;
        // A second read has nothing left to wait for: the bare round trip.
        readOnePixel(app.renderer);
        roundTripMs = performance.now() - t3;
      }
    }
    this.options.onFrame?.({ updateMs: t1 - t0, renderMs: t2 - t1, gpuSyncMs, roundTripMs });
  }

  /** Re-reads the container's width and redraws (the ResizeObserver calls this too). */
  resize(): void {
    const app = this.app;
    if (!app || this.teardown.disposed) return;
    const width = Math.max(1, Math.round(this.options.container.clientWidth));
    if (app.renderer.width !== width || app.renderer.height !== ROWS_HEIGHT) app.renderer.resize(width, ROWS_HEIGHT);
    this.patch({ viewWidth: width, viewStart: clampViewStart(this.state.viewStart, this.duration, this.state.zoom) });
    this.invalidate();
  }

  // ---------------------------------------------------------------------------------------------
  // Viewport

  /** Sets the zoom (100..10 000 %), keeping the time under `anchorClientX` (default: the playhead if visible, else the centre) in place. */
  setZoom(percent: number, anchorClientX?: number): void {
    if (!this.app) return;
    const v = this.viewport;
    let anchorX: number;
    if (anchorClientX !== undefined) anchorX = anchorClientX - this.app.canvas.getBoundingClientRect().left;
    else {
      const px = xAtTime(v, this.state.time);
      anchorX = px >= 0 && px <= v.width ? px : v.width / 2;
    }
    const next = zoomAt(v, clampZoom(percent), anchorX);
    this.patch({ zoom: next.zoom, viewStart: next.viewStart });
  }

  /** Multiplies the zoom by `factor` (wheel and pinch), anchored like setZoom. */
  zoomBy(factor: number, anchorClientX?: number): void {
    if (!(factor > 0)) return;
    this.setZoom(this.state.zoom * factor, anchorClientX);
  }

  /** Scrolls the view by `px` (positive shows later media), clamped to the media. */
  panBy(px: number): void {
    if (!this.app) return;
    this.patch({ viewStart: panViewport(this.viewport, px).viewStart });
  }

  // ---------------------------------------------------------------------------------------------
  // Range

  /** Sets or clears the moment range from outside (snapped to frames, kept inside the media; never reported back through onRangeCommit). */
  setRange(range: MomentRange | null): void {
    if (this.teardown.disposed) return;
    if (!range) return this.patch({ range: null });
    const next = rangeSeconds(normalizeRange(rangeFrames(range, this.fps, this.duration), 1, this.duration, this.fps), this.fps);
    if (!sameRange(next, this.state.range)) this.patch({ range: next });
  }

  private commitRange() {
    if (this.state.range) this.options.onRangeCommit?.(this.state.range);
  }

  // ---------------------------------------------------------------------------------------------
  // Playback (timeline/VideoPlayback)

  /** Moves the playhead to the frame boundary nearest `seconds` (clamped to the media) and seeks the video. */
  seek(seconds: number): void {
    this.playback.seekTo(seconds, true);
  }

  /** Steps `n` frames (negative: back), pausing first. */
  stepFrames(n: number): void {
    this.playback.stepFrames(n);
  }

  /** Plays forward at normal speed. */
  play(): void {
    this.playback.runShuttle(1);
  }

  /** Pauses (and stops any shuttle). */
  pause(): void {
    this.playback.runShuttle(0);
  }

  /** Play if paused, pause if playing. */
  togglePlay(): void {
    if (this.playback.isPlaying) this.pause();
    else this.play();
  }

  /** Follows `video` (or nothing): the playhead tracks its frames; play/pause/seek/shuttle drive it. */
  attachVideo(video: HTMLVideoElement | null): void {
    this.playback.attach(video);
  }

  // ---------------------------------------------------------------------------------------------
  // Keyboard

  /** Home and End go to the media's first and last frame ('media', the default) or the moment range's ('range', when one is set). */
  setHomeEnd(to: 'media' | 'range'): void {
    this.homeEnd = to;
  }

  /** Runs the shortcut for a key event; true (and preventDefault) when it was one. */
  handleKey(event: KeyboardEvent): boolean {
    if (this.teardown.disposed || event.defaultPrevented) return false;
    const command = keyCommand(event, focusedByKeyboard(event.target));
    if (!command) return false;
    // Held keys repeat seeks and steps; toggles and marks happen once per press.
    if (event.repeat && command.type !== 'seekBy' && command.type !== 'stepFrames') {
      event.preventDefault();
      return true;
    }
    this.run(command);
    event.preventDefault();
    return true;
  }

  private run(command: KeyCommand) {
    switch (command.type) {
      case 'seekBy':
        return this.seek(Math.max(0, this.state.time + command.seconds));
      case 'seekTo':
        return this.seek(homeEndTime(command.to, this.homeEnd === 'range' ? this.state.range : null, this.fps, this.duration));
      case 'togglePlay':
        return this.togglePlay();
      case 'stepFrames':
        return this.stepFrames(command.frames);
      case 'shuttle':
        return this.playback.shuttle(command.direction);
      case 'markIn':
      case 'markOut': {
        const current = this.state.range ? rangeFrames(this.state.range, this.fps, this.duration) : null;
        const mark = command.type === 'markIn' ? markIn : markOut;
        const next = rangeSeconds(mark(current, this.state.frame, markMinFrames(this.fps), this.duration, this.fps), this.fps);
        if (!sameRange(next, this.state.range)) this.patch({ range: next });
        this.commitRange();
        return;
      }
    }
  }

  // ---------------------------------------------------------------------------------------------

  /** Swaps the thumbnail source (null shows placeholders). */
  setThumbnails(source: ThumbnailSource | null): void {
    this.thumbs?.setSource(source);
  }

  /** For TestTimeline and the benchmark only. */
  get debug(): EngineDebug {
    return {
      app: this.app,
      canvas: this.app?.canvas ?? null,
      renders: this.drawn,
      thumbnails: this.thumbs ? { ...this.thumbs.stats } : null,
      rulerLabels: this.ruler?.visibleLabels ?? 0,
      teardownSize: this.teardown.size,
    };
  }

  /** Removes the canvas and frees everything: Pixi app and textures, listeners, timers, frames, observer, thumbnail requests, video. */
  override destroy(): void {
    if (this.teardown.disposed) return;
    super.destroy();
    this.pointer.destroy();
    this.playback.destroy();
    this.ruler = null;
    this.thumbs = null;
    this.rangeLayer = null;
    this.playhead = null;
  }
}
