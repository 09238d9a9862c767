/**
 * Drives a real TimelineEngine in a browser page the way a user would: pointer events on the
 * canvas, keys on the key target, wheel steps through the same wheel kernel the app uses. It also
 * watches what the engine leaves behind: listeners on window, document, the container and the key
 * target; timeouts, intervals and animation frames; ResizeObservers; video-frame callbacks.
 * Framework-free; the engine test page puts it on window.
 */
import { TIMELINE } from '../../../src/contract';
import { wheelIntent } from '../../../src/engine/kernels';
import type { RendererPreference } from '../../../src/engine/render/pixiApp';
import type { ThumbnailSource } from '../../../src/engine/thumbnailSource';
import { TimelineEngine, type FrameStats, type MomentRange, type TimelineMedia } from '../../../src/engine/TimelineEngine';
import { FakeVideo } from './FakeVideo';

type Key = string;

/** Counts listeners added and not removed on one EventTarget. */
export class ListenerWatch {
  private readonly live = new Map<Key, number>();
  private readonly restore: () => void;

  constructor(target: EventTarget) {
    // Instance properties shadow the prototype's methods for this one target only.
    const add = target.addEventListener.bind(target);
    const remove = target.removeEventListener.bind(target);
    const keyOf = (type: string, fn: unknown, options?: boolean | EventListenerOptions) =>
      `${type}|${typeof options === 'boolean' ? options : !!options?.capture}|${this.idOf(fn)}`;
    const t = target as EventTarget & Record<string, unknown>;
    t.addEventListener = (type: string, fn: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) => {
      const key = keyOf(type, fn, options);
      if (fn && !this.live.has(key)) this.live.set(key, 1);
      add(type, fn, options);
    };
    t.removeEventListener = (type: string, fn: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions) => {
      this.live.delete(keyOf(type, fn, options));
      remove(type, fn, options);
    };
    this.restore = () => {
      Reflect.deleteProperty(t, 'addEventListener');
      Reflect.deleteProperty(t, 'removeEventListener');
    };
  }

  private readonly ids = new WeakMap<object, number>();
  private nextId = 1;
  private idOf(fn: unknown): number {
    if (!fn || (typeof fn !== 'object' && typeof fn !== 'function')) return 0;
    let id = this.ids.get(fn);
    if (!id) this.ids.set(fn, (id = this.nextId++));
    return id;
  }

  /** Listeners added since watching began and still attached, by type. */
  get types(): string[] {
    return [...this.live.keys()].map((k) => k.split('|')[0]!);
  }

  get count(): number {
    return this.live.size;
  }

  stop() {
    this.restore();
  }
}

type Scheduler = (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => number;
type Canceller = (id?: number) => void;

/** Counts timeouts, intervals and animation frames scheduled and still pending. */
export class TimerWatch {
  readonly timeouts = new Set<number>();
  readonly intervals = new Set<number>();
  readonly frames = new Set<number>();
  private readonly w = window as unknown as Record<string, unknown>;
  private readonly originals = {
    setTimeout: this.w.setTimeout as Scheduler,
    clearTimeout: this.w.clearTimeout as Canceller,
    setInterval: this.w.setInterval as Scheduler,
    clearInterval: this.w.clearInterval as Canceller,
    requestAnimationFrame: this.w.requestAnimationFrame as (fn: FrameRequestCallback) => number,
    cancelAnimationFrame: this.w.cancelAnimationFrame as Canceller,
  };

  constructor() {
    const o = this.originals;
    const w = this.w;
    w.setTimeout = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      const id = o.setTimeout.call(
        window,
        (...a: unknown[]) => {
          this.timeouts.delete(id);
          if (typeof fn === 'function') fn(...a);
        },
        ms,
        ...args,
      );
      this.timeouts.add(id);
      return id;
    };
    w.clearTimeout = (id?: number) => {
      if (id !== undefined) this.timeouts.delete(id);
      o.clearTimeout.call(window, id);
    };
    w.setInterval = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      const id = o.setInterval.call(window, fn, ms, ...args);
      this.intervals.add(id);
      return id;
    };
    w.clearInterval = (id?: number) => {
      if (id !== undefined) this.intervals.delete(id);
      o.clearInterval.call(window, id);
    };
    w.requestAnimationFrame = (fn: FrameRequestCallback) => {
      const id = o.requestAnimationFrame.call(window, (now) => {
        this.frames.delete(id);
        fn(now);
      });
      this.frames.add(id);
      return id;
    };
    w.cancelAnimationFrame = (id: number) => {
      this.frames.delete(id);
      o.cancelAnimationFrame.call(window, id);
    };
  }

  stop() {
    Object.assign(this.w, this.originals);
  }
}

/** Counts ResizeObservers observing something. */
export class ObserverWatch {
  active = 0;
  private readonly original = window.ResizeObserver;

  constructor() {
    const Original = this.original;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const watch = this;
    window.ResizeObserver = class extends Original {
      private observing = 0;
      observe(target: Element, options?: ResizeObserverOptions) {
        if (this.observing++ === 0) watch.active++;
        super.observe(target, options);
      }
      disconnect() {
        if (this.observing > 0) watch.active--;
        this.observing = 0;
        super.disconnect();
      }
    };
  }

  stop() {
    window.ResizeObserver = this.original;
  }
}

/** A touch pointer (the mouse when omitted): its id, and whether it is the first finger down. */
export interface Finger {
  id: number;
  primary?: boolean;
}

export interface TestTimelineOptions {
  width?: number;
  media?: Partial<TimelineMedia>;
  range?: MomentRange | null;
  thumbnails?: ThumbnailSource | null;
  /** 'fake' (default): a FakeVideo; a real element; or null for none. */
  video?: 'fake' | HTMLVideoElement | null;
  /** Where keys are heard; window by default. */
  keyTarget?: EventTarget;
  syncGpu?: boolean;
  /** The engine's renderer ('auto' by default, canvas on a software-GL machine such as CI's). */
  renderer?: RendererPreference;
}

export interface LeftBehind {
  canvasesInDom: number;
  listeners: { window: string[]; document: string[]; container: string[]; keyTarget: string[] };
  timeouts: number;
  intervals: number;
  animationFrames: number;
  resizeObservers: number;
  videoFrameCallbacks: number;
  pixiAppDestroyed: boolean;
  contextLost: boolean;
  thumbnailsInFlight: number | null;
  teardownSize: number;
}

/** A container of a given size with an engine in it, plus pointer/key/wheel drivers and leak counters. */
export class TestTimeline {
  readonly commits: MomentRange[] = [];
  readonly thumbnailErrors: string[] = [];
  readonly frames: FrameStats[] = [];
  private readonly watches: { window: ListenerWatch; document: ListenerWatch; container: ListenerWatch; keyTarget: ListenerWatch | null };
  private readonly timers: TimerWatch;
  private readonly observers: ObserverWatch;
  private gl: WebGLRenderingContext | WebGL2RenderingContext | null = null;
  engine!: TimelineEngine;
  readonly fakeVideo: FakeVideo | null;
  private pointerId = 1;

  private constructor(
    readonly container: HTMLElement,
    readonly options: TestTimelineOptions,
  ) {
    // Watching starts before the engine exists, so everything it adds is seen.
    this.timers = new TimerWatch();
    this.observers = new ObserverWatch();
    const keyTarget = options.keyTarget ?? window;
    this.watches = {
      window: new ListenerWatch(window),
      document: new ListenerWatch(document),
      container: new ListenerWatch(container),
      keyTarget: keyTarget === window ? null : new ListenerWatch(keyTarget),
    };
    const duration = options.media?.duration ?? 60;
    this.fakeVideo = options.video === undefined || options.video === 'fake' ? new FakeVideo(duration) : null;
  }

  /** Mounts a container `width` px wide at the top of the page and creates the engine in it. */
  static async create(options: TestTimelineOptions = {}): Promise<TestTimeline> {
    const container = document.createElement('div');
    container.style.cssText = `width:${options.width ?? 1000}px;position:absolute;left:20px;top:20px;`;
    container.dataset.testid = 'timeline-canvas';
    document.body.appendChild(container);
    const t = new TestTimeline(container, options);
    const media: TimelineMedia = { duration: 60, frameRate: 30, width: 1280, height: 720, ...options.media };
    t.engine = await TimelineEngine.create({
      container,
      media,
      range: options.range ?? null,
      thumbnails: options.thumbnails ?? null,
      keyTarget: options.keyTarget,
      syncGpu: options.syncGpu,
      renderer: options.renderer,
      onRangeCommit: (r) => t.commits.push(r),
      onThumbnailError: (m) => t.thumbnailErrors.push(m),
      onFrame: (s) => t.frames.push(s),
    });
    const canvas = t.canvas;
    t.gl = canvas?.getContext('webgl2') ?? canvas?.getContext('webgl') ?? null;
    const video = t.fakeVideo ? t.fakeVideo.asElement() : options.video instanceof HTMLVideoElement ? options.video : null;
    t.engine.attachVideo(video);
    await t.settle();
    return t;
  }

  get canvas(): HTMLCanvasElement | null {
    return this.container.querySelector('canvas');
  }

  get state() {
    return this.engine.getState();
  }

  get renders(): number {
    return this.engine.debug.renders;
  }

  /** Waits until the engine has drawn what is pending (two animation frames). */
  async settle(): Promise<void> {
    for (let i = 0; i < 2; i++) await new Promise<void>((r) => requestAnimationFrame(() => r()));
  }

  // -------------------------------------------------------------------------------------------
  // Geometry

  private get rect(): DOMRect {
    return (this.canvas ?? this.container).getBoundingClientRect();
  }

  /** Client x of a media time in the current view. */
  clientXAt(seconds: number): number {
    const s = this.state;
    const pps = (s.viewWidth * s.zoom) / (TIMELINE.minZoom * s.duration);
    return this.rect.left + (seconds - s.viewStart) * pps;
  }

  /** Media time under a client x in the current view. */
  timeAtClientX(clientX: number): number {
    const s = this.state;
    const pps = (s.viewWidth * s.zoom) / (TIMELINE.minZoom * s.duration);
    return s.viewStart + (clientX - this.rect.left) / pps;
  }

  /** Client x of a px offset from the timeline's left edge. */
  clientX(x: number): number {
    return this.rect.left + x;
  }

  /** Client y in the middle of a row. */
  clientY(row: 'ruler' | 'thumbnails' = 'thumbnails'): number {
    return this.rect.top + (row === 'ruler' ? TIMELINE.rulerHeight / 2 : TIMELINE.rulerHeight + TIMELINE.thumbnailRowHeight / 2);
  }

  // -------------------------------------------------------------------------------------------
  // Drivers

  private pointer(type: string, clientX: number, clientY: number, finger?: Finger) {
    const canvas = this.canvas;
    if (!canvas) return;
    canvas.dispatchEvent(
      new PointerEvent(type, {
        clientX,
        clientY,
        button: 0,
        buttons: type === 'pointerup' ? 0 : 1,
        pointerId: finger?.id ?? this.pointerId,
        pointerType: finger ? 'touch' : 'mouse',
        isPrimary: finger ? finger.primary === true : true,
        bubbles: true,
        cancelable: true,
      }),
    );
  }

  /** Presses at a client x (or `{ time }`), in a row; with the mouse unless a finger is given. */
  pointerDown(at: number | { time: number }, row: 'ruler' | 'thumbnails' = 'thumbnails', finger?: Finger) {
    this.pointer('pointerdown', typeof at === 'number' ? at : this.clientXAt(at.time), this.clientY(row), finger);
  }

  pointerMove(at: number | { time: number }, row: 'ruler' | 'thumbnails' = 'thumbnails', finger?: Finger) {
    this.pointer('pointermove', typeof at === 'number' ? at : this.clientXAt(at.time), this.clientY(row), finger);
  }

  pointerUp(at: number | { time: number }, row: 'ruler' | 'thumbnails' = 'thumbnails', finger?: Finger) {
    this.pointer('pointerup', typeof at === 'number' ? at : this.clientXAt(at.time), this.clientY(row), finger);
  }

  /** Grabs a handle where it is drawn and drags it to client x `toX` in a few moves, then releases. */
  drag(handle: 'start' | 'end', toX: number) {
    const range = this.state.range;
    if (!range) throw new Error('no range to drag');
    const from = this.clientXAt(handle === 'start' ? range.start : range.end) + (handle === 'start' ? -5 : 5);
    this.pointerDown(from);
    for (let i = 1; i <= 4; i++) this.pointerMove(from + ((toX - from) * i) / 4);
    this.pointerUp(toX);
  }

  /** Grabs the range body at media time `at` (thumbnail row) and drags it to client x `toX` in a few moves, then releases. */
  dragBody(at: number, toX: number) {
    const from = this.clientXAt(at);
    this.pointerDown(from);
    for (let i = 1; i <= 4; i++) this.pointerMove(from + ((toX - from) * i) / 4);
    this.pointerUp(toX);
  }

  /** The canvas's CSS cursor. */
  get cursor(): string {
    return this.canvas?.style.cursor ?? '';
  }

  /** Waits for `n` animation frames. */
  async nextFrames(n = 1): Promise<void> {
    for (let i = 0; i < n; i++) await new Promise<void>((r) => requestAnimationFrame(() => r()));
  }

  /** Presses a key on `target` (default: the document body, so it bubbles to window); true if the engine handled it. */
  key(key: string, opts: { shift?: boolean; target?: EventTarget; repeat?: boolean } = {}): boolean {
    const event = new KeyboardEvent('keydown', { key, shiftKey: !!opts.shift, repeat: !!opts.repeat, bubbles: true, cancelable: true });
    (opts.target ?? this.options.keyTarget ?? document.body).dispatchEvent(event);
    return event.defaultPrevented;
  }

  /** One wheel step at a client x, mapped as the app maps it (ctrl zooms, as a pinch does; otherwise it pans). */
  wheel(deltaY: number, clientX: number, opts: { ctrlKey?: boolean; shiftKey?: boolean; deltaX?: number; deltaMode?: number } = {}) {
    const intent = wheelIntent(
      { deltaX: opts.deltaX ?? 0, deltaY, deltaMode: opts.deltaMode, ctrlKey: opts.ctrlKey, shiftKey: opts.shiftKey },
      this.state.viewWidth,
    );
    if (intent?.type === 'zoom') this.engine.zoomBy(intent.factor, clientX);
    else if (intent?.type === 'pan') this.engine.panBy(intent.px);
  }

  // -------------------------------------------------------------------------------------------
  // Observation

  /** Waits until no thumbnail is being asked for or awaited and the picture is drawn. */
  async thumbnailsIdle(): Promise<void> {
    for (;;) {
      await this.settle();
      const th = this.engine.debug.thumbnails;
      if (!th || (th.inFlight === 0 && !th.settling && this.timers.frames.size === 0)) return;
    }
  }

  /** Renders during `ms` of doing nothing. */
  async rendersWhileIdle(ms: number): Promise<number> {
    await this.settle();
    const before = this.renders;
    await new Promise<void>((r) => setTimeout(r, ms));
    return this.renders - before;
  }

  /** What the engine still holds: listeners, timers, frames, observers (for leak checks). */
  leftBehind(): LeftBehind {
    const d = this.engine.debug;
    return {
      canvasesInDom: document.querySelectorAll('canvas').length,
      listeners: {
        window: this.watches.window.types,
        document: this.watches.document.types,
        container: this.watches.container.types,
        keyTarget: this.watches.keyTarget?.types ?? [],
      },
      timeouts: this.timers.timeouts.size,
      intervals: this.timers.intervals.size,
      animationFrames: this.timers.frames.size,
      resizeObservers: this.observers.active,
      videoFrameCallbacks: this.fakeVideo?.pendingFrameCallbacks ?? 0,
      pixiAppDestroyed: d.app === null,
      contextLost: this.gl ? this.gl.isContextLost() : false,
      thumbnailsInFlight: d.thumbnails?.inFlight ?? null,
      teardownSize: d.teardownSize,
    };
  }

  /** Destroys the engine, then reports what it left behind and stops watching. */
  async destroy(): Promise<LeftBehind> {
    this.engine.destroy();
    // Let aborted requests settle and any stray frame fire, as a page would.
    await new Promise<void>((r) => setTimeout(r, 50));
    const left = this.leftBehind();
    this.dispose();
    return left;
  }

  /** Stops watching and removes the container (the engine must be destroyed first). */
  dispose() {
    this.watches.window.stop();
    this.watches.document.stop();
    this.watches.container.stop();
    this.watches.keyTarget?.stop();
    this.timers.stop();
    this.observers.stop();
    this.container.remove();
  }
}
