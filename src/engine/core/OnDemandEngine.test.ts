import type { Application } from 'pixi.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OnDemandEngine } from './OnDemandEngine';

/** Animation frames run only when the test says so. */
let frames = new Map<number, (now: number) => void>();
let nextFrame = 1;
const runFrame = (now = 0) => {
  const due = [...frames.values()];
  frames = new Map();
  for (const fn of due) fn(now);
};

beforeEach(() => {
  frames = new Map();
  globalThis.requestAnimationFrame = (fn) => {
    frames.set(nextFrame, fn);
    return nextFrame++;
  };
  globalThis.cancelAnimationFrame = (id) => void frames.delete(id);
});

afterEach(() => {
  delete (globalThis as Partial<typeof globalThis>).requestAnimationFrame;
  delete (globalThis as Partial<typeof globalThis>).cancelAnimationFrame;
});

interface S {
  a: number;
  b: string;
}

/** An engine without Pixi: a stand-in app, draws counted, `steps` frames of stepping asked for. */
class Probe extends OnDemandEngine<S> {
  draws: S[] = [];
  steps = 0;
  constructor() {
    super({ a: 0, b: 'x' });
    this.app = {} as Application;
  }
  protected resize() {}
  protected draw() {
    this.draws.push(this.state);
  }
  protected override stepFrame(): boolean {
    if (this.steps <= 0) return false;
    this.steps--;
    this.patch({ a: this.state.a + 1 });
    return this.steps > 0;
  }
  set(p: Partial<S>) {
    this.patch(p);
  }
  startStepping(n: number) {
    this.steps = n;
    this.requestFrame();
  }
  stopStepping() {
    this.steps = 0;
    this.cancelStepFrame();
  }
  get count() {
    return this.drawn;
  }
}

describe('an engine drawing on demand', () => {
  it('draws once per animation frame however many changes came before it, and only after a change', () => {
    const e = new Probe();
    e.set({ a: 1 });
    e.set({ b: 'y' });
    e.set({ a: 2 });
    expect(frames.size).toBe(1);
    runFrame();
    expect(e.draws).toEqual([{ a: 2, b: 'y' }]);
    expect(frames.size).toBe(0);
    e.set({ a: 2, b: 'y' });
    expect(frames.size).toBe(0);
    expect(e.count).toBe(1);
  });

  it('keeps the state object until something changes, and tells subscribers each change', () => {
    const e = new Probe();
    const seen: S[] = [];
    const off = e.subscribe(() => seen.push(e.getState()));
    const first = e.getState();
    e.set({ a: 0 });
    expect(e.getState()).toBe(first);
    e.set({ a: 5 });
    e.set({ b: 'z' });
    expect(seen).toEqual([
      { a: 5, b: 'x' },
      { a: 5, b: 'z' },
    ]);
    off();
    e.set({ a: 6 });
    expect(seen).toHaveLength(2);
  });

  it('keeps frames coming while a step asks for them, draws each stepped change in its own frame, then stops', () => {
    const e = new Probe();
    e.startStepping(3);
    runFrame(16);
    runFrame(32);
    runFrame(48);
    expect(e.draws.map((s) => s.a)).toEqual([1, 2, 3]);
    expect(frames.size).toBe(0);
  });

  it('drops a frame asked for only to step once stepping stops, but not one with a change to draw', () => {
    const e = new Probe();
    e.startStepping(5);
    e.stopStepping();
    expect(frames.size).toBe(0);
    e.startStepping(5);
    e.set({ b: 'w' });
    e.stopStepping();
    expect(frames.size).toBe(1);
    runFrame();
    expect(e.draws).toEqual([{ a: 0, b: 'w' }]);
  });

  it('after destroy: no frame, no change, no subscriber', () => {
    const e = new Probe();
    e.set({ a: 1 });
    const seen: number[] = [];
    e.subscribe(() => seen.push(1));
    e.destroy();
    expect(e.destroyed).toBe(true);
    expect(frames.size).toBe(0);
    e.set({ a: 9 });
    e.subscribe(() => seen.push(2))();
    expect(e.getState().a).toBe(1);
    expect(seen).toEqual([]);
    expect(frames.size).toBe(0);
  });
});
