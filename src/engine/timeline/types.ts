import type { Application } from 'pixi.js';
import type { Viewport } from '../kernels';
import type { Teardown } from '../Teardown';
import type { RendererPreference } from '../render/pixiApp';
import type { ThumbnailStats } from '../render/ThumbnailLayer';
import type { ThumbnailSource } from '../thumbnailSource';

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
  /** A 1-pixel read after the draw, i.e. waiting for the drawing to be done (GPU or 2D canvas); only with `syncGpu`. */
  gpuSyncMs: number | null;
  /** A second read right after: the bare round trip, with no drawing left to wait for. */
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
  /** Which Pixi renderer draws; 'auto' (default) picks canvas where WebGL runs in software. */
  renderer?: RendererPreference;
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

/** What the timeline's parts (pointer input, video playback) share with the engine that owns them. */
export interface TimelineHost {
  /** Effective frame rate (30 when the media's is unknown). */
  readonly fps: number;
  /** Seconds. */
  readonly duration: number;
  /** The engine's teardown: the parts register what they create with it. */
  readonly teardown: Teardown;
  state(): EngineState;
  viewport(): Viewport;
  /** Applies a state change (nothing happens when no field changes). */
  patch(patch: Partial<EngineState>): void;
}

/** The state before anything happened: playhead at 0, paused, the whole media in view, no range. */
export function initialEngineState(fps: number, duration: number, viewWidth: number, zoom: number): EngineState {
  return {
    time: 0,
    frame: 0,
    duration,
    frameRate: fps,
    playing: false,
    shuttle: 0,
    zoom,
    viewStart: 0,
    viewWidth,
    range: null,
    dragging: null,
  };
}
