import { ARROW_SEEK_SECONDS, TIMELINE, type ClipFraming } from '../../contract';
import {
  dragEnd,
  dragStart,
  effectiveFrameRate,
  keyCommand,
  markMinFrames,
  minRangeFrames,
  nextShuttle,
  type FrameRange,
} from '../kernels';
import { PlayheadLayer } from '../render/PlayheadLayer';
import { RangeLayer } from '../render/RangeLayer';
import type { RendererPreference } from '../render/pixiApp';
import type { RenderView } from '../render/RenderView';
import { RulerLayer } from '../render/RulerLayer';
import { COLORS, HANDLE_SLOP, HANDLE_WIDTH } from '../render/theme';
import { ClipBlocksLayer } from './ClipBlocksLayer';
import { OnDemandEngine } from '../core/OnDemandEngine';
import { focusedByKeyboard, watchFocusOrigin } from '../core/focusOrigin';
import { History, historyKey } from './history';
import {
  clipFrames,
  clipStarts,
  duplicate,
  editClip,
  frameDurationAt,
  locate,
  markOnCurrent,
  preloadTime,
  remove,
  reorder,
  sequenceDuration,
  snapSequenceTime,
  trim,
  type SequenceClip,
  type SequenceState,
} from './sequenceModel';

/** What the sequence editor shows and what React reads (selected, through app/timeline/useEngineValue's useSequenceValue). */
export interface SequenceEngineState extends SequenceState {
  duration: number;
  /** The clip under the playhead (its handles are shown), or -1. */
  current: number;
  playing: boolean;
  /** Signed J/K/L rate: 0 stopped, 1 normal, -2 double-speed reverse. */
  shuttle: number;
  canUndo: boolean;
  canRedo: boolean;
  /** What the pointer is dragging. */
  dragging: 'start' | 'end' | 'clip' | 'playhead' | null;
  /** While a clip is dragged: the position it would drop at. */
  dropIndex: number | null;
  viewWidth: number;
}

export interface SequenceEngineOptions {
  container: HTMLElement;
  clips: readonly SequenceClip[];
  /** Where keyboard shortcuts are heard; window by default. */
  keyTarget?: EventTarget;
  /** Which Pixi renderer draws; 'auto' (default) picks canvas where WebGL runs in software. */
  renderer?: RendererPreference;
  /** A picture for a clip's block (its first frame); the engine uploads it and never keeps the bitmap. */
  thumbnail?(clip: SequenceClip, signal: AbortSignal): Promise<ImageBitmap | HTMLImageElement>;
  /** The user moved the playhead (click, drag, keys, an edit that moved it): the player should seek. */
  onSeek?(time: number): void;
  /** Space, J/K/L: the player should play at `rate` (0 pauses). */
  onShuttle?(rate: number): void;
  /** Playing reached `preloadTime` of clip `index`: load and position clip `index + 1` now. */
  onPreload?(nextIndex: number): void;
  /** Called after each drawn frame, with the time spent (benchmark and tests). */
  onFrame?(ms: number): void;
  /** New ids for duplicates (tests pass a counter). */
  newId?(): string;
}

const ROWS_HEIGHT = TIMELINE.rulerHeight + TIMELINE.thumbnailRowHeight;
const DRAG_THRESHOLD_PX = 5;

type Drag =
  | { kind: 'start' | 'end'; index: number; downX: number; base: FrameRange; before: SequenceState }
  | { kind: 'clip'; index: number; downX: number; moved: boolean; before: SequenceState }
  | { kind: 'playhead' };

/**
 * The clip editor's sequence mode (spec section 4): clips as blocks on one timeline with their
 * thumbnails, drag to reorder, per-clip trim handles on the clip under the playhead (the moment
 * timeline's 36 px / 0.1 s limits and frame snapping), duplicate, remove, undo and redo, and one
 * playhead across the sequence. Framework-free; renders on demand like TimelineEngine. It does not
 * own the players: the app reports playback time with `setPlaybackTime` and hears `onPreload` 2 s
 * before each clip ends.
 */
export class SequenceEngine extends OnDemandEngine<SequenceEngineState> {
  private readonly history = new History<SequenceState>();
  private ruler: RulerLayer | null = null;
  private rangeLayer: RangeLayer | null = null;
  private playhead: PlayheadLayer | null = null;
  private blocks: ClipBlocksLayer | null = null;
  /** While a handle is dragged the scale stays as it was at the press, so the handle follows the pointer. */
  private frozenDuration: number | null = null;
  private drag: Drag | null = null;
  private hover: 'start' | 'end' | null = null;
  /** The clip whose preload already fired for this pass (reset on seeks and edits). */
  private preloaded = -1;
  private idCounter = 0;

  private constructor(private readonly options: SequenceEngineOptions) {
    const clips = [...options.clips];
    super({
      clips,
      currentTime: 0,
      duration: sequenceDuration(clips),
      current: clips.length ? 0 : -1,
      playing: false,
      shuttle: 0,
      canUndo: false,
      canRedo: false,
      dragging: null,
      dropIndex: null,
      viewWidth: Math.max(1, Math.round(options.container.clientWidth)),
    });
  }

  /** Frames drawn (tests). */
  get renders(): number {
    return this.drawn;
  }

  /** Creates the editor and its canvas inside `options.container`. */
  static async create(options: SequenceEngineOptions): Promise<SequenceEngine> {
    const engine = new SequenceEngine(options);
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
      testId: 'sequence-canvas',
      width: this.state.viewWidth,
      height: ROWS_HEIGHT,
      background: COLORS.background,
      renderer: this.options.renderer,
      beforeDestroy: () => this.blocks?.destroy(),
    });
    const app = this.app;
    if (!canvas || !app) return;
    this.ruler = new RulerLayer();
    this.rangeLayer = new RangeLayer();
    this.playhead = new PlayheadLayer();
    this.blocks = new ClipBlocksLayer(
      this.options.thumbnail ?? null,
      () => this.invalidate(),
      () => this.teardown.abortController().signal,
      app.renderer.resolution,
    );
    app.stage.addChild(this.blocks.container, this.ruler.container, this.rangeLayer.container, this.playhead.graphics);

    const td = this.teardown;
    td.listen(canvas, 'pointerdown', (e) => this.onPointerDown(e as PointerEvent));
    td.listen(canvas, 'pointermove', (e) => this.onPointerMove(e as PointerEvent));
    td.listen(canvas, 'pointerup', (e) => this.onPointerUp(e as PointerEvent, false));
    td.listen(canvas, 'pointercancel', (e) => this.onPointerUp(e as PointerEvent, true));
    td.listen(this.options.keyTarget ?? window, 'keydown', (e) => void this.handleKey(e as KeyboardEvent));
    // Space presses a control only when the keyboard brought focus to it (kernels/keyboard).
    td.add(watchFocusOrigin());
    this.resize();
    this.invalidate();
  }

  // ---------------------------------------------------------------------------------------------
  // State

  private set(patch: Partial<SequenceEngineState>) {
    const next = { ...this.state, ...patch };
    if (patch.clips) next.duration = sequenceDuration(next.clips);
    next.current = locate(next.clips, next.currentTime)?.index ?? -1;
    next.canUndo = this.history.canUndo;
    next.canRedo = this.history.canRedo;
    this.publish(next);
  }

  /** An edit: recorded for undo, applied, and the player told where the playhead went. */
  private commit(next: SequenceState, before: SequenceState = this.snapshot()) {
    if (next.clips === before.clips && next.currentTime === before.currentTime) return;
    this.history.push(before);
    this.apply(next);
  }

  private apply(next: SequenceState) {
    this.preloaded = -1;
    this.set({ clips: next.clips, currentTime: next.currentTime });
    // Even when the time is unchanged the clip under it may be another one: the player re-seeks.
    this.options.onSeek?.(this.state.currentTime);
  }

  private snapshot(): SequenceState {
    return { clips: this.state.clips, currentTime: this.state.currentTime };
  }

  private get pps(): number {
    const d = this.frozenDuration ?? this.state.duration;
    return d > 0 ? this.state.viewWidth / d : 1;
  }

  // ---------------------------------------------------------------------------------------------
  // Commands (public: the app's buttons and the accessible list call these)

  /** Moves clip `from` to position `to` (undoable). */
  reorder(from: number, to: number) {
    this.commit(reorder(this.snapshot(), from, to));
  }

  /** Inserts a copy of clip `index` after it (undoable). */
  duplicate(index: number) {
    this.commit(duplicate(this.snapshot(), index, this.options.newId?.() ?? `dup-${Date.now()}-${++this.idCounter}`));
  }

  /** Removes clip `index`; the playhead goes to the next clip, or the previous at the end (undoable). */
  remove(index: number) {
    this.commit(remove(this.snapshot(), index));
  }

  /** Sets clip `index` to the media range [start, end) seconds, snapped and limited like a handle drag (undoable). */
  trimTo(index: number, startTime: number, endTime: number) {
    const clip = this.state.clips[index];
    if (!clip) return;
    const fps = effectiveFrameRate(clip.frameRate);
    const range = { start: Math.round(startTime * fps), end: Math.round(endTime * fps) };
    this.commit(trim(this.snapshot(), index, range, this.minFrames(clip)));
  }

  /**
   * Sets clip `index` to the media range [start, end) seconds (as trimTo) and its crop window to
   * `framing` (none: it follows the subject), one undoable edit.
   */
  editClip(index: number, startTime: number, endTime: number, framing: ClipFraming | undefined) {
    const clip = this.state.clips[index];
    if (!clip) return;
    const fps = effectiveFrameRate(clip.frameRate);
    const range = { start: Math.round(startTime * fps), end: Math.round(endTime * fps) };
    this.commit(editClip(this.snapshot(), index, range, this.minFrames(clip), framing));
  }

  /** Undoes the last edit. */
  undo() {
    const prev = this.history.undo(this.snapshot());
    if (prev) this.apply(prev);
  }

  /** Redoes the last undone edit. */
  redo() {
    const next = this.history.redo(this.snapshot());
    if (next) this.apply(next);
  }

  /** Moves the playhead (snapped to a frame of the clip there) and tells the player. */
  seek(time: number) {
    const t = snapSequenceTime(this.state.clips, time);
    this.preloaded = -1;
    this.set({ currentTime: t });
    this.options.onSeek?.(t);
  }

  /**
   * The player's clock: where playback is now (sequence seconds). Moves the playhead without a seek
   * back, and fires `onPreload(index + 1)` once when it passes 2 s before the end of clip `index`.
   */
  setPlaybackTime(time: number) {
    const clips = this.state.clips;
    const t = Math.max(0, Math.min(this.state.duration, time));
    const at = locate(clips, t);
    if (at && at.index < clips.length - 1 && this.preloaded !== at.index && t >= preloadTime(clips, at.index) - 1e-6) {
      this.preloaded = at.index;
      this.options.onPreload?.(at.index + 1);
    }
    if (t !== this.state.currentTime) this.set({ currentTime: t });
  }

  /** Whether the player is playing (the app reports it; J/K/L and space ask through onShuttle). */
  setPlaying(playing: boolean) {
    this.set({ playing, shuttle: playing ? this.state.shuttle || 1 : 0 });
  }

  private minFrames(clip: SequenceClip): number {
    return minRangeFrames(this.pps, effectiveFrameRate(clip.frameRate));
  }

  // ---------------------------------------------------------------------------------------------
  // Keys: the moment dialog's map (kernels/keyboard) on the sequence, plus undo and redo

  /** Handles a key the way the editor does; true when it was used. */
  handleKey(e: KeyboardEvent): boolean {
    if (this.teardown.disposed || e.defaultPrevented) return false;
    const h = historyKey(e);
    if (h) {
      const typing = e.target instanceof HTMLElement && e.target.closest('input, textarea, [contenteditable="true"]');
      if (typing) return false;
      e.preventDefault();
      if (h === 'undo') this.undo();
      else this.redo();
      return true;
    }
    const cmd = keyCommand(e, focusedByKeyboard(e.target));
    if (!cmd || !this.state.clips.length) return false;
    e.preventDefault();
    const s = this.state;
    switch (cmd.type) {
      case 'seekBy': {
        let t = s.currentTime + cmd.seconds;
        // Section 5: the arrow seek snaps to 0 when it lands under 5 s.
        if (Math.abs(cmd.seconds) === ARROW_SEEK_SECONDS && t < ARROW_SEEK_SECONDS) t = 0;
        this.seek(t);
        break;
      }
      case 'seekTo':
        this.seek(cmd.to === 'start' ? 0 : s.duration - frameDurationAt(s.clips, s.duration - 1e-6));
        break;
      case 'togglePlay':
        this.options.onShuttle?.(s.playing ? 0 : 1);
        break;
      case 'stepFrames':
        this.options.onShuttle?.(0);
        this.seek(s.currentTime + cmd.frames * frameDurationAt(s.clips, s.currentTime));
        break;
      case 'shuttle': {
        const rate = nextShuttle(s.shuttle, cmd.direction);
        this.set({ shuttle: rate });
        this.options.onShuttle?.(rate);
        break;
      }
      case 'markIn':
      case 'markOut': {
        const at = locate(s.clips, s.currentTime)!;
        const fps = effectiveFrameRate(s.clips[at.index]!.frameRate);
        // A mark keeps the frame it was pressed at: only the 0.1 s minimum, not the handles' 36 px.
        this.commit(markOnCurrent(this.snapshot(), cmd.type === 'markIn' ? 'in' : 'out', markMinFrames(fps)));
        break;
      }
      default: {
        const never: never = cmd;
        return never;
      }
    }
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // Pointer

  private xOf(e: PointerEvent): number {
    const rect = this.app!.canvas.getBoundingClientRect();
    return e.clientX - rect.left;
  }

  private handleAt(x: number): 'start' | 'end' | null {
    const s = this.state;
    if (s.current < 0) return null;
    const starts = clipStarts(s.clips);
    const xs = starts[s.current]! * this.pps;
    const xe = starts[s.current + 1]! * this.pps;
    if (x >= xe - HANDLE_SLOP && x <= xe + HANDLE_WIDTH + HANDLE_SLOP) return 'end';
    if (x >= xs - HANDLE_WIDTH - HANDLE_SLOP && x <= xs + HANDLE_SLOP) return 'start';
    return null;
  }

  private onPointerDown(e: PointerEvent) {
    if (!this.app || e.button > 0) return;
    const x = this.xOf(e);
    const y = e.clientY - this.app.canvas.getBoundingClientRect().top;
    this.app.canvas.setPointerCapture?.(e.pointerId);
    const handle = this.handleAt(x);
    if (handle) {
      const index = this.state.current;
      this.drag = { kind: handle, index, downX: x, base: clipFrames(this.state.clips[index]!), before: this.snapshot() };
      this.frozenDuration = Math.max(this.state.duration, 1e-3);
      this.set({ dragging: handle });
      return;
    }
    if (y >= TIMELINE.rulerHeight) {
      const at = locate(this.state.clips, x / this.pps);
      if (at) {
        this.drag = { kind: 'clip', index: at.index, downX: x, moved: false, before: this.snapshot() };
        this.set({ dragging: 'clip' });
        this.seek(x / this.pps);
        return;
      }
    }
    this.drag = { kind: 'playhead' };
    this.set({ dragging: 'playhead' });
    this.seek(x / this.pps);
  }

  private dropIndexAt(x: number): number {
    const starts = clipStarts(this.state.clips);
    const t = x / this.pps;
    let i = 0;
    while (i < this.state.clips.length && t > (starts[i]! + starts[i + 1]!) / 2) i++;
    return i;
  }

  private onPointerMove(e: PointerEvent) {
    if (!this.app) return;
    const x = this.xOf(e);
    const d = this.drag;
    if (!d) {
      const hover = this.handleAt(x);
      if (hover !== this.hover) {
        this.hover = hover;
        this.app.canvas.style.cursor = hover ? 'ew-resize' : '';
        this.invalidate();
      }
      return;
    }
    if (d.kind === 'playhead') this.seek(x / this.pps);
    else if (d.kind === 'clip') {
      if (!d.moved && Math.abs(x - d.downX) < DRAG_THRESHOLD_PX) return;
      d.moved = true;
      this.set({ dropIndex: this.dropIndexAt(x) });
    } else {
      const clip = d.before.clips[d.index]!;
      const fps = effectiveFrameRate(clip.frameRate);
      const deltaFrames = Math.round(((x - d.downX) / this.pps) * fps);
      const min = this.minFrames(clip);
      const range =
        d.kind === 'start'
          ? dragStart(d.base, d.base.start + deltaFrames, min)
          : dragEnd(d.base, d.base.end + deltaFrames, min, clip.mediaDuration, fps);
      const next = trim(d.before, d.index, range, min);
      this.set({ clips: next.clips, currentTime: next.currentTime });
    }
  }

  private onPointerUp(e: PointerEvent, cancelled: boolean) {
    const d = this.drag;
    this.drag = null;
    if (this.app?.canvas.hasPointerCapture?.(e.pointerId)) this.app.canvas.releasePointerCapture(e.pointerId);
    if (!d) return;
    if (d.kind === 'clip') {
      const drop = this.state.dropIndex;
      this.set({ dragging: null, dropIndex: null });
      if (!cancelled && d.moved && drop !== null) this.reorder(d.index, drop > d.index ? drop - 1 : drop);
    } else if (d.kind === 'start' || d.kind === 'end') {
      const edited = this.snapshot();
      this.frozenDuration = null;
      this.set({ dragging: null });
      if (cancelled) this.apply(d.before);
      else this.commit(edited, d.before);
    } else this.set({ dragging: null });
  }

  // ---------------------------------------------------------------------------------------------
  // Drawing on demand

  protected resize() {
    const width = Math.max(1, Math.round(this.options.container.clientWidth));
    if (this.app && width !== this.state.viewWidth) {
      this.app.renderer.resize(width, ROWS_HEIGHT);
      this.set({ viewWidth: width });
    }
  }

  private view(): RenderView {
    const s = this.state;
    const starts = clipStarts(s.clips);
    return {
      width: s.viewWidth,
      rulerHeight: TIMELINE.rulerHeight,
      rowHeight: TIMELINE.thumbnailRowHeight,
      duration: Math.max(this.frozenDuration ?? s.duration, 1e-3),
      fps: effectiveFrameRate(s.clips[Math.max(0, s.current)]?.frameRate ?? 0),
      viewStart: 0,
      pxPerSecond: this.pps,
      time: s.currentTime,
      range: s.current >= 0 ? { start: starts[s.current]!, end: starts[s.current + 1]! } : null,
      activeHandle: s.dragging === 'start' || s.dragging === 'end' ? s.dragging : this.hover,
    };
  }

  protected draw() {
    const app = this.app;
    if (!app || !this.ruler || !this.rangeLayer || !this.playhead) return;
    const t0 = performance.now();
    const v = this.view();
    this.blocks?.update(v, this.state.clips, this.state.dropIndex);
    this.ruler.update(v);
    this.rangeLayer.update(v);
    this.playhead.update(v);
    app.render();
    this.options.onFrame?.(performance.now() - t0);
  }

  /** Internals the TestTimeline helper and the benchmark observe. Not for app code. */
  get debug() {
    return {
      app: this.app,
      canvas: this.app?.canvas ?? null,
      /** 'webgl' or 'canvas': the Pixi renderer that draws. */
      renderer: this.app?.renderer.name ?? null,
      renders: this.renders,
      teardownSize: this.teardown.size,
      pictures: this.blocks?.pictureCount ?? 0,
    };
  }
}
