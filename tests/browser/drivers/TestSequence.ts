/**
 * TestTimeline's counterpart for the clip editor's sequence mode: drives a real SequenceEngine in a
 * browser page with pointer and key events, records what it asks of the player (seeks, shuttle
 * rates, preloads with the playback time they fired at) and counts what it leaves behind.
 */
import { TIMELINE } from '../../../src/contract';
import type { RendererPreference } from '../../../src/engine/render/pixiApp';
import { SequenceEngine } from '../../../src/engine/sequence/SequenceEngine';
import { clipStarts, type SequenceClip } from '../../../src/engine/sequence/sequenceModel';
import { testClip } from '../../fixtures/sequenceClip';
import { ListenerWatch, ObserverWatch, TimerWatch } from './TestTimeline';

export { testClip };

export interface TestSequenceOptions {
  width?: number;
  clips: SequenceClip[];
  /** Give every clip a synthetic picture (a coloured canvas) to exercise the thumbnail path. */
  pictures?: boolean;
  /** The engine's renderer ('auto' by default, canvas on a software-GL machine such as CI's). */
  renderer?: RendererPreference;
}

export class TestSequence {
  readonly seeks: number[] = [];
  readonly shuttles: number[] = [];
  /** Each preload: the clip to load and the playback time when it was asked for. */
  readonly preloads: { next: number; at: number }[] = [];
  readonly frameMs: number[] = [];
  engine!: SequenceEngine;
  private playbackTime = 0;
  private readonly watches: { window: ListenerWatch; container: ListenerWatch };
  private readonly timers = new TimerWatch();
  private readonly observers = new ObserverWatch();
  private ids = 0;

  private constructor(readonly container: HTMLElement) {
    this.watches = { window: new ListenerWatch(window), container: new ListenerWatch(container) };
  }

  /** Mounts a container `width` px wide and creates the editor in it. */
  static async create(options: TestSequenceOptions): Promise<TestSequence> {
    const container = document.createElement('div');
    container.style.cssText = `width:${options.width ?? 1000}px;position:absolute;left:20px;top:20px;`;
    document.body.appendChild(container);
    const t = new TestSequence(container);
    t.engine = await SequenceEngine.create({
      container,
      clips: options.clips,
      renderer: options.renderer,
      newId: () => `copy-${++t.ids}`,
      onSeek: (time) => t.seeks.push(time),
      onShuttle: (rate) => t.shuttles.push(rate),
      onPreload: (next) => t.preloads.push({ next, at: t.playbackTime }),
      onFrame: (ms) => t.frameMs.push(ms),
      thumbnail: options.pictures
        ? async (clip) => {
            const c = document.createElement('canvas');
            c.width = 160;
            c.height = 90;
            const g = c.getContext('2d')!;
            g.fillStyle = `hsl(${(clip.id.length * 47) % 360} 60% 50%)`;
            g.fillRect(0, 0, 160, 90);
            return createImageBitmap(c);
          }
        : undefined,
    });
    await t.settle();
    return t;
  }

  get state() {
    return this.engine.getState();
  }

  get canvas(): HTMLCanvasElement | null {
    return this.container.querySelector('canvas');
  }

  /** Two animation frames: whatever is pending is drawn. */
  async settle(): Promise<void> {
    for (let i = 0; i < 2; i++) await new Promise<void>((r) => requestAnimationFrame(() => r()));
  }

  private get rect(): DOMRect {
    return (this.canvas ?? this.container).getBoundingClientRect();
  }

  /** Client x of a sequence time. */
  clientXAt(seconds: number): number {
    const s = this.state;
    return this.rect.left + (seconds * s.viewWidth) / s.duration;
  }

  /** Client x of the middle of clip `index`. */
  clipCenterX(index: number): number {
    const starts = clipStarts(this.state.clips);
    return this.clientXAt((starts[index]! + starts[index + 1]!) / 2);
  }

  private pointer(type: string, clientX: number, row: 'ruler' | 'clips') {
    const clientY = this.rect.top + (row === 'ruler' ? TIMELINE.rulerHeight / 2 : TIMELINE.rulerHeight + TIMELINE.thumbnailRowHeight / 2);
    this.canvas?.dispatchEvent(
      new PointerEvent(type, { clientX, clientY, button: 0, buttons: type === 'pointerup' ? 0 : 1, pointerId: 1, bubbles: true }),
    );
  }

  /** Presses at `fromX`, moves there in four steps to `toX` and releases, in a row. */
  drag(fromX: number, toX: number, row: 'ruler' | 'clips' = 'clips') {
    this.pointer('pointerdown', fromX, row);
    for (let i = 1; i <= 4; i++) this.pointer('pointermove', fromX + ((toX - fromX) * i) / 4, row);
    this.pointer('pointerup', toX, row);
  }

  /** Clicks at client x in a row. */
  click(x: number, row: 'ruler' | 'clips' = 'ruler') {
    this.pointer('pointerdown', x, row);
    this.pointer('pointerup', x, row);
  }

  /** Drags a handle of the current clip (where it is drawn) by `dx` px. */
  dragHandle(handle: 'start' | 'end', dx: number) {
    const starts = clipStarts(this.state.clips);
    const i = this.state.current;
    const from = this.clientXAt(handle === 'start' ? starts[i]! : starts[i + 1]!) + (handle === 'start' ? -5 : 5);
    this.drag(from, from + dx, 'clips');
  }

  /** A key on the body (it bubbles to window), with modifiers; true when the editor used it. */
  key(key: string, opts: { shift?: boolean; ctrl?: boolean; meta?: boolean } = {}): boolean {
    const e = new KeyboardEvent('keydown', {
      key,
      shiftKey: !!opts.shift,
      ctrlKey: !!opts.ctrl,
      metaKey: !!opts.meta,
      bubbles: true,
      cancelable: true,
    });
    document.body.dispatchEvent(e);
    return e.defaultPrevented;
  }

  /** Plays from the current time to `to` in steps of `step` seconds, reporting each as the player's clock. */
  play(to: number, step = 1 / 25) {
    for (let t = this.state.currentTime; t <= to + 1e-9; t += step) {
      this.playbackTime = t;
      this.engine.setPlaybackTime(t);
    }
  }

  /** Destroys the editor and reports what it left behind. */
  async destroy() {
    this.engine.destroy();
    await new Promise<void>((r) => setTimeout(r, 50));
    const left = {
      canvasesInDom: this.container.querySelectorAll('canvas').length,
      listeners: { window: this.watches.window.types, container: this.watches.container.types },
      timeouts: this.timers.timeouts.size,
      animationFrames: this.timers.frames.size,
      resizeObservers: this.observers.active,
      teardownSize: this.engine.debug.teardownSize,
    };
    this.watches.window.stop();
    this.watches.container.stop();
    this.timers.stop();
    this.observers.stop();
    this.container.remove();
    return left;
  }
}
