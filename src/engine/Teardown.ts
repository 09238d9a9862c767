/**
 * One registry for everything the engine creates (house style rule 2): listeners, timers, animation
 * frames, video-frame callbacks, observers, abort controllers, Pixi objects. `dispose()` undoes all
 * of it in reverse order; after that, registering anything runs its cleanup at once.
 */
export class Teardown {
  private readonly cleanups = new Map<number, () => void>();
  private nextId = 1;
  private disposedFlag = false;

  /** True once dispose() ran. */
  get disposed(): boolean {
    return this.disposedFlag;
  }

  /** How many registrations are still live (timers and frames that fired are gone). */
  get size(): number {
    return this.cleanups.size;
  }

  /** Registers a cleanup; returns a function that runs it early (and forgets it). */
  add(cleanup: () => void): () => void {
    if (this.disposedFlag) {
      cleanup();
      return () => {};
    }
    const id = this.nextId++;
    this.cleanups.set(id, cleanup);
    const remover = () => {
      const fn = this.cleanups.get(id);
      if (!fn) return;
      this.cleanups.delete(id);
      fn();
    };
    this.ids.set(remover, id);
    return remover;
  }

  /** addEventListener, removed on dispose; returns the remover. */
  listen<K extends string>(
    target: EventTarget,
    type: K,
    listener: (event: Event) => void,
    options?: AddEventListenerOptions | boolean,
  ): () => void {
    if (this.disposedFlag) return () => {};
    target.addEventListener(type, listener, options);
    const capture = typeof options === 'boolean' ? options : options?.capture;
    return this.add(() => target.removeEventListener(type, listener, capture));
  }

  /** setTimeout, cleared on dispose; forgotten once it fires. */
  timeout(fn: () => void, ms: number): () => void {
    if (this.disposedFlag) return () => {};
    let cancel: () => void = () => {};
    const handle = setTimeout(() => {
      this.forget(cancel);
      fn();
    }, ms);
    cancel = this.add(() => clearTimeout(handle));
    return cancel;
  }

  /** setInterval, cleared on dispose or by the returned function. */
  interval(fn: () => void, ms: number): () => void {
    if (this.disposedFlag) return () => {};
    const handle = setInterval(fn, ms);
    return this.add(() => clearInterval(handle));
  }

  /** requestAnimationFrame, cancelled on dispose; forgotten once it fires. */
  frame(fn: (now: number) => void): () => void {
    if (this.disposedFlag) return () => {};
    let cancel: () => void = () => {};
    const handle = requestAnimationFrame((now) => {
      this.forget(cancel);
      fn(now);
    });
    cancel = this.add(() => cancelAnimationFrame(handle));
    return cancel;
  }

  /** A child registry disposed with this one (or earlier, on its own). */
  child(): Teardown {
    const child = new Teardown();
    const remove = this.add(() => child.dispose());
    child.add(() => this.forget(remove));
    return child;
  }

  /** An AbortController aborted on dispose. */
  abortController(): AbortController {
    const controller = new AbortController();
    this.add(() => controller.abort());
    return controller;
  }

  /** Runs every cleanup, newest first. Errors in one cleanup do not stop the others. */
  dispose(): void {
    if (this.disposedFlag) return;
    this.disposedFlag = true;
    const fns = [...this.cleanups.values()].reverse();
    this.cleanups.clear();
    for (const fn of fns) {
      try {
        fn();
      } catch (error) {
        console.error('teardown failed', error);
      }
    }
  }

  // Drops a registration without running it (a timer that already fired).
  private forget(remover: () => void) {
    const id = this.ids.get(remover);
    if (id !== undefined) this.cleanups.delete(id);
  }

  private readonly ids = new WeakMap<() => void, number>();
}
