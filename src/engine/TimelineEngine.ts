import type { Application } from 'pixi.js';
import { createOnDemandApp, mountCanvas } from './render/pixiApp';
import { TIMELINE, VIDEO_TIME_OFFSET } from '../contract';
import {
  autoScrollBy,
  clampViewStart,
  clampZoom,
  dragEnd,
  dragStart,
  edgeScrollSpeed,
  effectiveFrameRate,
  frameAt,
  frameTime,
  keyCommand,
  lastFrame,
  markIn,
  markOut,
  minRangeFrames,
  moveRange,
  nearestFrame,
  nextShuttle,
  normalizeRange,
  panBy as panViewport,
  pxPerSecond,
  reveal,
  timeAtX,
  xAtTime,
  zoomAt,
  type FrameRange,
  type KeyCommand,
  type Viewport,
} from './kernels';
import { PlayheadLayer } from './render/PlayheadLayer';
import { RangeLayer } from './render/RangeLayer';
import type { RenderView } from './render/RenderView';
import { RulerLayer } from './render/RulerLayer';
import { HANDLE_SLOP, HANDLE_WIDTH } from './render/theme';
import { ThumbnailLayer, type ThumbnailStats } from './render/ThumbnailLayer';
import { Teardown } from './Teardown';
import type { ThumbnailSource } from './thumbnailSource';

export interface TimelineMedia {
  /** Seconds. */
  duration: number;
  /** Frames per second; 0 or unknown means 30. */
  frameRate: number;
  width: number;
  height: number;
}

/** A moment range in seconds, on frame boundaries. */
export interface MomentRange {
  start: number;
  end: number;
}

export interface EngineState {
  /** Playhead, seconds, on a frame boundary. */
  time: number;
  /** Playhead frame index. */
  frame: number;
  duration: number;
  /** Effective frame rate (30 when the media's is unknown). */
  frameRate: number;
  playing: boolean;
  /** Signed playback rate from J/K/L (and play/pause): 0 stopped, 1 normal, -2 double-speed reverse. */
  shuttle: number;
  /** 100..10 000 %. */
  zoom: number;
  /** Media seconds at the left edge. */
  viewStart: number;
  /** Timeline width, CSS px. */
  viewWidth: number;
  range: MomentRange | null;
  /** What the pointer drags: a handle, the whole range (its body), or the playhead. */
  dragging: DragKind | null;
}

/** A handle, the range body, or the playhead. */
export type DragKind = 'start' | 'end' | 'range' | 'playhead';

/** Timing of one drawn frame (for the benchmark and tests). */
export interface FrameStats {
  /** Updating the layers from the state (CPU). */
  updateMs: number;
  /** Inside app.render() (CPU side of the draw; WebGL queues the work). */
  renderMs: number;
  /** A 1-pixel readPixels after the draw, i.e. waiting for the GPU; only with `syncGpu`. */
  gpuSyncMs: number | null;
  /** A second readPixels right after: the bare round trip, with no drawing left to wait for. */
  roundTripMs: number | null;
}

export interface TimelineEngineOptions {
  container: HTMLElement;
  media: TimelineMedia;
  range?: MomentRange | null;
  thumbnails?: ThumbnailSource | null;
  /** Where keyboard shortcuts are heard; window by default. */
  keyTarget?: EventTarget;
  /** A handle or range-body drag ended, or I/O set the range. */
  onRangeCommit?(range: MomentRange): void;
  /** A thumbnail could not be made (called once per source). */
  onThumbnailError?(message: string): void;
  /** Called after each drawn frame; for the benchmark and tests. */
  onFrame?(stats: FrameStats): void;
  /** Wait for the GPU after each frame so `gpuSyncMs` is measured (benchmark only: it costs time). */
  syncGpu?: boolean;
}

/** Internals the TestTimeline helper and the benchmark observe. Not for app code. */
export interface EngineDebug {
  app: Application | null;
  canvas: HTMLCanvasElement | null;
  renders: number;
  thumbnails: ThumbnailStats | null;
  rulerLabels: number;
  teardownSize: number;
}

const ROWS_HEIGHT = TIMELINE.rulerHeight + TIMELINE.thumbnailRowHeight;
/** Emulated playback (reverse shuttle, or no video element) steps at this interval. */
const EMULATED_TICK_MS = 40;

/** One pointer drag, from press to release (or Escape, or a second finger). */
interface Drag {
  kind: DragKind;
  pointerId: number;
  /** The pointer, px from the timeline's top left (auto-scroll keeps applying x). */
  x: number;
  y: number;
  /** The range and playhead at the press: a cancelled drag puts them back. */
  range: MomentRange | null;
  time: number;
  /** Range body: the range in frames and the media time under the pointer at the press. */
  grabbed: { range: FrameRange; time: number } | null;
  /** The drag's own listeners (Escape); gone when it ends or the engine is destroyed. */
  teardown: Teardown;
}

type VideoFrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?(cb: (now: number, meta: { mediaTime: number }) => void): number;
  cancelVideoFrameCallback?(handle: number): void;
};

/**
 * The timeline: a PixiJS canvas with a ruler, a thumbnail row, the moment range with two handles
 * and a draggable body, and the playhead; keyboard shortcuts; and playback of an attached <video>.
 * It renders only when something changed (or while a drag auto-scrolls at an edge). State is read through getState/subscribe (React: useEngineValue).
 */
export class TimelineEngine {
  private readonly teardown = new Teardown();
  private readonly fps: number;
  private readonly duration: number;
  private state: EngineState;
  private readonly listeners = new Set<() => void>();
  private app: Application | null = null;
  private ruler: RulerLayer | null = null;
  private thumbs: ThumbnailLayer | null = null;
  private rangeLayer: RangeLayer | null = null;
  private playhead: PlayheadLayer | null = null;
  private cancelFrame: (() => void) | null = null;
  /** Something changed since the last draw. */
  private stale = false;
  /** Inside the animation-frame callback, before the draw (changes then are drawn in this frame). */
  private inFrame = false;
  private renders = 0;
  private hoverHandle: 'start' | 'end' | null = null;
  private drag: Drag | null = null;
  /** Edge auto-scroll is running: each animation frame pans and re-applies the drag. */
  private autoScroll: { lastFrameAt: number | null } | null = null;
  private video: VideoFrameCallbackVideo | null = null;
  private videoTeardown: Teardown | null = null;
  private stopVideoFrames: (() => void) | null = null;
  private stopEmulation: (() => void) | null = null;
  private readonly options: TimelineEngineOptions;

  private constructor(options: TimelineEngineOptions) {
    this.options = options;
    this.fps = effectiveFrameRate(options.media.frameRate);
    this.duration = Math.max(0, options.media.duration || 0);
    this.state = {
      time: 0,
      frame: 0,
      duration: this.duration,
      frameRate: this.fps,
      playing: false,
      shuttle: 0,
      zoom: TIMELINE.minZoom,
      viewStart: 0,
      viewWidth: Math.max(1, Math.round(options.container.clientWidth)),
      range: null,
      dragging: null,
    };
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
    const { container } = this.options;
    const app = await createOnDemandApp({ width: this.state.viewWidth, height: ROWS_HEIGHT, background: 0x141821 });
    this.app = app;
    this.teardown.add(() => {
      this.thumbs?.destroy();
      // Thumbnail textures are destroyed by their layer above; `texture: true` here would also
      // destroy Pixi's shared Texture.WHITE that placeholders use.
      app.destroy({ removeView: true }, { children: true, context: true });
      this.app = null;
    });
    const canvas = mountCanvas(app, container, 'timeline-canvas-surface', this.teardown);

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

    const observer = new ResizeObserver(() => this.resize());
    observer.observe(container);
    this.teardown.add(() => observer.disconnect());

    const td = this.teardown;
    td.listen(canvas, 'pointerdown', (e) => this.onPointerDown(e as PointerEvent));
    td.listen(canvas, 'pointermove', (e) => this.onPointerMove(e as PointerEvent));
    td.listen(canvas, 'pointerup', (e) => this.onPointerUp(e as PointerEvent));
    td.listen(canvas, 'pointercancel', (e) => this.onPointerUp(e as PointerEvent));
    td.listen(canvas, 'pointerleave', () => this.setHover(null));
    td.listen(this.options.keyTarget ?? window, 'keydown', (e) => {
      this.handleKey(e as KeyboardEvent);
    });
    this.resize();
    this.invalidate();
  }

  // ---------------------------------------------------------------------------------------------
  // State

  /** The current state; the same object until something changes (for useSyncExternalStore). */
  getState(): EngineState {
    return this.state;
  }

  /** Calls `listener` after every state change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    if (this.teardown.disposed) return () => {};
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private setState(patch: Partial<EngineState>) {
    if (this.teardown.disposed) return;
    let changed = false;
    for (const key of Object.keys(patch) as (keyof EngineState)[]) {
      if (!Object.is(patch[key], this.state[key])) {
        changed = true;
        break;
      }
    }
    if (!changed) return;
    this.state = { ...this.state, ...patch };
    this.invalidate();
    for (const listener of [...this.listeners]) listener();
  }

  private get viewport(): Viewport {
    const s = this.state;
    return { duration: this.duration, width: s.viewWidth, zoom: s.zoom, viewStart: s.viewStart };
  }

  private get pps(): number {
    return pxPerSecond(this.viewport);
  }

  // ---------------------------------------------------------------------------------------------
  // Rendering on demand

  /** Marks the picture stale; it is drawn once in the next animation frame. */
  private invalidate() {
    this.stale = true;
    this.requestFrame();
  }

  // One animation frame serves both drawing and edge auto-scroll, so a scrolled frame is drawn in
  // the frame that scrolled it; none is requested while nothing changes and nothing scrolls.
  private requestFrame() {
    if (this.cancelFrame || this.inFrame || !this.app || this.teardown.disposed) return;
    this.cancelFrame = this.teardown.frame((now) => this.onAnimationFrame(now));
  }

  private onAnimationFrame(now: number) {
    this.cancelFrame = null;
    this.inFrame = true;
    try {
      this.stepAutoScroll(now);
    } finally {
      this.inFrame = false;
    }
    if (this.stale) {
      this.stale = false;
      this.draw();
    }
    if (this.autoScroll) this.requestFrame();
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
      pxPerSecond: this.pps,
      time: s.time,
      range: s.range,
      activeHandle: s.dragging === 'start' || s.dragging === 'end' ? s.dragging : this.hoverHandle,
    };
  }

  private draw() {
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
      const gl = (app.renderer as { gl?: WebGLRenderingContext }).gl;
      if (gl) {
        const pixel = new Uint8Array(4);
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
        const t3 = performance.now();
        gpuSyncMs = t3 - t1;
        // A second read has nothing left to wait for: the bare round trip to the GPU process.
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
        roundTripMs = performance.now() - t3;
      }
    }
    this.renders++;
    this.options.onFrame?.({ updateMs: t1 - t0, renderMs: t2 - t1, gpuSyncMs, roundTripMs });
  }

  /** Re-reads the container's width and redraws (the ResizeObserver calls this too). */
  resize(): void {
    const app = this.app;
    if (!app || this.teardown.disposed) return;
    const width = Math.max(1, Math.round(this.options.container.clientWidth));
    if (app.renderer.width !== width || app.renderer.height !== ROWS_HEIGHT) app.renderer.resize(width, ROWS_HEIGHT);
    this.setState({ viewWidth: width, viewStart: clampViewStart(this.state.viewStart, this.duration, this.state.zoom) });
    this.invalidate();
  }

  // ---------------------------------------------------------------------------------------------
  // Viewport

  /** Sets the zoom (100..10 000 %), keeping the time under `anchorClientX` (default: the playhead if visible, else the centre) in place. */
  setZoom(percent: number, anchorClientX?: number): void {
    if (!this.app) return;
    const v = this.viewport;
    let anchorX: number;
    if (anchorClientX !== undefined) anchorX = anchorClientX - this.canvasLeft();
    else {
      const px = xAtTime(v, this.state.time);
      anchorX = px >= 0 && px <= v.width ? px : v.width / 2;
    }
    const next = zoomAt(v, clampZoom(percent), anchorX);
    this.setState({ zoom: next.zoom, viewStart: next.viewStart });
  }

  /** Multiplies the zoom by `factor` (wheel and pinch), anchored like setZoom. */
  zoomBy(factor: number, anchorClientX?: number): void {
    if (!(factor > 0)) return;
    this.setZoom(this.state.zoom * factor, anchorClientX);
  }

  /** Scrolls the view by `px` (positive shows later media), clamped to the media. */
  panBy(px: number): void {
    if (!this.app) return;
    this.setState({ viewStart: panViewport(this.viewport, px).viewStart });
  }

  private canvasLeft(): number {
    return this.app?.canvas.getBoundingClientRect().left ?? 0;
  }

  // ---------------------------------------------------------------------------------------------
  // Range

  private minFrames(): number {
    return minRangeFrames(this.pps, this.fps);
  }

  private toFrames(range: MomentRange): FrameRange {
    return { start: nearestFrame(range.start, this.fps, this.duration), end: nearestFrame(range.end, this.fps, this.duration) };
  }

  private toSeconds(range: FrameRange): MomentRange {
    return { start: frameTime(range.start, this.fps), end: frameTime(range.end, this.fps) };
  }

  private sameRange(a: MomentRange | null, b: MomentRange | null) {
    return a === b || (!!a && !!b && a.start === b.start && a.end === b.end);
  }

  /** Sets or clears the moment range from outside (snapped to frames, kept inside the media; never reported back through onRangeCommit). */
  setRange(range: MomentRange | null): void {
    if (this.teardown.disposed) return;
    if (!range) return this.setState({ range: null });
    const next = this.toSeconds(normalizeRange(this.toFrames(range), 1, this.duration, this.fps));
    if (!this.sameRange(next, this.state.range)) this.setState({ range: next });
  }

  private commitRange() {
    if (this.state.range) this.options.onRangeCommit?.(this.state.range);
  }

  // ---------------------------------------------------------------------------------------------
  // Pointer

  private pointerX(e: PointerEvent): { x: number; y: number } {
    const rect = this.app?.canvas.getBoundingClientRect();
    return { x: e.clientX - (rect?.left ?? 0), y: e.clientY - (rect?.top ?? 0) };
  }

  private handleAt(x: number, y: number): 'start' | 'end' | null {
    const range = this.state.range;
    if (!range || y > ROWS_HEIGHT) return null;
    const v = this.viewport;
    const xs = xAtTime(v, range.start);
    const xe = xAtTime(v, range.end);
    // The bars sit just outside the range; grabbing may start a few px inside it.
    if (x >= xs - HANDLE_WIDTH - HANDLE_SLOP && x <= xs + HANDLE_SLOP) return 'start';
    if (x >= xe - HANDLE_SLOP && x <= xe + HANDLE_WIDTH + HANDLE_SLOP) return 'end';
    return null;
  }

  /** Over the range between its handles, in the thumbnail row: a press there moves the whole range. */
  private onRangeBody(x: number, y: number): boolean {
    const range = this.state.range;
    if (!range || y < TIMELINE.rulerHeight || y > ROWS_HEIGHT || this.handleAt(x, y)) return false;
    const v = this.viewport;
    return x > xAtTime(v, range.start) && x < xAtTime(v, range.end);
  }

  private onPointerDown(e: PointerEvent) {
    if (!this.app) return;
    if (this.drag) {
      // A second finger starts a pinch (TimelineView zooms): the drag the first one began is undone.
      if (e.pointerId !== this.drag.pointerId) return this.cancelDrag();
      // The same pointer pressing again: its release was lost (outside the page); that drag is done.
      this.finishDrag();
    }
    if (e.button !== 0 || !e.isPrimary) return;
    const { x, y } = this.pointerX(e);
    const kind: DragKind = this.handleAt(x, y) ?? (this.onRangeBody(x, y) ? 'range' : 'playhead');
    try {
      this.app.canvas.setPointerCapture(e.pointerId);
    } catch {
      // Synthetic pointers (tests) have no active pointer to capture.
    }
    e.preventDefault();
    this.startDrag(kind, e.pointerId, x, y);
  }

  private onPointerMove(e: PointerEvent) {
    const { x, y } = this.pointerX(e);
    const drag = this.drag;
    if (!drag) return this.hoverAt(x, y);
    if (e.pointerId !== drag.pointerId) return;
    drag.x = x;
    drag.y = y;
    this.followPointer(drag);
    this.updateAutoScroll();
  }

  private onPointerUp(e: PointerEvent) {
    if (!this.drag || e.pointerId !== this.drag.pointerId) return;
    this.finishDrag();
    const { x, y } = this.pointerX(e);
    this.hoverAt(x, y);
  }

  private startDrag(kind: DragKind, pointerId: number, x: number, y: number) {
    const { range, time } = this.state;
    const grabbed = kind === 'range' && range ? { range: this.toFrames(range), time: timeAtX(this.viewport, x) } : null;
    const drag: Drag = { kind, pointerId, x, y, range, time, grabbed, teardown: this.teardown.child() };
    this.drag = drag;
    // Escape cancels the drag. It is heard on window in the capture phase, before a dialog around
    // the timeline (Radix listens on the document's capture phase) would close on it.
    drag.teardown.listen(
      window,
      'keydown',
      (e) => {
        if ((e as KeyboardEvent).key !== 'Escape' || this.drag !== drag) return;
        e.preventDefault();
        this.cancelDrag();
      },
      { capture: true },
    );
    this.setState({ dragging: kind });
    this.setCursor(kind === 'range' ? 'grabbing' : kind === 'playhead' ? 'col-resize' : 'ew-resize');
    this.followPointer(drag);
  }

  /** Ends the drag (no commit): its listeners, pointer capture and auto-scroll go with it. */
  private endDrag(): Drag | null {
    const drag = this.drag;
    if (!drag) return null;
    this.drag = null;
    drag.teardown.dispose();
    this.stopAutoScroll();
    try {
      if (this.app?.canvas.hasPointerCapture(drag.pointerId)) this.app.canvas.releasePointerCapture(drag.pointerId);
    } catch {
      // Nothing was captured.
    }
    this.setState({ dragging: null });
    return drag;
  }

  /** The drag released: a range drag (handle or body) that changed the range commits it, as I/O do. */
  private finishDrag() {
    const drag = this.endDrag();
    if (drag && drag.kind !== 'playhead' && !this.sameRange(drag.range, this.state.range)) this.commitRange();
  }

  /** Escape or a second finger: the drag ends uncommitted, the range and playhead go back to where they were at the press. */
  private cancelDrag() {
    const drag = this.endDrag();
    if (!drag) return;
    if (drag.kind === 'playhead') this.seekTo(drag.time, false);
    else if (!this.sameRange(drag.range, this.state.range)) this.setState({ range: drag.range });
    this.hoverAt(drag.x, drag.y);
  }

  /** Applies the pointer's position to what is dragged (after a move, or when auto-scroll moved the view under it). */
  private followPointer(drag: Drag) {
    switch (drag.kind) {
      case 'start':
      case 'end':
        return this.dragHandleTo(drag.kind, drag.x);
      case 'range':
        return this.moveRangeTo(drag, drag.x);
      case 'playhead':
        return this.seekTo(timeAtX(this.viewport, drag.x), false);
    }
  }

  private hoverAt(x: number, y: number) {
    const handle = this.handleAt(x, y);
    this.setHover(handle);
    this.setCursor(handle ? 'ew-resize' : this.onRangeBody(x, y) ? 'grab' : 'pointer');
  }

  private moveRangeTo(drag: Drag, x: number) {
    if (!drag.grabbed) return;
    const { range, time } = drag.grabbed;
    const next = this.toSeconds(moveRange(range, timeAtX(this.viewport, x) - time, this.duration, this.fps));
    if (!this.sameRange(next, this.state.range)) this.setState({ range: next });
  }

  // Edge auto-scroll: while a drag holds the pointer near or past an edge of a zoomed-in view, each
  // animation frame pans the view and the dragged thing follows the time now under the pointer.
  // The loop runs only then; it stops when the pointer leaves the zone, the view reaches the media's
  // end or the drag ends. Only pointer moves start it, so pressing near an edge does not scroll.
  private updateAutoScroll() {
    const drag = this.drag;
    if (!drag || edgeScrollSpeed(this.viewport, drag.x) === 0) return this.stopAutoScroll();
    if (this.autoScroll) return;
    this.autoScroll = { lastFrameAt: null };
    this.requestFrame();
  }

  private stepAutoScroll(now: number) {
    const scroll = this.autoScroll;
    if (!scroll) return;
    const drag = this.drag;
    if (!drag) {
      this.autoScroll = null;
      return;
    }
    // The first frame has no previous one to measure from: it counts as one 60 Hz frame.
    const dt = scroll.lastFrameAt === null ? 1 / 60 : (now - scroll.lastFrameAt) / 1000;
    scroll.lastFrameAt = now;
    const next = autoScrollBy(this.viewport, drag.x, dt);
    if (next.viewStart !== this.state.viewStart) {
      this.setState({ viewStart: next.viewStart });
      this.followPointer(drag);
    }
    if (edgeScrollSpeed(this.viewport, drag.x) === 0) this.autoScroll = null;
  }

  private stopAutoScroll() {
    if (!this.autoScroll) return;
    this.autoScroll = null;
    // A frame requested only to scroll is not needed any more.
    if (!this.stale && this.cancelFrame) {
      this.cancelFrame();
      this.cancelFrame = null;
    }
  }

  private dragHandleTo(handle: 'start' | 'end', x: number) {
    const range = this.state.range;
    if (!range) return;
    const frame = nearestFrame(timeAtX(this.viewport, x), this.fps, this.duration);
    const current = this.toFrames(range);
    const next =
      handle === 'start' ? dragStart(current, frame, this.minFrames()) : dragEnd(current, frame, this.minFrames(), this.duration, this.fps);
    const seconds = this.toSeconds(next);
    if (!this.sameRange(seconds, range)) this.setState({ range: seconds });
  }

  private setHover(handle: 'start' | 'end' | null) {
    if (this.hoverHandle === handle) return;
    this.hoverHandle = handle;
    this.invalidate();
  }

  private setCursor(cursor: string) {
    if (this.app && this.app.canvas.style.cursor !== cursor) this.app.canvas.style.cursor = cursor;
  }

  // ---------------------------------------------------------------------------------------------
  // Playback

  /** Moves the playhead to the frame boundary nearest `seconds` (clamped to the media) and seeks the video. */
  seek(seconds: number): void {
    this.seekTo(seconds, true);
  }

  private seekTo(seconds: number, revealIt: boolean) {
    if (this.teardown.disposed || !Number.isFinite(seconds)) return;
    const frame = nearestFrame(seconds, this.fps, this.duration);
    // The element is sent to the middle of the frame: a boundary time can round to the frame before
    // (0.12 s is 0.11999… in binary) and decoders differ on which side of a boundary they show.
    const shown = this.pictureFrame(frame);
    const mid = frameTime(shown + 0.5, this.fps);
    const target = (mid < this.duration ? mid : frameTime(shown, this.fps)) + this.videoOffset();
    if (this.video && Math.abs(this.video.currentTime - target) > 1e-6) this.video.currentTime = target;
    this.showFrame(frame, revealIt);
  }

  /**
   * The frame the picture shows at playhead position `frame`: itself, except at the media's end
   * boundary (End), which shows the last frame (at the very end an HLS stream shows none).
   */
  private pictureFrame(frame: number): number {
    return Math.min(frame, Math.max(0, Math.ceil(this.duration * this.fps - 1e-6) - 1));
  }

  private showFrame(frame: number, revealIt: boolean) {
    const time = frameTime(frame, this.fps);
    const patch: Partial<EngineState> = { time, frame };
    if (revealIt) {
      const v = reveal(this.viewport, time, 24);
      patch.viewStart = v.viewStart;
    }
    this.setState(patch);
  }

  /** Steps `n` frames (negative: back), pausing first. */
  stepFrames(n: number): void {
    if (this.teardown.disposed) return;
    this.pause();
    this.seek(frameTime(this.state.frame + Math.trunc(n), this.fps));
  }

  /** Plays forward at normal speed. */
  play(): void {
    this.runShuttle(1);
  }

  /** Pauses (and stops any shuttle). */
  pause(): void {
    this.runShuttle(0);
  }

  /** Play if paused, pause if playing. */
  togglePlay(): void {
    if (this.state.playing) this.pause();
    else this.play();
  }

  private shuttle(direction: -1 | 0 | 1) {
    this.runShuttle(nextShuttle(this.state.shuttle, direction));
  }

  // Forward playback uses the element; reverse (which HTML video cannot do) and playback without
  // an element are emulated by stepping the position on a timer.
  private runShuttle(rate: number) {
    if (this.teardown.disposed) return;
    this.stopEmulation?.();
    this.stopEmulation = null;
    const video = this.video;
    if (rate === 0) {
      video?.pause();
      this.setState({ shuttle: 0, playing: false });
      return;
    }
    if (rate > 0 && video) {
      if (this.state.frame >= lastFrame(this.duration, this.fps)) this.seek(0);
      video.playbackRate = rate;
      this.setState({ shuttle: rate, playing: true });
      video.play().catch(() => {
        if (this.video === video && this.state.shuttle === rate) this.setState({ shuttle: 0, playing: false });
      });
      return;
    }
    video?.pause();
    this.setState({ shuttle: rate, playing: true });
    let last = performance.now();
    let position = this.state.time;
    this.stopEmulation = this.teardown.interval(() => {
      const now = performance.now();
      position += (rate * (now - last)) / 1000;
      last = now;
      const end = frameTime(lastFrame(this.duration, this.fps), this.fps);
      const stop = position <= 0 || position >= end;
      this.seek(Math.min(end, Math.max(0, position)));
      if (stop) this.runShuttle(0);
    }, EMULATED_TICK_MS);
  }

  /** Seconds the attached element's clock runs ahead of the media's (see VIDEO_TIME_OFFSET). */
  private videoOffset(): number {
    const raw = Number(this.video?.dataset?.[VIDEO_TIME_OFFSET.datasetKey] ?? 0);
    return Number.isFinite(raw) ? raw : 0;
  }

  /** Follows `video` (or nothing): the playhead tracks its frames; play/pause/seek/shuttle drive it. */
  attachVideo(video: HTMLVideoElement | null): void {
    if (this.teardown.disposed || video === this.video) return;
    this.stopEmulation?.();
    this.stopEmulation = null;
    this.videoTeardown?.dispose();
    this.videoTeardown = null;
    this.stopVideoFrames = null;
    this.video = video;
    if (!video) {
      this.setState({ playing: false, shuttle: 0 });
      return;
    }
    const td = this.teardown.child();
    this.videoTeardown = td;
    const v = video as VideoFrameCallbackVideo;
    const follow = () => {
      if (this.video !== v || this.state.dragging === 'playhead') return;
      const frame = frameAt(v.currentTime - this.videoOffset(), this.fps, this.duration);
      // The element showing the last frame for the end boundary leaves the playhead at the end.
      if (frame !== this.state.frame && frame === this.pictureFrame(this.state.frame)) return;
      this.showFrame(frame, this.state.playing);
    };
    const startFrames = () => {
      if (this.stopVideoFrames || !v.requestVideoFrameCallback) return;
      let handle = 0;
      const loop = (_now: number, meta: { mediaTime: number }) => {
        if (this.video !== v || td.disposed) return;
        if (this.state.dragging !== 'playhead') this.showFrame(frameAt(meta.mediaTime - this.videoOffset(), this.fps, this.duration), true);
        handle = v.requestVideoFrameCallback!(loop);
      };
      handle = v.requestVideoFrameCallback(loop);
      this.stopVideoFrames = td.add(() => {
        v.cancelVideoFrameCallback?.(handle);
        this.stopVideoFrames = null;
      });
    };
    const stopFrames = () => this.stopVideoFrames?.();
    td.listen(v, 'play', () => {
      startFrames();
      if (!this.stopEmulation) this.setState({ playing: true, shuttle: this.state.shuttle > 0 ? this.state.shuttle : v.playbackRate || 1 });
    });
    td.listen(v, 'pause', () => {
      stopFrames();
      follow();
      // Pausing the element is part of reverse shuttle; only a real pause stops the timeline.
      if (!this.stopEmulation) this.setState({ playing: false, shuttle: 0 });
    });
    td.listen(v, 'ended', () => {
      stopFrames();
      if (!this.stopEmulation) this.setState({ playing: false, shuttle: 0 });
    });
    td.listen(v, 'seeked', follow);
    td.listen(v, VIDEO_TIME_OFFSET.event, follow);
    td.listen(v, 'timeupdate', follow);
    td.add(() => {
      if (this.video === v) this.video = null;
    });
    if (!v.paused) {
      startFrames();
      this.setState({ playing: true, shuttle: v.playbackRate || 1 });
    } else this.setState({ playing: false, shuttle: 0 });
    follow();
  }

  // ---------------------------------------------------------------------------------------------
  // Keyboard

  /** Runs the shortcut for a key event; true (and preventDefault) when it was one. */
  handleKey(event: KeyboardEvent): boolean {
    if (this.teardown.disposed || event.defaultPrevented) return false;
    const command = keyCommand(event);
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
        return this.seek(command.to === 'start' ? 0 : this.duration);
      case 'togglePlay':
        return this.togglePlay();
      case 'stepFrames':
        return this.stepFrames(command.frames);
      case 'shuttle':
        return this.shuttle(command.direction);
      case 'markIn':
      case 'markOut': {
        const current = this.state.range ? this.toFrames(this.state.range) : null;
        const mark = command.type === 'markIn' ? markIn : markOut;
        const next = this.toSeconds(mark(current, this.state.frame, this.minFrames(), this.duration, this.fps));
        if (!this.sameRange(next, this.state.range)) this.setState({ range: next });
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
      renders: this.renders,
      thumbnails: this.thumbs ? { ...this.thumbs.stats } : null,
      rulerLabels: this.ruler?.visibleLabels ?? 0,
      teardownSize: this.teardown.size,
    };
  }

  /** True once destroy() ran. */
  get destroyed(): boolean {
    return this.teardown.disposed;
  }

  /** Removes the canvas and frees everything: Pixi app and textures, listeners, timers, frames, observer, thumbnail requests, video. */
  destroy(): void {
    if (this.teardown.disposed) return;
    this.teardown.dispose();
    this.listeners.clear();
    this.drag = null;
    this.autoScroll = null;
    this.video = null;
    this.videoTeardown = null;
    this.stopVideoFrames = null;
    this.stopEmulation = null;
    this.cancelFrame = null;
    this.ruler = null;
    this.thumbs = null;
    this.rangeLayer = null;
    this.playhead = null;
  }
}
