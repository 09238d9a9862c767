import type { Application } from 'pixi.js';
import { Teardown } from '../Teardown';
import type { RendererPreference } from '../render/pixiApp';

/**
 * What both engines (the moment timeline and the clip editor) are made of: one teardown, a state
 * store React reads through useSyncExternalStore, and drawing on demand. A change marks the picture
 * stale and it is drawn once in the next animation frame; no frame is requested while nothing
 * changes. A subclass may keep the loop going for a while (edge auto-scroll) with `stepFrame`.
 */
export abstract class OnDemandEngine<S extends object> {
  protected readonly teardown = new Teardown();
  protected app: Application | null = null;
  protected state: S;
  private readonly listeners = new Set<() => void>();
  private cancelFrame: (() => void) | null = null;
  /** Something changed since the last draw. */
  private stale = false;
  /** Inside the animation-frame callback, before the draw (changes then are drawn in this frame). */
  private inFrame = false;
  /** Frames drawn (tests and benchmarks). */
  protected drawn = 0;

  protected constructor(initial: S) {
    this.state = initial;
  }

  /** The current state; the same object until something changes (for useSyncExternalStore). */
  getState(): S {
    return this.state;
  }

  /** Calls `listener` after every state change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    if (this.teardown.disposed) return () => {};
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** True once destroy() ran. */
  get destroyed(): boolean {
    return this.teardown.disposed;
  }

  /** Replaces the state with `next` (a new object), marks the picture stale and tells every subscriber. */
  protected publish(next: S) {
    if (this.teardown.disposed) return;
    this.state = next;
    this.invalidate();
    for (const listener of [...this.listeners]) listener();
  }

  /** Applies `patch` when it changes any field (Object.is); otherwise nothing happens. */
  protected patch(patch: Partial<S>) {
    if (this.teardown.disposed) return;
    const current = this.state as Record<string, unknown>;
    const changed = Object.keys(patch).some((key) => !Object.is((patch as Record<string, unknown>)[key], current[key]));
    if (changed) this.publish({ ...this.state, ...patch });
  }

  /** Creates the Pixi app and puts its canvas into `container`; null when the engine was destroyed meanwhile. */
  protected async mount(o: {
    container: HTMLElement;
    testId: string;
    width: number;
    height: number;
    background: number;
    /** Which Pixi renderer draws ('auto' by default: canvas where WebGL runs in software). */
    renderer?: RendererPreference;
    /** Frees what the layers hold before the app goes (their textures). */
    beforeDestroy(): void;
  }): Promise<HTMLCanvasElement | null> {
    // Imported here so that the core (state, frames) loads without Pixi (its node tests).
    const { createOnDemandApp, mountCanvas } = await import('../render/pixiApp');
    const app = await createOnDemandApp({ width: o.width, height: o.height, background: o.background, renderer: o.renderer });
    if (this.teardown.disposed) {
      app.destroy({ removeView: true }, { children: true, context: true });
      return null;
    }
    this.app = app;
    this.teardown.add(() => {
      o.beforeDestroy();
      // Layer textures are destroyed by their layers above; `texture: true` here would also destroy
      // Pixi's shared Texture.WHITE that placeholders use.
      app.destroy({ removeView: true }, { children: true, context: true });
      this.app = null;
    });
    const canvas = mountCanvas(app, o.container, o.testId, this.teardown);
    const observer = new ResizeObserver(() => this.resize());
    observer.observe(o.container);
    this.teardown.add(() => observer.disconnect());
    return canvas;
  }

  /** Re-reads the container's size (the ResizeObserver calls this). */
  protected abstract resize(): void;

  /** Draws the layers from the state and renders once. */
  protected abstract draw(): void;

  /**
   * Runs at the start of each animation frame, before the draw; true asks for another frame after
   * this one (edge auto-scroll). Changes made here are drawn in this frame.
   */
  protected stepFrame(_now: number): boolean {
    return false;
  }

  /** Marks the picture stale; it is drawn once in the next animation frame. */
  protected invalidate() {
    this.stale = true;
    this.requestFrame();
  }

  /** Asks for an animation frame (one serves drawing and stepping) unless one is pending. */
  protected requestFrame() {
    if (this.cancelFrame || this.inFrame || !this.app || this.teardown.disposed) return;
    this.cancelFrame = this.teardown.frame((now) => this.onAnimationFrame(now));
  }

  /** Drops a frame that was requested only for stepping, when nothing is left to draw. */
  protected cancelStepFrame() {
    if (!this.stale && this.cancelFrame) {
      this.cancelFrame();
      this.cancelFrame = null;
    }
  }

  private onAnimationFrame(now: number) {
    this.cancelFrame = null;
    this.inFrame = true;
    let again = false;
    try {
      again = this.stepFrame(now);
    } finally {
      this.inFrame = false;
    }
    if (this.stale) {
      this.stale = false;
      this.drawn++;
      this.draw();
    }
    if (again) this.requestFrame();
  }

  /** Frees everything registered with the teardown; later calls do nothing. */
  destroy(): void {
    if (this.teardown.disposed) return;
    this.teardown.dispose();
    this.listeners.clear();
    this.cancelFrame = null;
  }
}
